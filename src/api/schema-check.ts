import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { TSchema, Static } from "@sinclair/typebox";
import { badRequest, type FieldError } from "./errors";

/**
 * Request schemas are TypeBox (so they are the TypeScript types and the OpenAPI document too), and
 * Ajv judges them: its error objects are the `details.fields` shapes the spec describes.
 */
const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
/** Query strings arrive as text; numbers and booleans there are coerced before the check. */
const queryAjv = addFormats(new Ajv({ allErrors: true, strict: false, coerceTypes: true }));

const compiled = new WeakMap<TSchema, ValidateFunction>();

function validatorFor(schema: TSchema, coerce: boolean): ValidateFunction {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const validate = (coerce ? queryAjv : ajv).compile(schema);
  compiled.set(schema, validate);
  return validate;
}

/** The spec's path rules: a missing top-level property is named bare, a nested one reports its parent. */
export function toFieldError(error: ErrorObject): FieldError {
  if (error.keyword === "required") {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return { path: error.instancePath === "" ? missing : error.instancePath, message: error.message ?? `must have required property '${missing}'`, keyword: "required" };
  }
  if (error.keyword === "additionalProperties") {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    return { path: error.instancePath, message: `must NOT have additional properties ('${extra}' is not allowed here)`, keyword: "additionalProperties" };
  }
  return { path: error.instancePath, message: error.message ?? "is invalid", keyword: error.keyword };
}

export function checkSchema<S extends TSchema>(schema: S, value: unknown, what: "body" | "query"): Static<S> {
  const validate = validatorFor(schema, what === "query");
  if (validate(value)) return value as Static<S>;
  const fields = (validate.errors ?? []).map(toFieldError);
  const first = fields[0];
  const summary = first ? `${first.path || what} ${first.message}` : "does not match the schema";
  throw badRequest(`the request ${what} is invalid: ${summary}${fields.length > 1 ? ` (and ${fields.length - 1} more, see details.fields)` : ""}`, fields);
}
