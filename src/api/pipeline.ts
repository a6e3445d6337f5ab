import type { Deps } from "./deps";
import type { Caller, RequestBasics, RequestContext, RouteDef } from "./route";
import { DomainError } from "../errors/domain-error";
import { StorageUnavailable } from "../db/storage";
import { connectionClosed, notFound } from "./errors";
import { authenticateRequest, claimedLivemode, presentedKey } from "./auth";
import { sessionCaller } from "../dashboard/session";
import { limitAnonymous, limitCaller } from "./rate-limits";
import { checkContentType, parseJsonBody, readCappedBody } from "./body";
import { checkSchema } from "./schema-check";
import { errorResponse, successResponse } from "./respond";
import { applyStandardHeaders } from "./headers";
import type { ThrottleSubtype } from "./metrics";

const SUBTYPES: Record<string, ThrottleSubtype> = {
  RATE_LIMITED: "rate_limit_hit",
  QUOTA_EXCEEDED: "quota_exhausted",
  ACCOUNT_THROTTLED: "abuse_throttle_hit",
};

async function readInput(route: RouteDef, ctx: RequestBasics, bodyTimeoutMs: number): Promise<{ body: unknown; query: unknown }> {
  const query = route.query ? checkSchema(route.query, Object.fromEntries(ctx.url.searchParams), "query") : undefined;
  if (!route.body) return { body: undefined, query };
  const contentType = checkContentType(ctx.request, route.body);
  const bytes = await readCappedBody(ctx.request, { maxBytes: route.body.maxBytes, deadlineAt: ctx.arrivedAt + bodyTimeoutMs, timeoutMs: bodyTimeoutMs });
  if (route.body.kind === "binary") return { body: { bytes, contentType }, query };
  return { body: checkSchema(route.body.schema, parseJsonBody(bytes), "body"), query };
}

/**
 * Bun dispatches a request and then goes on parsing the bytes it has already read. A request
 * pipelined behind one still in progress makes it close the connection (its HTTP layer refuses
 * async pipelining), so the request in progress can never be answered; the close lands one turn of
 * the event loop after dispatch. A metered route waits that turn, and spends no unit on an answer
 * nobody can receive (docs/limits.md, Connections).
 */
async function stillConnected(request: Request): Promise<boolean> {
  await new Promise((resolve) => setImmediate(resolve));
  return !request.signal.aborted;
}

/**
 * The caller of a keyed route: a signed-in dashboard page when the request carries no key but a
 * session, else the key. Failed authentications count against the client address, which slows
 * key guessing.
 */
async function authenticated(deps: Deps, request: Request, clientAddress: string, headers: Headers): Promise<Caller> {
  try {
    return (presentedKey(request) === null && (await sessionCaller(deps, request))) || (await authenticateRequest(deps.storage, request));
  } catch (error) {
    // A database that cannot answer says nothing about the key: no count against the address.
    if (!(error instanceof StorageUnavailable)) await limitAnonymous(deps, clientAddress, headers);
    throw error;
  }
}

interface Incoming {
  request: Request;
  params: Record<string, string>;
  clientAddress: string;
  /** Time from arrival by which a request's whole body must have arrived (BODY_TIMEOUT_MS). */
  bodyTimeoutMs: number;
}

/**
 * Every API request goes through here: authentication, throttle and burst, body cap, schema,
 * handler, then the envelope and the headers every response carries.
 */
export async function runRoute(deps: Deps, route: RouteDef | null, incoming: Incoming): Promise<Response> {
  const { request } = incoming;
  const url = new URL(request.url);
  const arrivedAt = Date.now();
  const ctx: RequestBasics = {
    request,
    url,
    params: incoming.params,
    requestId: crypto.randomUUID(),
    arrivedAt,
    deadlineAt: arrivedAt + deps.config.requestDeadlineMs,
    headers: new Headers(),
    deps,
  };
  const isApi = url.pathname === "/v1" || url.pathname.startsWith("/v1/");
  let caller: Caller | null = null;
  let response: Response;
  try {
    if (!route) {
      if (isApi) await limitAnonymous(deps, incoming.clientAddress, ctx.headers);
      throw notFound(request.method, url.pathname);
    }
    // The handler is bound to its context here, where `route.auth` has told which one it takes.
    let handle: (input: { body: unknown; query: unknown }) => unknown;
    if (route.auth === "key") {
      const keyed: RequestContext<"key"> = { ...ctx, caller: await authenticated(deps, request, incoming.clientAddress, ctx.headers) };
      caller = keyed.caller;
      await limitCaller(deps, keyed.caller, ctx.headers);
      handle = (input) => route.handle(keyed, input);
    } else {
      if (isApi) await limitAnonymous(deps, incoming.clientAddress, ctx.headers);
      handle = (input) => route.handle({ ...ctx, caller: null }, input);
    }
    const input = await readInput(route, ctx, incoming.bodyTimeoutMs);
    if (route.doc.metered && !(await stillConnected(request))) throw connectionClosed("before the request was answered");
    const result = await handle(input);
    response = result instanceof Response ? result : successResponse(result);
  } catch (error) {
    response = errorResponse(error, { requestId: ctx.requestId, method: request.method, path: url.pathname });
    if (response.status === 429) deps.metrics.count429(error instanceof DomainError ? (SUBTYPES[error.code] ?? "unknown") : "unknown");
  }
  ctx.headers.forEach((value, name) => response.headers.set(name, value));
  response.headers.set("x-request-id", ctx.requestId);
  if (isApi) {
    response.headers.set("x-service-livemode", String(caller ? caller.livemode : claimedLivemode(request)));
    if (!response.headers.has("cache-control")) response.headers.set("cache-control", "no-store");
  }
  applyStandardHeaders(response.headers);
  deps.metrics.observe(request.method, route?.path ?? "unmatched", (Date.now() - arrivedAt) / 1000);
  return response;
}
