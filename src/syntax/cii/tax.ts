// VAT breakdown (BG-23) and the VAT point date and code (BT-7, BT-8). CII keeps BT-7/BT-8 inside
// each header `ram:ApplicableTradeTax`; they are document-level terms, so every entry repeats them
// and the reader takes the first.

import type { Element } from "@xmldom/xmldom";
import type { VatBreakdown } from "../../model/index.ts";
import type { Contribution, Header } from "./context.ts";
import { all, date, text } from "./dom.ts";
import { dateString, group, leaf } from "./node.ts";

export interface TaxTerms {
  vatBreakdown: VatBreakdown[];
  taxPointDate?: string;
  taxPointDateCode?: string;
}

export function readTax(h: Header): TaxTerms {
  const taxes = all(h.settlement, "ram:ApplicableTradeTax");
  const firstOf = <T>(read: (tax: Element) => T | undefined) => taxes.map(read).find((v) => v !== undefined);
  return {
    vatBreakdown: taxes.map((t) => ({
      taxableAmount: text(t, "ram:BasisAmount") ?? "",
      taxAmount: text(t, "ram:CalculatedAmount") ?? "",
      categoryCode: text(t, "ram:CategoryCode") ?? "",
      rate: text(t, "ram:RateApplicablePercent"),
      exemptionReason: text(t, "ram:ExemptionReason"),
      exemptionReasonCode: text(t, "ram:ExemptionReasonCode"),
    })),
    taxPointDate: firstOf((t) => date(t, "ram:TaxPointDate")),
    taxPointDateCode: firstOf((t) => text(t, "ram:DueDateTypeCode")),
  };
}

export function writeTax(t: TaxTerms): Contribution {
  return {
    settlement: t.vatBreakdown.map((v) =>
      group(
        "ram:ApplicableTradeTax",
        leaf("ram:CalculatedAmount", v.taxAmount, "BT-117"),
        leaf("ram:TypeCode", "VAT"),
        leaf("ram:ExemptionReason", v.exemptionReason, "BT-120"),
        leaf("ram:BasisAmount", v.taxableAmount, "BT-116"),
        leaf("ram:CategoryCode", v.categoryCode, "BT-118"),
        leaf("ram:ExemptionReasonCode", v.exemptionReasonCode, "BT-121"),
        dateString("ram:TaxPointDate", t.taxPointDate, "BT-7"),
        leaf("ram:DueDateTypeCode", t.taxPointDateCode, "BT-8"),
        leaf("ram:RateApplicablePercent", v.rate, "BT-119"),
      ),
    ),
  };
}
