/** Every error code the API answers with, its HTTP statuses and when it happens (also feeds OpenAPI). */
export const ERROR_CODES = {
  VALIDATION_ERROR: { statuses: [400, 408, 413, 415, 422], when: "client error without a more specific code: schema failure (details.fields), body not complete within BODY_TIMEOUT_MS of the headers (408, connection closed, no quota spent), body over the size limit (413, never read, no quota spent), content type not accepted (415), document unprocessable or ruleset pin no longer served (422)" },
  AUTHENTICATION_REQUIRED: { statuses: [401], when: "no API key, or a key in an invalid format" },
  INVALID_API_KEY: { statuses: [403], when: "the key does not exist or was revoked" },
  QUOTA_EXCEEDED: { statuses: [429], when: "monthly quota (live) or sandbox allowance (test) used up; the message gives the usage, Retry-After the seconds to the window end" },
  RATE_LIMITED: { statuses: [429], when: "per-minute burst allowance used up; Retry-After gives the seconds until a slot frees" },
  ACCOUNT_THROTTLED: { statuses: [429], when: "temporary abuse throttle of an organization's live or test keys after sustained pressure past their burst allowance; requests past the allowance made while throttled extend it, to at most 15 minutes from its start" },
  ENGINE_UNAVAILABLE: { statuses: [503], when: "the engine could not serve the request within the request deadline; the quota unit is refunded" },
  INTERNAL_ERROR: { statuses: [500], when: "unexpected server error; incidentId names the logged incident" },
  NOT_FOUND: { statuses: [404], when: "no route at that path and method" },
  INVALID_INVOICE: { statuses: [422], when: "the generated document fails the EN 16931 / CIUS rules or the authority XSD; details.validationResult is the Validation result" },
  PROFILE_STANDARD_MISMATCH: { statuses: [422], when: "profile (or facturxProfile, or syntax) not allowed for the standard; details = standard, profile, allowedProfiles" },
  DOCUMENT_TYPE_STANDARD_MISMATCH: { statuses: [422], when: "creditnote for fatturapa or facturae; details.creditNoteCapableStandards" },
  INVALID_REQUEST: { statuses: [400], when: "a party has no derivable electronic address (details names the party and the fields), or a national overlay's party rule is not met" },
  PDF_TEMPLATE_AUTH_REQUIRED: { statuses: [400], when: "pdfTemplateId without an authenticated organization (every /v1 route needs a key, so a keyed request never meets it)" },
  PDF_TEMPLATE_NOT_FOUND: { statuses: [404], when: "no stored PDF template with that ref in the caller's organization" },
  PDF_TEMPLATE_INVALID: { statuses: [422], when: "the stored template definition cannot be used (details.problems)" },
  CONVERSION_UNSUPPORTED_PAIR: { statuses: [422], when: "source or target outside the EN 16931 family (FatturaPA, Facturae, e-SLOG, SDI messages), or a PDF with no embedded invoice XML; details = sourceFormat, targetFormat" },
  CONVERSION_LOSSY_FAILCLOSED: { statuses: [422], when: "the source holds something the target cannot carry and the spec does not list as an acceptable loss; details.unmappablePaths (XPaths in the source), details.lostElements (each with its reason); no body" },
  CONVERSION_TOOL_UNAVAILABLE: { statuses: [503], when: "a converter the pair needs is not deployed; details.missingTool; the quota unit is refunded" },
  CONVERSION_TOOL_ERROR: { statuses: [500], when: "a converter failed on the document; the same bytes fail the same way; the quota unit is refunded" },
  PARSE_FAILED: { statuses: [400], when: "input not parseable as a UBL or CII invoice: malformed XML, a format parse does not map, or a PDF without embedded invoice XML" },
} as const satisfies Record<string, { statuses: readonly number[]; when: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
