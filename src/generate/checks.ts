// Request rules the JSON schema cannot say, checked before anything is written. All field errors
// are collected and answered at once as one 400 VALIDATION_ERROR with `details.fields`, the shape
// of a schema failure (a missing nested property names its parent object as `path`): the generic
// rules, the syntax's, and those of the overlays the record switches on.

import { missing, taxCurrencyErrors } from "../invoice/field-errors.ts";
import type { InvoiceInput } from "../invoice/schema.ts";
import type { Overlay } from "../overlays/overlay.ts";
import type { SyntaxBinding } from "../syntax/binding.ts";
import { fieldErrors } from "../errors/domain-error.ts";

/** A credit note naming no invoice it credits: no Preceding Invoice reference (BG-3, BT-25). */
export const citesNoInvoice = (invoice: InvoiceInput): boolean => invoice.documentType === "creditnote" && invoice.precedingInvoiceReference === undefined;

/**
 * `judged`: the output will be judged (`verify` true). Such a credit note citing no invoice is then
 * refused by BR-55 after writing (generate-invoice.ts), whatever its syntax; unjudged, a UBL one
 * still fails closed here, and a CII one is written.
 */
export function checkRequest(invoice: InvoiceInput, binding: SyntaxBinding, overlays: readonly Overlay[], judged: boolean): void {
  const errors = [...taxCurrencyErrors(invoice)];
  if (!judged && binding.creditNoteCitesInvoice && citesNoInvoice(invoice)) errors.push(missing("/invoice", "precedingInvoiceReference"));
  // An overlay's rule may repeat a generic one (both want the tax currency): the field is listed once.
  for (const overlay of overlays) errors.push(...(overlay.check?.(invoice) ?? []).filter((e) => !errors.some((x) => x.path === e.path && x.keyword === e.keyword)));
  if (errors.length) throw fieldErrors(errors);
}
