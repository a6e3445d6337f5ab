// A parsed invoice made fit to be generated again, as the spec promises ("a parsed invoice can be
// edited and regenerated"). A document says things the generate schema spells one way only or
// cannot take at all: what has one meaning in two spellings is normalised here, and a value the
// schema still refuses is left out (with the optional field or list item holding it) or kept (a
// required field), with a warning either way, so parse never answers silently with an invoice
// generate refuses. Which kept fields refuse the whole document is parse's decision (parse.ts).
//
// The judge is the generate request's own schema (`Invoice`) under the options the API compiles it
// with (src/api/schema-check.ts), so the two cannot disagree. What that check adds beyond the
// schema holds by construction here: parsed strings come from well-formed XML (no character XML
// 1.0 forbids) and numbers from numberOf (finite, within 2^53 - 1).

import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { TSchema } from "@sinclair/typebox";
import { Invoice, InvoiceLine, type InvoiceInput } from "./schema.ts";
import { taxCurrencyErrors } from "./field-errors.ts";

/** One value of the document the invoice does not carry as read. */
export interface ParseWarning {
  /** JSON pointer of the field in `invoice`. */
  path: string;
  /** The value the document gave there. */
  value: unknown;
  /** Why generate would refuse it: the schema's rule, named from `path`. */
  reason: string;
  /** `omitted`: left out of `invoice` (an optional field, a line, a sub-line); `kept`: a required one, still in it, which generate refuses until it is edited. */
  action: "omitted" | "kept";
}

let compiled: ValidateFunction | undefined;
/** Compiled on first use: only a worker that parses pays for it. */
const invoiceCheck = () => (compiled ??= addFormats(new Ajv({ allErrors: true, strict: false })).compile(Invoice));

type Json = Record<string, unknown>;

/** ISO 13616 prints an IBAN in groups of four; a BIC (ISO 9362) is case-insensitive: both are one identifier however spaced or cased. */
const compact = (value: string) => value.replace(/\s+/g, "").toUpperCase();
/** A VAT id is printed with spaces or dots between groups (`FR 05 987 654 321`, `NL8200.98.395.B.01`); the authorities compare it without them. */
const compactVatId = (value: string) => value.replace(/[\s.]+/g, "").toUpperCase();
/** xs:date may carry a time zone (`2016-04-04+01:00`); the calendar date is the same without it. */
const calendarDate = (value: string) => /^\d{4}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})$/.test(value) ? value.slice(0, 10) : value;

function normalise(invoice: InvoiceInput): void {
  const p = invoice.paymentMeans;
  if (p?.iban !== undefined) p.iban = compact(p.iban);
  if (p?.bic !== undefined) p.bic = compact(p.bic);
  for (const party of [invoice.seller, invoice.buyer]) if (party.vatId !== undefined) party.vatId = compactVatId(party.vatId);
  invoice.issueDate = calendarDate(invoice.issueDate);
  if (invoice.dueDate !== undefined) invoice.dueDate = calendarDate(invoice.dueDate);
  if (invoice.delivery?.date !== undefined) invoice.delivery.date = calendarDate(invoice.delivery.date);
  const preceding = invoice.precedingInvoiceReference;
  if (preceding?.issueDate !== undefined) preceding.issueDate = calendarDate(preceding.issueDate);
}

/** Marks a list item left out in the current pass. */
const LEFT_OUT = Symbol("left out");

/**
 * The one rule between fields generate checks beyond the schema that a document can break on its
 * own: BT-6 and BT-111 travel together and BT-6 differs from BT-5 (a tax currency equal to the
 * invoice currency, which EN 16931 allows, says nothing generate could write). Both leave together.
 */
function pairedTaxCurrency(invoice: InvoiceInput): ParseWarning[] {
  const [error] = taxCurrencyErrors(invoice);
  if (!error) return [];
  const warnings: ParseWarning[] = [];
  for (const field of ["taxCurrencyCode", "taxTotalInAccountingCurrency"] as const) {
    if (invoice[field] === undefined) continue;
    warnings.push({ path: `/${field}`, value: invoice[field], reason: `taxCurrencyCode ${error.message}`, action: "omitted" });
    delete invoice[field];
  }
  return warnings;
}

const steps = (pointer: string) => pointer.split("/").slice(1);

