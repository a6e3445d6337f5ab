import type { ErrorCode } from "../errors/error-codes";
import { DomainError, type FieldError } from "../errors/domain-error";

/** A refusal decided by HTTP code itself, which may need response headers (Retry-After, WWW-Authenticate). */
export class ApiError<C extends ErrorCode = ErrorCode> extends DomainError<C> {
  constructor(
    status: DomainError<C>["status"],
    code: C,
    message: string,
    details?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(status, code, message, details);
  }
}

export const badRequest = (message: string, fields?: FieldError[]) =>
  new ApiError(400, "VALIDATION_ERROR", message, fields ? { fields } : undefined);

export const tooLarge = (limitBytes: number) =>
  new ApiError(413, "VALIDATION_ERROR", `the request body is larger than this route's limit of ${limitBytes} bytes; nothing was read or charged`);

export const unsupportedMediaType = (got: string | null, accepted: readonly string[]) =>
  new ApiError(415, "VALIDATION_ERROR", `content type ${got ? `'${got}'` : "(none)"} is not accepted here; send one of ${accepted.join(", ")}`);

/**
 * The connection failed rather than the request: a body that stopped arriving, or a connection
 * closed before the answer could be written. A client's doing (or the runtime's), never ours: it
 * is logged as the event it is, not as an incident.
 */
export class ConnectionFault extends ApiError<"VALIDATION_ERROR"> {
  constructor(status: 400 | 408, message: string, readonly event: string, headers: Record<string, string> = {}) {
    super(status, "VALIDATION_ERROR", message, undefined, headers);
  }
}

/** 408 closes the connection: the rest of a late body must not be read as the next request. */
export const bodyTimedOut = (timeoutMs: number) =>
  new ConnectionFault(
    408,
    `the request body did not arrive within ${timeoutMs / 1000} s of the request headers; nothing was charged. Send the whole body without pausing`,
    "request body timed out",
    { connection: "close" },
  );

/** Nobody receives this answer; the status only classifies the request in the log. */
export const connectionClosed = (when: string) =>
  new ConnectionFault(400, `the connection closed ${when}`, `connection closed ${when}`);

export const notFound = (method: string, path: string) =>
  new ApiError(404, "NOT_FOUND", `no route for ${method} ${path}`);

/** Incident ids are short enough for the spec's 20-character cap and easy to read out on the phone. */
export function newIncidentId(): string {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return "inc_" + Array.from(bytes, (b) => alphabet[b & 31]).join("");
}
