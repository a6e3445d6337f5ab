/** Response headers of the API: what they mean (for OpenAPI) and which browsers may read. */
export const RESPONSE_HEADERS = {
  "x-request-id": "request id (UUID) for correlation; on every response",
  "x-service-livemode": "true for a live key, false for a test key; on every /v1 response (decided by the key's prefix; true when no key was sent)",
  "x-ratelimit-limit": "per-minute burst allowance of the counter that judged the request (the organization's for a known key, the client address's otherwise); on every /v1 response",
  "x-ratelimit-remaining": "requests left in the rolling minute; 0 while the account is throttled",
  "x-ratelimit-reset": "seconds until the oldest counted request leaves the rolling minute; while the account is throttled, until the throttle ends (Retry-After)",
  "retry-after": "seconds to wait, on every 429 and on 503 shedding",
  "x-service-quota-refunded": "true when a service-side failure returned the quota unit, false when the refund was refused by the hourly cap; absent otherwise",
} as const;

/** Exactly the spec's list of headers exposed to cross-origin browsers. */
export const CORS_EXPOSED_HEADERS = [
  "x-request-id",
  "x-syntax",
  "x-profile-detected",
  "x-schematron-version",
  "x-validation",
  "x-ruleset-sha256",
  "x-ruleset-artifacts",
  "x-version-block",
  "x-pdf-kind",
  "x-source-format",
  "x-target-format",
  "x-lost-elements",
  "x-lost-elements-count",
  "x-conversion-tools",
  "x-output-envelope",
  "Service-Ruleset-Resolved",
  "Retry-After",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
] as const;

const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": CORS_EXPOSED_HEADERS.join(", "),
};

export const PREFLIGHT_HEADERS: Record<string, string> = {
  ...CORS_HEADERS,
  "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
  "access-control-allow-headers": "Authorization, X-API-Key, Content-Type, Accept, Service-Ruleset, Idempotency-Key",
  "access-control-max-age": "600",
};

/** The API serves data, never pages to frame or scripts to run. */
const HARDENING: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
};

/** The docs page needs its own inline styles and nothing else. */
export const DOCS_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

export function applyStandardHeaders(headers: Headers): void {
  for (const [name, value] of Object.entries(HARDENING)) if (!headers.has(name)) headers.set(name, value);
  for (const [name, value] of Object.entries(CORS_HEADERS)) headers.set(name, value);
}
