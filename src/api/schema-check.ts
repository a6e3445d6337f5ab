import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { TSchema, Static } from "@sinclair/typebox";
import { badRequest } from "./errors";
import type { FieldError } from "../errors/domain-error";
import { firstForbiddenChar } from "../syntax/xml-chars";

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

/**
 * Compiles a route's schema ahead of its first request: Ajv's compilation of the invoice schema runs
 * on the HTTP thread for tens of milliseconds, which every other route would wait out.
 */
export function prepareSchema(schema: TSchema, what: "body" | "query"): void {
  validatorFor(schema, what === "query");
}

/** The spec's path rules: a missing top-level property is named bare, a nested one reports its parent. */
function toFieldError(error: ErrorObject): FieldError {
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

/** Objects and arrays nested deeper than this are refused before the schema is asked. */
export const MAX_JSON_DEPTH = 32;
/** Field errors one answer lists at most; the message gives the total. */
const MAX_REPORTED_FIELDS = 100;

const pointerStep = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * What every value the API takes in must be, whatever its schema: strings XML 1.0 can carry (any
 * string may end up in a document), finite numbers (JSON.parse reads 1e309 as Infinity, which no
 * schema keyword refuses), and nesting of at most MAX_JSON_DEPTH levels (sub-lines recurse, and
 * every step after this one walks them recursively).
 */
function inputErrors(value: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const visit = (node: unknown, path: string, depth: number) => {
    // One past the cap is enough to know the answer lists only some.
    if (errors.length > MAX_REPORTED_FIELDS) return;
    if (typeof node === "string") {
      const forbidden = firstForbiddenChar(node);
      if (forbidden) {
        const message = `contains ${forbidden.name} at character ${forbidden.index + 1}, which XML 1.0 cannot carry (control characters other than TAB, LF and CR, U+FFFE, U+FFFF and unpaired surrogates are refused)`;
        errors.push({ path, message, keyword: "xmlChar" });
      }
    } else if (typeof node === "number") {
      if (!Number.isFinite(node)) errors.push({ path, message: "must be a finite number (a JSON number this large reads as infinity)", keyword: "finite" });
    } else if (node !== null && typeof node === "object") {
      if (depth === MAX_JSON_DEPTH) {
        errors.push({ path, message: `must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`, keyword: "maxDepth" });
        return;
      }
      for (const [key, child] of Object.entries(node)) visit(child, `${path}/${pointerStep(key)}`, depth + 1);
    }
  };
  visit(value, "", 0);
  return errors;
}

export function checkSchema<S extends TSchema>(schema: S, value: unknown, what: "body" | "query"): Static<S> {
  const fields = inputErrors(value);
  // Ajv recurses with the value, so a value past the depth bound is not given to it.
  if (!fields.some((f) => f.keyword === "maxDepth")) {
    const validate = validatorFor(schema, what === "query");
    if (!validate(value)) fields.push(...(validate.errors ?? []).map(toFieldError));
  }
  if (fields.length === 0) return value as Static<S>;
  const first = fields[0]!;
  const listed = fields.slice(0, MAX_REPORTED_FIELDS);
  const more = fields.length > listed.length ? `and more, details.fields lists the first ${listed.length}` : `and ${fields.length - 1} more, see details.fields`;
  throw badRequest(`the request ${what} is invalid: ${first.path || what} ${first.message}${fields.length > 1 ? ` (${more})` : ""}`, listed);
}
