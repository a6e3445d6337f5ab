import type { ErrorCode } from "./error-codes";

/** An answer other than success: rendered as `{success:false, error:{code, message, details?}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface FieldError {
  path: string;
  message: string;
  keyword: string;
}

export const badRequest = (message: string, fields?: FieldError[]) =>
  new ApiError(400, "VALIDATION_ERROR", message, fields ? { fields } : undefined);

export const tooLarge = (limitBytes: number) =>
  new ApiError(413, "VALIDATION_ERROR", `the request body is larger than this route's limit of ${limitBytes} bytes; nothing was read or charged`);

export const unsupportedMediaType = (got: string | null, accepted: readonly string[]) =>
  new ApiError(415, "VALIDATION_ERROR", `content type ${got ? `'${got}'` : "(none)"} is not accepted here; send one of ${accepted.join(", ")}`);

export const notFound = (method: string, path: string) =>
  new ApiError(404, "NOT_FOUND", `no route for ${method} ${path}`);

/** Incident ids are short enough for the spec's 20-character cap and easy to read out on the phone. */
export function newIncidentId(): string {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return "inc_" + Array.from(bytes, (b) => alphabet[b & 31]).join("");
}
