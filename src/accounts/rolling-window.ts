import type { WindowVerdict } from "../db/storage";

/**
 * A rolling one-minute allowance per counter: the whole allowance may be spent at once, and each
 * admitted request frees its slot exactly one window after it was admitted.
 */
export class RollingWindow {
  private readonly hits = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(private readonly windowMs = 60_000) {}

  take(counter: string, limit: number, nowMs: number): WindowVerdict {
    this.sweep(nowMs);
    const live = this.prune(counter, nowMs);
    const allowed = live.length < limit;
    if (allowed) live.push(nowMs);
    if (live.length > 0) this.hits.set(counter, live);
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - live.length),
      resetSeconds: live.length ? Math.max(1, Math.ceil((live[0] + this.windowMs - nowMs) / 1000)) : 0,
    };
  }

  private prune(counter: string, nowMs: number): number[] {
    const list = this.hits.get(counter) ?? [];
    let drop = 0;
    while (drop < list.length && list[drop] <= nowMs - this.windowMs) drop++;
    if (drop === 0) return list;
    const kept = list.slice(drop);
    if (kept.length) this.hits.set(counter, kept);
    else this.hits.delete(counter);
    return kept;
  }

  // Idle counters would otherwise stay in memory forever.
  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweep < this.windowMs) return;
    this.lastSweep = nowMs;
    for (const counter of [...this.hits.keys()]) this.prune(counter, nowMs);
  }
}
