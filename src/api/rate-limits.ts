import { allowanceFor } from "../accounts/plans";
import type { WindowVerdict } from "../accounts/rolling-window";
import { ApiError } from "./errors";
import type { Caller } from "./route";
import type { Deps } from "./deps";

function setRateHeaders(headers: Headers, verdict: WindowVerdict): void {
  headers.set("x-ratelimit-limit", String(verdict.limit));
  headers.set("x-ratelimit-remaining", String(verdict.remaining));
  headers.set("x-ratelimit-reset", String(verdict.resetSeconds));
}

function rateLimited(verdict: WindowVerdict, who: string): ApiError {
  return new ApiError(
    429,
    "RATE_LIMITED",
    `${who} is over its burst allowance of ${verdict.limit} requests per minute; retry in ${verdict.resetSeconds} s`,
    undefined,
    { "retry-after": String(verdict.resetSeconds) },
  );
}

/**
 * Abuse throttle first (it blocks everything), then the rolling burst of the organization. Live and
 * test keys have separate burst counters; the throttle covers the organization as a whole.
 */
export function limitCaller(deps: Deps, caller: Caller, headers: Headers): void {
  const nowMs = deps.clock().getTime();
  const orgId = caller.org.id;
  const throttledFor = deps.throttle.check(orgId, nowMs);
  if (throttledFor > 0) {
    throw new ApiError(
      429,
      "ACCOUNT_THROTTLED",
      `this organization is temporarily throttled after sustained requests past its burst allowance; every request made meanwhile extends the throttle, retry in ${throttledFor} s`,
      undefined,
      { "retry-after": String(throttledFor) },
    );
  }
  const limit = allowanceFor(caller.org.plan, caller.livemode).burstPerMinute;
  const verdict = deps.burst.take(`${orgId}:${caller.livemode ? "live" : "test"}`, limit, nowMs);
  setRateHeaders(headers, verdict);
  if (!verdict.allowed) {
    deps.throttle.recordRejection(orgId, limit, nowMs);
    throw rateLimited(verdict, `this organization's ${caller.livemode ? "live" : "test"} traffic`);
  }
}

/** Keyless routes and requests that fail authentication are counted per client address. */
export function limitAnonymous(deps: Deps, clientAddress: string, headers: Headers): void {
  const verdict = deps.anonymous.take(`ip:${clientAddress}`, deps.config.anonymousPerMinute, deps.clock().getTime());
  setRateHeaders(headers, verdict);
  if (!verdict.allowed) throw rateLimited(verdict, "this client address");
}
