import { ApiError, newIncidentId } from "./errors";

export function jsonResponse(status: number, payload: unknown, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(payload), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

export function successResponse(data: unknown): Response {
  return jsonResponse(200, { success: true, data });
}

/** Turns anything thrown into the error envelope; 5xx answers carry an incident id that is logged with the stack. */
export function errorResponse(error: unknown, log: { requestId: string; method: string; path: string }): Response {
  const apiError =
    error instanceof ApiError ? error : new ApiError(500, "INTERNAL_ERROR", "an unexpected error occurred; quote the incidentId when you report it");
  const body: Record<string, unknown> = { code: apiError.code, message: apiError.message };
  if (apiError.details !== undefined) body.details = apiError.details;
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
  return jsonResponse(apiError.status, { success: false, error: body }, apiError.headers);
}
