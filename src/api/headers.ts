/** Response headers of the API: what they mean and what their values are (for OpenAPI). */
export const RESPONSE_HEADERS = {
  "x-request-id": { description: "request id (UUID) for correlation; on every response", type: "string" },
  "x-service-livemode": { description: "true for a live key, false for a test key; on every /v1 response (decided by the key's prefix; true when no key was sent)", type: "string" },
  "x-ratelimit-limit": { description: "per-minute burst allowance of the counter that judged the request (the organization's for a known key, the client address's otherwise); on every /v1 response", type: "integer" },
  "x-ratelimit-remaining": { description: "requests left in the rolling minute; 0 while the account is throttled", type: "integer" },
  "x-ratelimit-reset": { description: "seconds until the oldest counted request leaves the rolling minute; while the account is throttled, until the throttle ends (Retry-After)", type: "integer" },
  "retry-after": { description: "seconds to wait, on every 429 and on 503 shedding", type: "integer" },
  "x-service-quota-refunded": { description: "true when a service-side failure returned the quota unit, false when the refund was refused by the hourly cap; absent otherwise", type: "string" },
  "x-syntax": { description: "the syntax of the document: ubl or cii; absent when not reported", type: "string" },
  "x-profile-detected": { description: "the profile the customization id names (e.g. en16931, xrechnung, peppol-bis, facturx:basic); absent when none", type: "string" },
  "x-schematron-version": { description: "the EN 16931 Schematron version that ran; absent when none ran", type: "string" },
  "x-validation": { description: "one-line verdict: pass or fail with the error and warning counts; the body is authoritative", type: "string" },
  "x-ruleset-sha256": { description: "header form of the result's rulesetSha256; absent when no ruleset ran", type: "string" },
  "x-ruleset-artifacts": { description: "header form of the result's rulesetArtifacts: a compact JSON array of {key, version, fileSha256}", type: "string" },
  "Service-Ruleset-Resolved": { description: "when the request sent Service-Ruleset: previous if a retained ruleset served it, else latest", type: "string" },
  "x-version-block": { description: "compact JSON of the artifact versions that judged the output (schematronVersion, ciusVersion, ..., facturxProfile); omitted when empty", type: "string" },
  "x-pdf-kind": { description: "hybrid (PDF/A-3 with the invoice XML embedded) or visualization (a picture of the invoice; the XML is the legal artifact); PDF output only", type: "string" },
  "x-output-envelope": { description: "xml or pdf: the envelope of a raw body, matching its content type; absent on a JSON answer", type: "string" },
  "x-lost-elements-count": { description: "how many elements the target could not carry (exact): generate's dropped request fields, convert's acceptable losses", type: "integer" },
  "x-lost-elements": { description: "those elements as compact JSON, [] when none (generate: {bt?, xpath} as the envelope's droppedFields; convert: LostElement objects), capped at 6 KB: above the cap the first entries that fit, then {truncated: true, more: N}", type: "string" },
  "x-source-format": { description: "convert: the resolved source format (cii, ubl, zugferd, facturx, xrechnung, peppol-bis)", type: "string" },
  "x-target-format": { description: "convert: the target format, as asked", type: "string" },
  "x-conversion-tools": { description: "convert: the engines that ran, comma-separated, in execution order (audit only)", type: "string" },
} as const;

export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

/** Request headers a route reads besides authentication and content negotiation (for OpenAPI). */
export const REQUEST_HEADERS = {
  "Service-Ruleset":
    "the rule versions that judge: latest, previous, or exact pins <versionKey>:<version>[,...]; overrides the organization's default channel. A malformed value is a 400 VALIDATION_ERROR, a pin no longer served a 422 VALIDATION_ERROR",
  "Idempotency-Key":
    "printable ASCII, 1 to 255 characters (else 400 INVALID_IDEMPOTENCY_KEY before anything is spent): the same key and body answer the first transmission again (200, deduplicated: true); the same key with another body is 409 IDEMPOTENCY_KEY_REUSED",
} as const;

export type RequestHeader = keyof typeof REQUEST_HEADERS;

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
