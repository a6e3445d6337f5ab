// The rolling counters and abuse throttles of one process, for SQLite: one process serves a SQLite
// file, so counting in memory is exact, and costs no write per request. PostgreSQL keeps them in
// the database instead (src/db/postgres), where every instance counts against the same rows.

import { RollingWindow } from "../accounts/rolling-window";
import type { RollingCounters, Throttle, ThrottleRecords } from "./storage";

export function memoryCounters(): RollingCounters {
  const window = new RollingWindow();
  return { take: async (counter, limit, nowMs) => window.take(counter, limit, nowMs) };
}

export function memoryThrottles(): ThrottleRecords {
  const active = new Map<string, Throttle>();
  const current = (counter: string, nowMs: number) => {
    const throttle = active.get(counter);
    if (throttle && throttle.until <= nowMs) active.delete(counter);
    return throttle && throttle.until > nowMs ? throttle : undefined;
  };
  return {
    async active(counter, nowMs) {
      const throttle = current(counter, nowMs);
      return throttle && { ...throttle };
    },
    async start(counter, nowMs, until) {
      if (!current(counter, nowMs)) active.set(counter, { startedAt: nowMs, until });
    },
    async extend(counter, until, maxMs) {
      const throttle = active.get(counter);
      if (!throttle) return undefined;
      throttle.until = Math.max(throttle.until, Math.min(until, throttle.startedAt + maxMs));
      return { ...throttle };
    },
  };
}
