/** Every date decision takes a clock, so tests can travel in time. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
