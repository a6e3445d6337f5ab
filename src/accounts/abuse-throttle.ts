import { RollingWindow } from "./rolling-window";

/**
 * Sustained pressure past the burst allowance puts the whole organization (live and test keys) in
 * a temporary throttle. The thresholds are documented in docs/limits.md.
 */
export const THROTTLE = {
  /** Rejections (429 RATE_LIMITED) within a rolling minute that start a throttle, as a multiple of the burst allowance. */
  rejectionsPerAllowance: 1,
  /** Length of a throttle, and how far each request made during one pushes its end out. */
  windowMs: 5 * 60_000,
} as const;

export class AbuseThrottle {
  private readonly rejections = new RollingWindow();
  private readonly until = new Map<string, number>();

  /** While throttled every request extends the window; returns the seconds left, or 0 when free. */
  check(org: string, nowMs: number): number {
    const end = this.until.get(org);
    if (end === undefined) return 0;
    if (end <= nowMs) {
      this.until.delete(org);
      return 0;
    }
    const extended = Math.max(end, nowMs + THROTTLE.windowMs);
    this.until.set(org, extended);
    return Math.ceil((extended - nowMs) / 1000);
  }

  /** Counts a burst rejection; returns true when it tipped the organization into a throttle. */
  recordRejection(org: string, burstLimit: number, nowMs: number): boolean {
    const threshold = Math.max(1, burstLimit * THROTTLE.rejectionsPerAllowance);
    this.rejections.take(org, Number.MAX_SAFE_INTEGER, nowMs);
    if (this.rejections.count(org, nowMs) < threshold) return false;
    this.until.set(org, nowMs + THROTTLE.windowMs);
    return true;
  }
}
