// The XSD's limits on the request's values e-SLOG writes, as data, checked before anything is
// written: a value too long for its element is refused naming the request's JSON pointer, never
// cut. A text is split over continuation elements only where the XSD defines them as continuations
// of one text (C_C108 D_4440.._5); a party name or address line is not split, because the
// annotated sample gives D_3036_2 to the trading name (BT-45) and D_3042_2 to the second address
// line (BT-51), so a reader would take a split name for two terms.

import { fieldErrors, type FieldError } from "../../errors/domain-error.ts";
import type { InvoiceInput } from "../../invoice/schema.ts";
import { decimalOf } from "../../invoice/to-model.ts";
import { decimal } from "../../model/index.ts";
import { charLength, TEXT_PART, TEXT_PARTS } from "./segments.ts";

/** [path below its object, element, maximum characters]. */
type LengthRule = readonly [path: string, element: string, max: number];

const FREE_TEXT = TEXT_PART * TEXT_PARTS;

const INVOICE_LENGTHS: readonly LengthRule[] = [
  ["number", "D_1004", 70],
  ["buyerReference", "D_1154", 70],
  ["orderReference", "D_1154", 70],
  ["note", "D_4440 (5 parts)", FREE_TEXT],
  ["paymentTerms", "D_4440 (5 parts)", FREE_TEXT],
  ["precedingInvoiceReference/id", "D_1154", 70],
  ["paymentMeans/typeCode", "D_4461", 3],
  ["paymentMeans/paymentReference", "D_1154", 70],
  ["paymentMeans/iban", "D_3194", 35],
  ["paymentMeans/bankName", "D_3192", 35],
  ["paymentMeans/bic", "D_3433", 11],
];

const PARTY_LENGTHS: readonly LengthRule[] = [
  ["name", "D_3036", 70],
  ["vatId", "D_1154", 70],
  ["taxId", "D_1154", 70],
  ["registrationId", "D_1154", 70],
  ["address/street", "D_3042", 35],
  ["address/additionalStreet", "D_3042_2", 35],
  ["address/city", "D_3164", 35],
  ["address/postalCode", "D_3251", 17],
  ["address/countrySubentity", "D_3228", 70],
  ["contactName", "D_3412", 256],
  ["email", "D_3148", 512],
  ["phone", "D_3148", 512],
];

const LINE_LENGTHS: readonly LengthRule[] = [
  ["description", "D_7008", 256],
  ["itemId", "D_7140", 35],
  ["buyerItemId", "D_7140", 35],
  ["unitCode", "D_6411", 8],
  ["vatCategoryCode", "D_5305", 3],
];

const TAX_LENGTHS: readonly LengthRule[] = [
  ["vatCategoryCode", "D_5305", 3],
  ["exemptionReasonText", "D_4440 (5 parts)", FREE_TEXT],
  ["exemptionReasonCode", "D_4441", 17],
];

/** [path below a line, element, most decimals, most digits]: the XSD's decimalN_6 types. */
type DigitsRule = readonly [path: string, element: string, fraction: number, total: number];

const LINE_DIGITS: readonly DigitsRule[] = [
  ["quantity", "D_6060", 6, 18],
  ["unitPrice", "D_5118", 6, 15],
  ["vatRate", "D_5278", 6, 10],
];

/** G_SG52 occurs at most 10 times: one VAT breakdown per category and rate. */
const MAX_BREAKDOWNS = 10;

/** S_LIN D_1082 holds six characters, and lines are numbered by position (lines.ts). */
const MAX_LINES = 999_999;

function valueAt(object: unknown, path: string): unknown {
  return path.split("/").reduce<unknown>((o, key) => (o !== null && typeof o === "object" ? (o as Record<string, unknown>)[key] : undefined), object);
}

function lengthErrors(object: unknown, pointer: string, rules: readonly LengthRule[]): FieldError[] {
  return rules.flatMap(([path, element, max]) => {
    const value = valueAt(object, path);
    if (typeof value !== "string" || charLength(value) <= max) return [];
    return [{ path: `${pointer}/${path}`, message: `is longer than the ${max} characters e-SLOG's ${element} holds`, keyword: "maxLength" }];
  });
}

function digitErrors(object: unknown, pointer: string, rules: readonly DigitsRule[]): FieldError[] {
  return rules.flatMap(([path, element, fraction, total]) => {
    const value = valueAt(object, path);
    if (typeof value !== "number") return [];
    const text = decimal.normalize(decimalOf(value));
    const places = decimal.decimalPlaces(text);
    const digits = text.replace(/^-?0*\.?/, "").replace(".", "").length;
    if (places > fraction) return [{ path: `${pointer}/${path}`, message: `has more than the ${fraction} decimals e-SLOG's ${element} holds`, keyword: "multipleOf" }];
    if (digits > total) return [{ path: `${pointer}/${path}`, message: `has more than the ${total} digits e-SLOG's ${element} holds`, keyword: "maximum" }];
    return [];
  });
}

/** Throws 400 VALIDATION_ERROR listing every value e-SLOG cannot hold whole; `breakdowns` is how many G_SG52 the invoice needs. */
export function checkLimits(invoice: InvoiceInput, breakdowns: number): void {
  const errors = [
    ...lengthErrors(invoice, "/invoice", INVOICE_LENGTHS),
    ...(["seller", "buyer"] as const).flatMap((party) => lengthErrors(invoice[party], `/invoice/${party}`, PARTY_LENGTHS)),
    ...invoice.lines.flatMap((line, i) => [...lengthErrors(line, `/invoice/lines/${i}`, LINE_LENGTHS), ...digitErrors(line, `/invoice/lines/${i}`, LINE_DIGITS)]),
    ...(invoice.taxSummary ?? []).flatMap((tax, i) => lengthErrors(tax, `/invoice/taxSummary/${i}`, TAX_LENGTHS)),
  ];
  if (breakdowns > MAX_BREAKDOWNS) {
    errors.push({ path: "/invoice/lines", message: `need ${breakdowns} VAT breakdowns (category and rate), more than the ${MAX_BREAKDOWNS} e-SLOG's G_SG52 holds`, keyword: "maxItems" });
  }
  if (invoice.lines.length > MAX_LINES) {
    errors.push({ path: "/invoice/lines", message: `has more than the ${MAX_LINES} lines e-SLOG's D_1082 numbers`, keyword: "maxItems" });
  }
  if (errors.length > 0) throw fieldErrors(errors);
}
