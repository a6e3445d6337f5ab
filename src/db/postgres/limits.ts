// The per-minute counters and abuse throttles every instance shares. The caller's clock is the only
// clock (tests travel in time, and instances must agree with the times they report).
import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { RollingCounters, ThrottleRecords, WindowVerdict } from "../storage";
import type { Db } from "./accounts";
import { rateWindows, throttles } from "./schema";

const WINDOW_MS = 60_000;
/** How many takes an instance makes between two sweeps of the counters nobody has used for a window. */
const TAKES_PER_SWEEP = 256;

/** The answer RollingWindow (src/accounts/rolling-window.ts) gives, from the hits still in the window. */
function verdict(live: number[], allowed: boolean, limit: number, nowMs: number): WindowVerdict {
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - live.length),
    resetSeconds: live.length ? Math.max(1, Math.ceil((live[0]! + WINDOW_MS - nowMs) / 1000)) : 0,
  };
}

export function rollingCounters(db: Db, takesPerSweep = TAKES_PER_SWEEP): RollingCounters {
  let takes = 0;

  /**
   * One conditional UPDATE: the WHERE counts the live hits and the SET prunes and appends, so a take
   * that waited for another re-counts on the row that one left (READ COMMITTED re-evaluation). The
   * hits are kept sorted, not in arrival order: instances' clocks differ a little, and the first
   * hit must be the oldest for resetSeconds and the last the newest for the sweep.
   */
  async function admit(counter: string, limit: number, nowMs: number): Promise<number[] | undefined> {
    const cut = nowMs - WINDOW_MS;
    const [row] = await db
      .update(rateWindows)
      .set({ hits: sql`array(select h from unnest(array_append(${rateWindows.hits}, ${nowMs}::bigint)) as h where h > ${cut} order by h)` })
      .where(and(eq(rateWindows.counter, counter), sql`(select count(*) from unnest(${rateWindows.hits}) as h where h > ${cut}) < ${limit}`))
      .returning({ hits: rateWindows.hits });
    return row?.hits;
  }

  /** Deletes the rows whose newest hit has left the window (or that hold none). */
  async function sweep(nowMs: number): Promise<void> {
    const newest = sql`${rateWindows.hits}[cardinality(${rateWindows.hits})]`;
    await db.delete(rateWindows).where(sql`${newest} is null or ${newest} <= ${nowMs - WINDOW_MS}`);
  }

  return {
    async take(counter, limit, nowMs) {
      if (++takes % takesPerSweep === 0) await sweep(nowMs);
      // The admitting update comes first: a counter in use has its row (one round trip per take);
      // the row is made only when the update finds none.
      for (;;) {
        const admitted = await admit(counter, limit, nowMs);
        if (admitted) return verdict(admitted, true, limit, nowMs);
        // Refused only by a full row: a row a sweep took in between (gone, or made again empty) is tried again.
        const [row] = await db.select({ hits: rateWindows.hits }).from(rateWindows).where(eq(rateWindows.counter, counter));
        const live = row?.hits.filter((h) => h > nowMs - WINDOW_MS) ?? [];
        if (row && live.length >= limit) return verdict(live, false, limit, nowMs);
        if (!row) await db.insert(rateWindows).values({ counter, hits: [] }).onConflictDoNothing();
      }
    },
  };
}

export function throttleRecords(db: Db): ThrottleRecords {
  const held = { startedAt: throttles.startedAt, until: throttles.until };
  return {
    async active(counter, nowMs) {
      return (await db.select(held).from(throttles).where(and(eq(throttles.counter, counter), gt(throttles.until, nowMs))))[0];
    },
    async start(counter, nowMs, until) {
      // A throttle that has ended is replaced; one still in force stands.
      await db
        .insert(throttles)
        .values({ counter, startedAt: nowMs, until })
        .onConflictDoUpdate({ target: throttles.counter, set: { startedAt: nowMs, until }, setWhere: lte(throttles.until, nowMs) });
    },
    async extend(counter, until, maxMs) {
      const [row] = await db
        .update(throttles)
        .set({ until: sql`greatest(${throttles.until}, least(${until}::bigint, ${throttles.startedAt} + ${maxMs}::bigint))` })
        .where(eq(throttles.counter, counter))
        .returning(held);
      return row;
    },
  };
}
