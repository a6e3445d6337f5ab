import type { ERROR_CODES, ErrorCode } from "./error-codes";

/** The statuses the spec allows a code to answer with. */
type StatusOf<C extends ErrorCode> = (typeof ERROR_CODES)[C]["statuses"][number];

/**
 * The one error type of the domain: a refusal decided where the rule lives (status, code, message,
 * details), which HTTP only renders as the error envelope.
 */
export class DomainError<C extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly status: StatusOf<C>,
    readonly code: C,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    // A log's stack names the class that refused (ApiError, ConnectionFault …), not only the base.
    this.name = new.target.name;
  }
}

/** One field that breaks the request's schema or a rule about it, as `details.fields` lists it. */
export interface FieldError {
  path: string;
  message: string;
  keyword: string;
}

/** 400 VALIDATION_ERROR with `details.fields`, the shape schema failures have. */
export function fieldErrors(fields: FieldError[]): DomainError {
  const summary = fields.map((f) => `${f.path} ${f.message}`).join("; ");
  return new DomainError(400, "VALIDATION_ERROR", `the invoice cannot be generated: ${summary}`, { fields });
}
