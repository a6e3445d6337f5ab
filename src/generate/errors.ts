// The one error type of the generate and parse domain: the route turns it into the error envelope
// as is (status, code, message, details), so every refusal is decided here, not in HTTP code.

export interface FieldError {
  path: string;
  message: string;
  keyword: string;
}

export class GenerateError extends Error {
  constructor(
    readonly status: 400 | 422,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "GenerateError";
  }
}

/** 400 VALIDATION_ERROR with `details.fields`, the shape schema failures have. */
export function fieldErrors(fields: FieldError[]): GenerateError {
  const summary = fields.map((f) => `${f.path} ${f.message}`).join("; ");
  return new GenerateError(400, "VALIDATION_ERROR", `the invoice cannot be generated: ${summary}`, { fields });
}
