// TaxesOutputs (per rate, on the invoice and on each line) and InvoiceTotals, placed from the
// figures of amounts.ts.

import { always, leaf, type XmlNode } from "../xml-writer.ts";
import type { Figures, RateFigures } from "./amounts.ts";

/** An AmountType: the amount in the invoice currency, no euro equivalent. */
export const amount = (name: string, value: string): XmlNode => always(name, leaf("TotalAmount", value));

/** TaxesOutputs with one Tax per rate; `taxTypeCode` is 01 (IVA) unless the request names another tax. */
export function taxesOutputs(taxTypeCode: string, rates: readonly RateFigures[]): XmlNode {
  return always(
    "TaxesOutputs",
    rates.map((r) => always("Tax", leaf("TaxTypeCode", taxTypeCode), leaf("TaxRate", r.rate), amount("TaxableBase", r.base), amount("TaxAmount", r.tax))),
  );
}

export function invoiceTotals(f: Figures): XmlNode {
  return always(
    "InvoiceTotals",
    leaf("TotalGrossAmount", f.gross),
    leaf("TotalGrossAmountBeforeTaxes", f.gross),
    leaf("TotalTaxOutputs", f.taxOutputs),
    leaf("TotalTaxesWithheld", f.withheld),
    leaf("InvoiceTotal", f.total),
    leaf("TotalOutstandingAmount", f.total),
    leaf("TotalExecutableAmount", f.total),
  );
}
