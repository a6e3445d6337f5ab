import { DomainError } from "../errors/domain-error";
import { ApiError, ConnectionFault, newIncidentId } from "./errors";
import { StorageUnavailable } from "../db/storage";
import { applyStandardHeaders } from "./headers";

function jsonResponse(status: number, payload: unknown, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(payload), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** The success envelope; 202 where the work is accepted and goes on after the answer (a queued transmission). */
export function successResponse(data: unknown, status: 200 | 202 = 200): Response {
  return jsonResponse(status, { success: true, data });
}

/**
 * Turns anything thrown into the error envelope, the one place a DomainError becomes HTTP; 5xx
 * answers carry an incident id that is logged with the stack, and a connection fault is logged as
 * the event it is.
 */
export function errorResponse(error: unknown, log: { requestId: string; method: string; path: string }): Response {
  const apiError =
    error instanceof DomainError
      ? error
      : error instanceof StorageUnavailable
        ? new ApiError(503, "ENGINE_UNAVAILABLE", `${error.message}; no quota unit was spent; retry shortly`, undefined, { "retry-after": String(error.retryAfterSeconds) })
        : new DomainError(500, "INTERNAL_ERROR", "an unexpected error occurred; quote the incidentId when you report it");
  const body: Record<string, unknown> = { code: apiError.code, message: apiError.message };
  if (apiError.details !== undefined) body.details = apiError.details;
  if (error instanceof ConnectionFault) console.warn(JSON.stringify({ level: "warn", event: error.event, ...log }));
  if (apiError.status >= 500) {
    const incidentId = newIncidentId();
    body.incidentId = incidentId;
    console.error(
      JSON.stringify({
        level: "error",
        incidentId,
        ...log,
        code: apiError.code,
        stack: error instanceof Error ? error.stack : String(error),
      }),
    );
  }
  return jsonResponse(apiError.status, { success: false, error: body }, apiError instanceof ApiError ? apiError.headers : undefined);
}

/** An answer outside the /v1 pipeline still carries a request id and the hardening headers. */
export function edgeResponse(response: Response, requestId: string = crypto.randomUUID()): Response {
  response.headers.set("x-request-id", requestId);
  applyStandardHeaders(response.headers);
  return response;
}

export function plainResponse(body: string, contentType: string, extra: Record<string, string> = {}): Response {
  return edgeResponse(new Response(body, { headers: { "content-type": contentType, ...extra } }));
}
