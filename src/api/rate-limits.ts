import { allowanceFor } from "../accounts/plans";
import { THROTTLE } from "../accounts/abuse-throttle";
import type { WindowVerdict } from "../db/storage";
import { ApiError } from "./errors";
import type { Caller } from "./route";
import type { Deps } from "./deps";

function setRateHeaders(headers: Headers, verdict: Omit<WindowVerdict, "allowed">): void {
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
 * Abuse throttle first (it blocks everything), then the rolling burst. Both count per organization
 * and key mode: live and test keys have separate burst counters and separate throttles.
 */
export async function limitCaller(deps: Deps, caller: Caller, headers: Headers): Promise<void> {
  const nowMs = deps.clock().getTime();
  const mode = caller.livemode ? "live" : "test";
  const counter = `${caller.org.id}:${mode}`;
  const limit = allowanceFor(caller.org.plan, caller.livemode).burstPerMinute;
  const throttledFor = await deps.throttle.check(counter, limit, nowMs);
  if (throttledFor > 0) {
    // The burst counter is not consulted while throttled: no request is admitted until the throttle
    // ends, whatever it holds, so the budget is nothing and comes back when Retry-After says.
    setRateHeaders(headers, { limit, remaining: 0, resetSeconds: throttledFor });
    throw new ApiError(
      429,
      "ACCOUNT_THROTTLED",
      `this organization's ${mode} keys are temporarily throttled after sustained requests past their burst allowance of ${limit} per minute; ` +
        `requests past the allowance meanwhile extend the throttle (to at most ${THROTTLE.maxMs / 60_000} minutes in all); retry in ${throttledFor} s`,
      undefined,
      { "retry-after": String(throttledFor) },
    );
  }
  const verdict = await deps.storage.counters.take(counter, limit, nowMs);
  setRateHeaders(headers, verdict);
  if (!verdict.allowed) {
    await deps.throttle.recordRejection(counter, limit, nowMs);
    throw rateLimited(verdict, `this organization's ${mode} traffic`);
  }
}

/** Keyless routes and requests that fail authentication are counted per client address. */
export async function limitAnonymous(deps: Deps, clientAddress: string, headers: Headers): Promise<void> {
  const verdict = await deps.storage.counters.take(`ip:${clientAddress}`, deps.config.anonymousPerMinute, deps.clock().getTime());
  setRateHeaders(headers, verdict);
  if (!verdict.allowed) throw rateLimited(verdict, "this client address");
}
