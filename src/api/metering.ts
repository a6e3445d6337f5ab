import { spendUnit, refundUnit, type Spend } from "../accounts/quota";
import { EngineUnavailable } from "../engine/admission";
import { DomainError } from "../errors/domain-error";
import { StorageUnavailable } from "../db/storage";
import { ApiError } from "./errors";
import type { RequestContext } from "./route";
import { secondsUntil } from "../accounts/windows";

/**
 * The one way a route spends quota: one unit per call, taken before the engine runs (for work whose
 * refusals are free, when the work asks: meteredFromSpend). The unit is returned when the failure is
 * the service's (engine outage, deadline, internal error) and kept when the caller's document or
 * request is at fault (a 4xx).
 */
export async function metered<T>(ctx: RequestContext<"key">, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const spent = await spendOrRefuse(ctx);
  try {
    return await ctx.deps.admission.run(work, ctx.deadlineAt);
  } catch (error) {
    throw await afterSpending(ctx, spent, error);
  }
}

/**
 * Metered work whose refusals are free (generate refuses a request before it spends anything on
 * it): the work calls `spend` once they have passed, which takes the unit or throws QUOTA_EXCEEDED.
 * A failure before then is unmetered()'s, a failure after it metered()'s.
 */
export async function meteredFromSpend<T>(ctx: RequestContext<"key">, work: (signal: AbortSignal, spend: () => Promise<void>) => Promise<T>): Promise<T> {
  let spent: Spend | undefined;
  const spend = async () => void (spent ??= await spendOrRefuse(ctx));
  try {
    return await ctx.deps.admission.run((signal) => work(signal, spend), ctx.deadlineAt);
  } catch (error) {
    throw spent ? await afterSpending(ctx, spent, error) : unspent(error);
  }
}

async function spendOrRefuse(ctx: RequestContext<"key">): Promise<Spend> {
  const { caller } = ctx;
  const spent = await spendUnit(ctx.deps.storage, ctx.deps.clock(), caller.org, caller.livemode);
  if (spent.ok) return spent.spend;
  const { used, limit, resetsAt } = spent.status;
  const what = caller.livemode ? "monthly quota" : "sandbox allowance for test keys (UTC calendar month)";
  throw new ApiError(
    429,
    "QUOTA_EXCEEDED",
    `the ${what} is used up: ${used} of ${limit} used; it resets at ${resetsAt}`,
    undefined,
    { "retry-after": String(secondsUntil(new Date(resetsAt), ctx.deps.clock())) },
  );
}

/** What to answer for a failure after the unit was spent, the unit returned if the service failed. */
async function afterSpending(ctx: RequestContext<"key">, spent: Spend, error: unknown): Promise<unknown> {
  if (error instanceof DomainError && error.status < 500) return error;
  const computed = error instanceof EngineUnavailable ? error.computed : true;
  const refunded = await refundUnit(ctx.deps.storage, ctx.deps.clock(), spent, computed).catch((failure) => {
    // The failure the caller gets is the engine's; a database that cannot take the refund is logged.
    if (!(failure instanceof StorageUnavailable)) throw failure;
    console.error(JSON.stringify({ level: "error", event: "refund-lost", orgId: spent.orgId, mode: spent.mode, reason: failure.reason }));
    return false;
  });
  // Test keys meter against the sandbox and carry no refund header (spec, Errors).
  if (ctx.caller.livemode) ctx.headers.set("x-service-quota-refunded", String(refunded));
  if (error instanceof EngineUnavailable) {
    return unavailable(error, refunded ? "your quota unit was returned" : "the hourly refund cap is reached, so the unit was not returned");
  }
  return error;
}

/**
 * Engine work that costs no unit (checking a template's design before it is stored): the same
 * queue and deadline as metered work, and the same 503 when the engine cannot take it.
 */
export async function unmetered<T>(ctx: RequestContext, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await ctx.deps.admission.run(work, ctx.deadlineAt);
  } catch (error) {
    throw unspent(error);
  }
}

/** What to answer for a failure before any unit was spent: an engine that could not take the work is a 503. */
function unspent(error: unknown): unknown {
  return error instanceof EngineUnavailable ? unavailable(error, "no quota unit was spent") : error;
}

function unavailable(error: EngineUnavailable, unit: string): ApiError {
  return new ApiError(503, "ENGINE_UNAVAILABLE", `${error.message}; ${unit}`, undefined, { "retry-after": String(error.retryAfterSeconds) });
}
