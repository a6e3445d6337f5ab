import type { Storage, WindowCount, WindowKey, WindowOpening } from "../db/storage";
import { allowanceFor, type PlanKey } from "./plans";
import { windowFor } from "./windows";
import type { Result } from "../errors/result";

interface OrgRef {
  id: string;
  plan: PlanKey;
  billingDay: number;
}

/** What a spent unit needs to be given back: the exact window it was taken from. */
export type Spend = WindowKey;

interface QuotaStatus {
  limit: number;
  used: number;
  remaining: number;
  resetsAt: string;
}

type SpendResult = Result<{ spend: Spend; status: QuotaStatus }, { status: QuotaStatus }>;

/** Refunds after compute-consuming failures, per organization and clock hour. */
export const COMPUTED_REFUNDS_PER_HOUR = 50;

const HOUR_MS = 3_600_000;

/** The window a request made now counts in, with the cap it opens with: the plan in force now. */
export function windowOpening(now: Date, org: OrgRef, livemode: boolean): WindowOpening {
  const window = windowFor(livemode, org.billingDay, now);
  return {
    orgId: org.id,
    mode: livemode ? "live" : "test",
    windowStart: window.start.toISOString(),
    windowEnd: window.end.toISOString(),
    quotaLimit: allowanceFor(org.plan, livemode).monthlyQuota,
  };
}

function statusOf(count: WindowCount, resetsAt: string): QuotaStatus {
  return { limit: count.quotaLimit, used: count.used, remaining: Math.max(0, count.quotaLimit - count.used), resetsAt };
}

/**
 * Takes one unit. The storage's conditional update is the whole check, so concurrent requests (in
 * this process or any other on the same database) can neither overspend nor lose a unit.
 */
export async function spendUnit(storage: Storage, now: Date, org: OrgRef, livemode: boolean): Promise<SpendResult> {
  const window = windowOpening(now, org, livemode);
  const { ok, count } = await storage.quota.spend(window);
  const spend = { orgId: window.orgId, mode: window.mode, windowStart: window.windowStart };
  return ok ? { ok, spend, status: statusOf(count, window.windowEnd) } : { ok, status: statusOf(count, window.windowEnd) };
}

/**
 * Gives a unit back. Where the failure consumed engine compute the refund counts against the
 * hourly cap and is refused past it; where nothing was computed it is unconditional.
 * Returns whether the unit was returned.
 */
export function refundUnit(storage: Storage, now: Date, spend: Spend, computed: boolean): Promise<boolean> {
  const hourStart = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS).toISOString();
  return storage.quota.refund(spend, computed ? { hourStart, cap: COMPUTED_REFUNDS_PER_HOUR } : null);
}

/** The counted window as `GET /v1/me` shows it; reading never opens a window. */
export async function quotaStatus(storage: Storage, now: Date, org: OrgRef, livemode: boolean): Promise<QuotaStatus> {
  const window = windowOpening(now, org, livemode);
  return statusOf((await storage.quota.read(window)) ?? { quotaLimit: window.quotaLimit, used: 0 }, window.windowEnd);
}
