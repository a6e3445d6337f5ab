import { and, eq, gt, lt, sql, type Placeholder } from "drizzle-orm";
import type { Db } from "../db/connection";
import { quotaWindows, refundHours } from "../db/schema";
import { allowanceFor, PLANS, type PlanKey } from "./plans";
import { windowFor } from "./windows";
import { preparedOn } from "../db/prepared";
import type { Result } from "../errors/result";

interface OrgRef {
  id: string;
  plan: PlanKey;
  billingDay: number;
}

/** What a spent unit needs to be given back: the exact window it was taken from. */
export type Spend = {
  orgId: string;
  mode: "live" | "test";
  windowStart: string;
};

interface QuotaStatus {
  limit: number;
  used: number;
  remaining: number;
  resetsAt: string;
}

type SpendResult = Result<{ spend: Spend; status: QuotaStatus }, { status: QuotaStatus }>;

/** Refunds after compute-consuming failures, per organization and clock hour. */
export const COMPUTED_REFUNDS_PER_HOUR = 50;

const modeOf = (livemode: boolean) => (livemode ? "live" : "test");

function windowWhere(key: { [K in keyof Spend]: Spend[K] | Placeholder }) {
  return and(eq(quotaWindows.orgId, key.orgId), eq(quotaWindows.mode, key.mode), eq(quotaWindows.windowStart, key.windowStart));
}

// Every request that spends a unit runs these two, so they are prepared once (db/prepared.ts).
const theWindow = windowWhere({ orgId: sql.placeholder("orgId"), mode: sql.placeholder("mode"), windowStart: sql.placeholder("windowStart") });
const insertWindow = preparedOn((db) =>
  db
    .insert(quotaWindows)
    .values({
      orgId: sql.placeholder("orgId"),
      mode: sql.placeholder("mode"),
      windowStart: sql.placeholder("windowStart"),
      windowEnd: sql.placeholder("windowEnd"),
      quotaLimit: sql.placeholder("quotaLimit"),
      used: 0,
    })
    .onConflictDoNothing()
    .prepare(),
);
const takeUnit = preparedOn((db) =>
  db
    .update(quotaWindows)
    .set({ used: sql`${quotaWindows.used} + 1` })
    .where(and(theWindow, lt(quotaWindows.used, quotaWindows.quotaLimit)))
    .returning({ quotaLimit: quotaWindows.quotaLimit, used: quotaWindows.used })
    .prepare(),
);

/**
 * Opens the window row if it does not exist yet, freezing the cap of the plan in force now. Runs
 * inside the caller's transaction on `db`'s connection.
 */
function openWindow(db: Db, now: Date, org: OrgRef, livemode: boolean) {
  const window = windowFor(livemode, org.billingDay, now);
  const key: Spend = { orgId: org.id, mode: modeOf(livemode), windowStart: window.start.toISOString() };
  insertWindow(db).run({ ...key, windowEnd: window.end.toISOString(), quotaLimit: allowanceFor(org.plan, livemode).monthlyQuota });
  return { key, window };
}

function statusOf(row: { quotaLimit: number; used: number }, end: Date): QuotaStatus {
  return { limit: row.quotaLimit, used: row.used, remaining: Math.max(0, row.quotaLimit - row.used), resetsAt: end.toISOString() };
}

/**
 * Takes one unit. The conditional UPDATE is the whole check, so concurrent requests (in this
 * process or another one on the same file) can neither overspend nor lose a unit.
 */
export function spendUnit(db: Db, now: Date, org: OrgRef, livemode: boolean): SpendResult {
  // Every statement runs on db's connection, which the transaction holds.
  return db.transaction(() => {
    const { key, window } = openWindow(db, now, org, livemode);
    const taken = takeUnit(db).get(key);
    if (taken) return { ok: true, spend: key, status: statusOf(taken, window.end) };
    const row = db.select().from(quotaWindows).where(windowWhere(key)).get()!;
    return { ok: false, status: statusOf(row, window.end) };
  }, { behavior: "immediate" });
}

/**
 * Gives a unit back. Where the failure consumed engine compute the refund counts against the
 * hourly cap and is refused past it; where nothing was computed it is unconditional.
 * Returns whether the unit was returned.
 */
export function refundUnit(db: Db, now: Date, spend: Spend, computed: boolean): boolean {
  return db.transaction((tx) => {
    if (computed) {
      const hourStart = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000).toISOString();
      tx.insert(refundHours).values({ orgId: spend.orgId, hourStart, count: 0 }).onConflictDoNothing().run();
      const counted = tx
        .update(refundHours)
        .set({ count: sql`${refundHours.count} + 1` })
        .where(and(eq(refundHours.orgId, spend.orgId), eq(refundHours.hourStart, hourStart), lt(refundHours.count, COMPUTED_REFUNDS_PER_HOUR)))
        .returning()
        .get();
      if (!counted) return false;
    }
    const returned = tx
      .update(quotaWindows)
      .set({ used: sql`${quotaWindows.used} - 1` })
      .where(and(windowWhere(spend), gt(quotaWindows.used, 0)))
      .returning()
      .get();
    return returned !== undefined;
  }, { behavior: "immediate" });
}

/** The counted window as `GET /v1/me` shows it; reading never opens a window. */
export function quotaStatus(db: Db, now: Date, org: OrgRef, livemode: boolean): QuotaStatus {
  const window = windowFor(livemode, org.billingDay, now);
  const row = db
    .select()
    .from(quotaWindows)
    .where(windowWhere({ orgId: org.id, mode: modeOf(livemode), windowStart: window.start.toISOString() }))
    .get();
  return statusOf(row ?? { quotaLimit: allowanceFor(org.plan, livemode).monthlyQuota, used: 0 }, window.end);
}

/**
 * Called inside the plan change: the running live window is opened under the old plan first (so a
 * downgrade cannot shrink it), then raised when the new plan allows more.
 */
export function pinWindowBeforePlanChange(db: Db, now: Date, org: OrgRef, next: PlanKey): void {
  const { key } = openWindow(db, now, org, true);
  db.update(quotaWindows)
    .set({ quotaLimit: sql`max(${quotaWindows.quotaLimit}, ${PLANS[next].monthlyQuota})` })
    .where(windowWhere(key))
    .run();
}
