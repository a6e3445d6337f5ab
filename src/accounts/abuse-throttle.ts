import type { RollingCounters, ThrottleRecords } from "../db/storage";

/**
 * Sustained pressure past the burst allowance puts the counter that took it (one organization's
 * live keys, or its test keys) in a temporary throttle, so sandbox traffic never locks out
 * production. The thresholds are documented in docs/limits.md.
 */
export const THROTTLE = {
  /** Rejections (429 RATE_LIMITED) within a rolling minute that start a throttle, as a multiple of the burst allowance. */
  rejectionsPerAllowance: 1,
  /** Length of a throttle, and how far a request past the allowance made during one pushes its end out. */
  windowMs: 5 * 60_000,
  /** No throttle lasts longer than this from its start, whatever arrives meanwhile. */
  maxMs: 15 * 60_000,
} as const;

/**
 * The throttle policy over the storage's counters and throttle records, so that with several
 * instances on one database a throttle entered by one holds on all of them.
 */
export class AbuseThrottle {
  constructor(
    private readonly counters: RollingCounters,
    private readonly records: ThrottleRecords,
  ) {}

  /** Returns the seconds left in the counter's throttle (after any extension this request earns), or 0 when free. */
  async check(counter: string, burstLimit: number, nowMs: number): Promise<number> {
    const throttle = await this.records.active(counter, nowMs);
    if (!throttle) return 0;
    let until = throttle.until;
    // Requests made while throttled are counted like the burst: only one the burst would have
    // refused extends the throttle, so a client polling within its allowance is free when it ends.
    if (!(await this.counters.take(`attempts:${counter}`, burstLimit, nowMs)).allowed) {
      until = (await this.records.extend(counter, nowMs + THROTTLE.windowMs, THROTTLE.maxMs))?.until ?? until;
    }
    return Math.max(1, Math.ceil((until - nowMs) / 1000));
  }

  /** Counts a burst rejection; returns true when it tipped the counter into a throttle. */
  async recordRejection(counter: string, burstLimit: number, nowMs: number): Promise<boolean> {
    const threshold = Math.max(1, burstLimit * THROTTLE.rejectionsPerAllowance);
    if ((await this.counters.take(`rejections:${counter}`, threshold, nowMs)).remaining > 0) return false;
    await this.records.start(counter, nowMs, nowMs + THROTTLE.windowMs);
    return true;
  }
}