/** The schema of the value at `path` (sub-lines name their own schema by `$ref`). */
function schemaAt(path: readonly string[]): TSchema | undefined {
  let schema: TSchema | undefined = Invoice;
  for (const step of path) {
    if (schema?.$ref === InvoiceLine.$id) schema = InvoiceLine;
    if (schema?.type === "array") schema = schema.items as TSchema;
    else schema = (schema?.properties as Record<string, TSchema> | undefined)?.[step];
  }
  return schema?.$ref === InvoiceLine.$id ? InvoiceLine : schema;
}

/**
 * True when the last step of `path` can leave the invoice: a property its object may leave out, or
 * an item of a list (a line, a sub-line), which the list's own bound then judges.
 */
function optional(path: readonly string[]): boolean {
  const parent = schemaAt(path.slice(0, -1));
  if (parent?.type === "array") return true;
  return parent?.type === "object" && !((parent.required as string[] | undefined) ?? []).includes(path.at(-1)!);
}

/** Where an error lies: a missing property is named by its own path, not its parent's. */
function errorPath(error: ErrorObject): string[] {
  const at = steps(error.instancePath);
  return error.keyword === "required" ? [...at, (error.params as { missingProperty: string }).missingProperty] : at;
}

/** The field that carries the error out of the invoice: the nearest optional field at or above it. */
function omittable(path: readonly string[]): string[] | undefined {
  for (let end = path.length; end > 0; end--) if (optional(path.slice(0, end))) return path.slice(0, end);
  return undefined;
}

const valueAt = (root: unknown, path: readonly string[]) => path.reduce<unknown>((node, step) => (node as Json | undefined)?.[step], root);
const pointer = (path: readonly string[]) => path.map((s) => `/${s}`).join("");

function reasonOf(error: ErrorObject, field: readonly string[]): string {
  const inner = errorPath(error).slice(field.length);
  const message = error.keyword === "required" ? "is required" : (error.message ?? "is invalid");
  return inner.length ? `${pointer(errorPath(error))} ${message}` : message;
}

/**
 * Normalises the parsed invoice in place, then leaves out every optional field the generate
 * schema refuses; a required field it refuses stays, reported as `kept`. One pass per layer:
 * leaving out a field can only remove errors, so the loop ends when none is left to leave out.
 */
export function readyForGenerate(invoice: InvoiceInput): ParseWarning[] {
  normalise(invoice);
  const warnings = pairedTaxCurrency(invoice);
  const check = invoiceCheck();
  for (;;) {
    if (check(invoice)) return warnings;
    const errors = check.errors ?? [];
    const fields = new Map<string, { path: string[]; error: ErrorObject }>();
    for (const error of errors) {
      const field = omittable(errorPath(error));
      if (field && !fields.has(pointer(field))) fields.set(pointer(field), { path: field, error });
    }
    if (fields.size === 0) {
      for (const error of errors) {
        const path = errorPath(error);
        warnings.push({ path: pointer(path), value: valueAt(invoice, path) ?? null, reason: reasonOf(error, path), action: "kept" });
      }
      return warnings;
    }
    // Items are marked first and lists closed up after, so the pass's other paths keep their indexes
    // (a warning names a line by its position in the document).
    const lists = new Map<unknown[], string[]>();
    for (const { path, error } of fields.values()) {
      const parent = valueAt(invoice, path.slice(0, -1)) as Json | undefined;
      const key = path.at(-1)!;
      // A field inside one left out in this same pass is already gone with it.
      if (typeof parent !== "object" || !(key in parent) || parent[key] === LEFT_OUT) continue;
      warnings.push({ path: pointer(path), value: parent[key], reason: reasonOf(error, path), action: "omitted" });
      if (Array.isArray(parent)) {
        parent[Number(key)] = LEFT_OUT;
        lists.set(parent, path.slice(0, -1));
      } else delete parent[key];
    }
    for (const [list, at] of lists) {
      list.splice(0, list.length, ...list.filter((item) => item !== LEFT_OUT));
      // An optional list left empty goes too: a parse answer omits what the source does not give.
      if (list.length === 0 && optional(at)) delete (valueAt(invoice, at.slice(0, -1)) as Json)[at.at(-1)!];
    }
  }
}

