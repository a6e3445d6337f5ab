/** Every date decision takes a clock, so tests can travel in time. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** A moment's UTC calendar day, `YYYY-MM-DD`: the form every ruleset date is written and compared in. */
export const utcDay = (moment: Date): string => moment.toISOString().slice(0, 10);

/** The clock's UTC day: what "today" means for every date decision. */
export const today = (clock: Clock): string => utcDay(clock());
