import { spendUnit, refundUnit } from "../accounts/quota";
import { EngineUnavailable } from "../engine/admission";
import { DomainError } from "../errors/domain-error";
import { ApiError } from "./errors";
import type { RequestContext } from "./route";
import { secondsUntil } from "../accounts/windows";

/**
 * The one way a route spends quota: one unit per call, taken before the engine runs. The unit is
 * returned when the failure is the service's (engine outage, deadline, internal error) and kept
 * when the caller's document or request is at fault (a 4xx).
 */
export async function metered<T>(ctx: RequestContext, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const caller = ctx.caller;
  if (!caller) throw new Error("metered() needs an authenticated route");
  const { db } = ctx.deps.store;
  const spent = spendUnit(db, ctx.deps.clock(), caller.org, caller.livemode);
  if (!spent.ok) {
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
  try {
    return await ctx.deps.admission.run(work, ctx.deadlineAt);
  } catch (error) {
    if (error instanceof DomainError && error.status < 500) throw error;
    const computed = error instanceof EngineUnavailable ? error.computed : true;
    const refunded = refundUnit(db, ctx.deps.clock(), spent.spend, computed);
    // Test keys meter against the sandbox and carry no refund header (spec, Errors).
    if (caller.livemode) ctx.headers.set("x-service-quota-refunded", String(refunded));
    if (error instanceof EngineUnavailable) {
      throw unavailable(error, refunded ? "your quota unit was returned" : "the hourly refund cap is reached, so the unit was not returned");
    }
    throw error;
  }
}

/**
 * Engine work that costs no unit (a free step before the metered one, like writing generate's XML):
 * the same queue and deadline as metered work, and the same 503 when the engine cannot take it.
 */
export async function unmetered<T>(ctx: RequestContext, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await ctx.deps.admission.run(work, ctx.deadlineAt);
  } catch (error) {
    if (error instanceof EngineUnavailable) throw unavailable(error, "no quota unit was spent");
    throw error;
  }
}

function unavailable(error: EngineUnavailable, unit: string): ApiError {
  return new ApiError(503, "ENGINE_UNAVAILABLE", `${error.message}; ${unit}`, undefined, { "retry-after": String(error.retryAfterSeconds) });
}
