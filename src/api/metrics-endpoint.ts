import { createHash, timingSafeEqual } from "node:crypto";
import type { Metrics } from "./metrics";
import { ApiError, notFound } from "./errors";
import { edgeResponse, errorResponse, plainResponse } from "./respond";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Compared as digests, in constant time, so the answer's timing tells nothing about the token. */
function bearerMatches(request: Request, token: string): boolean {
  const sent = request.headers.get("authorization")?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return sent !== undefined && timingSafeEqual(digest(sent), digest(token));
}

/** `GET /metrics` for the operator's scraper: open, or behind `Authorization: Bearer <METRICS_TOKEN>`. */
export function metricsAnswer(metrics: Metrics, token: string | null, request: Request): Response {
  if (token !== null && !bearerMatches(request, token)) {
    const requestId = crypto.randomUUID();
    const refused = new ApiError(401, "AUTHENTICATION_REQUIRED", "the metrics need 'Authorization: Bearer <METRICS_TOKEN>'", undefined, {
      "www-authenticate": 'Bearer realm="metrics"',
    });
    return edgeResponse(errorResponse(refused, { requestId, method: request.method, path: "/metrics" }), requestId);
  }
  return plainResponse(metrics.render(), "text/plain; version=0.0.4; charset=utf-8");
}

/** METRICS_PORT: the metrics on their own listener on the loopback interface, and nothing else there. */
export function listenMetricsApart(metrics: Metrics, token: string | null, port: number) {
  return Bun.serve({
    port,
    hostname: "127.0.0.1",
    fetch(request) {
      const { pathname } = new URL(request.url);
      if (request.method === "GET" && pathname === "/metrics") return metricsAnswer(metrics, token, request);
      const requestId = crypto.randomUUID();
      return edgeResponse(errorResponse(notFound(request.method, pathname), { requestId, method: request.method, path: pathname }), requestId);
    },
  });
}
