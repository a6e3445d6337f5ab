import { RollingWindow } from "./rolling-window";

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

interface Throttle {
  startedAt: number;
  until: number;
}

export class AbuseThrottle {
  private readonly rejections = new RollingWindow();
  /**
   * Requests made while throttled, counted like the burst: only one the burst would have refused
   * extends the throttle, so a client polling within its allowance is free when the window ends.
   */
  private readonly attempts = new RollingWindow();
  private readonly active = new Map<string, Throttle>();

  /** Returns the seconds left in the counter's throttle (after any extension this request earns), or 0 when free. */
  check(counter: string, burstLimit: number, nowMs: number): number {
    const throttle = this.active.get(counter);
    if (throttle === undefined) return 0;
    if (throttle.until <= nowMs) {
      this.active.delete(counter);
      return 0;
    }
    if (!this.attempts.take(counter, burstLimit, nowMs).allowed) {
      const extended = Math.max(throttle.until, nowMs + THROTTLE.windowMs);
      throttle.until = Math.min(extended, throttle.startedAt + THROTTLE.maxMs);
    }
    return Math.ceil((throttle.until - nowMs) / 1000);
  }

  /** Counts a burst rejection; returns true when it tipped the counter into a throttle. */
  recordRejection(counter: string, burstLimit: number, nowMs: number): boolean {
    const threshold = Math.max(1, burstLimit * THROTTLE.rejectionsPerAllowance);
    this.rejections.take(counter, Number.MAX_SAFE_INTEGER, nowMs);
    if (this.rejections.count(counter, nowMs) < threshold) return false;
    this.active.set(counter, { startedAt: nowMs, until: nowMs + THROTTLE.windowMs });
    return true;
  }
}
