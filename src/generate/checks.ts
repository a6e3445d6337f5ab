// Request rules the JSON schema cannot say, checked before anything is written. All field errors
// are collected and answered at once as one 400 VALIDATION_ERROR with `details.fields`, the shape
// of a schema failure (a missing nested property names its parent object as `path`).

import type { InvoiceInput } from "../invoice/schema.ts";
import type { Overlay } from "../profiles/record.ts";
import type { SyntaxBinding } from "../syntax/binding.ts";
import { fieldErrors, type FieldError } from "../errors/domain-error.ts";

const TAX_CURRENCY = "/invoice/taxCurrencyCode";
const taxCurrency = (message: string): FieldError => ({ path: TAX_CURRENCY, message, keyword: "taxCurrency" });
const missing = (parent: string, property: string): FieldError => ({ path: parent, message: `must have required property '${property}'`, keyword: "required" });

/** BT-6 and BT-111 travel together, and a second tax total in the invoice currency says nothing. */
function taxCurrencyErrors(invoice: InvoiceInput): FieldError[] {
  const { taxCurrencyCode, taxTotalInAccountingCurrency, currencyCode } = invoice;
  if (taxCurrencyCode === undefined && taxTotalInAccountingCurrency === undefined) return [];
  if (taxCurrencyCode === undefined) return [taxCurrency("must be present when taxTotalInAccountingCurrency is given")];
  if (taxTotalInAccountingCurrency === undefined) return [taxCurrency("requires taxTotalInAccountingCurrency (BT-111)")];
  if (taxCurrencyCode === currencyCode) return [taxCurrency("must differ from currencyCode")];
  return [];
}

/** CIUS-RO: amounts in another currency also state the VAT in RON; Romanian and deliver-to addresses name their county. */
function romaniaErrors(invoice: InvoiceInput): FieldError[] {
  const errors: FieldError[] = [];
  if (invoice.currencyCode !== "RON" && invoice.taxCurrencyCode !== "RON") {
    errors.push(taxCurrency("must be RON (with taxTotalInAccountingCurrency in RON) when a Romanian invoice is not in RON"));
  }
  for (const role of ["seller", "buyer"] as const) {
    const address = invoice[role].address;
    if (address.countryCode === "RO" && address.countrySubentity === undefined) errors.push(missing(`/invoice/${role}/address`, "countrySubentity"));
  }
  // BR-RO-211: a deliver-to address names its subdivision (BT-79), whatever its country.
  const delivery = invoice.delivery?.address;
  if (delivery && delivery.countrySubentity === undefined) errors.push(missing("/invoice/delivery/address", "countrySubentity"));
  return errors;
}

export function checkRequest(invoice: InvoiceInput, binding: SyntaxBinding, overlay: Overlay | undefined): void {
  const errors = [...taxCurrencyErrors(invoice)];
  if (binding.creditNoteCitesInvoice && invoice.documentType === "creditnote" && invoice.precedingInvoiceReference === undefined) {
    errors.push(missing("/invoice", "precedingInvoiceReference"));
  }
  if (overlay === "romania") errors.push(...romaniaErrors(invoice).filter((e) => !errors.some((x) => x.path === e.path && x.keyword === e.keyword)));
  if (errors.length) throw fieldErrors(errors);
}
