// Field errors about an invoice's own fields, worded as the schema check words its failures, so
// a rule the schema cannot express (generate's checks, an overlay's) answers in the same shape.

import type { FieldError } from "../errors/domain-error.ts";
import type { InvoiceInput } from "./schema.ts";

/** BT-6 misuse: the tax currency and its total travel together, and each rule says which way. */
export const taxCurrency = (message: string): FieldError => ({ path: "/invoice/taxCurrencyCode", message, keyword: "taxCurrency" });

/** A property the rule requires, as Ajv's `required` keyword reports it. */
export const missing = (parent: string, property: string): FieldError => ({ path: parent, message: `must have required property '${property}'`, keyword: "required" });

/** BT-6 and BT-111 travel together, and a second tax total in the invoice currency says nothing. */
export function taxCurrencyErrors(invoice: InvoiceInput): FieldError[] {
  const { taxCurrencyCode, taxTotalInAccountingCurrency, currencyCode } = invoice;
  if (taxCurrencyCode === undefined && taxTotalInAccountingCurrency === undefined) return [];
  if (taxCurrencyCode === undefined) return [taxCurrency("must be present when taxTotalInAccountingCurrency is given")];
  if (taxTotalInAccountingCurrency === undefined) return [taxCurrency("requires taxTotalInAccountingCurrency (BT-111)")];
  if (taxCurrencyCode === currencyCode) return [taxCurrency("must differ from currencyCode")];
  return [];
}
