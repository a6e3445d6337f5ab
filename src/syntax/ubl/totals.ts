// Document totals (BG-22, except the VAT totals, which live in tax.ts) <-> cac:LegalMonetaryTotal.

import type { DocumentTotals } from "../../model/index.ts";
import { always, type XmlNode } from "../xml-writer.ts";
import { writeAmount } from "./values.ts";
import { ubl, type Element } from "./vocabulary.ts";

type MonetaryTotals = Omit<DocumentTotals, "vatTotal" | "vatTotalInAccountingCurrency">;

export function readMonetaryTotals(root: Element): MonetaryTotals {
  const t = ubl.one(root, "cac:LegalMonetaryTotal");
  const text = (name: string) => (t ? ubl.text(t, name) : undefined);
  return {
    lineNetTotal: text("cbc:LineExtensionAmount") ?? "",
    allowanceTotal: text("cbc:AllowanceTotalAmount"),
    chargeTotal: text("cbc:ChargeTotalAmount"),
    taxExclusiveTotal: text("cbc:TaxExclusiveAmount") ?? "",
    taxInclusiveTotal: text("cbc:TaxInclusiveAmount") ?? "",
    prepaidAmount: text("cbc:PrepaidAmount"),
    roundingAmount: text("cbc:PayableRoundingAmount"),
    payableAmount: text("cbc:PayableAmount") ?? "",
  };
}

export function writeMonetaryTotals(totals: DocumentTotals, currency: string): XmlNode {
  return always(
    "cac:LegalMonetaryTotal",
    writeAmount("cbc:LineExtensionAmount", totals.lineNetTotal, currency),
    writeAmount("cbc:TaxExclusiveAmount", totals.taxExclusiveTotal, currency),
    writeAmount("cbc:TaxInclusiveAmount", totals.taxInclusiveTotal, currency),
    writeAmount("cbc:AllowanceTotalAmount", totals.allowanceTotal, currency),
    writeAmount("cbc:ChargeTotalAmount", totals.chargeTotal, currency),
    writeAmount("cbc:PrepaidAmount", totals.prepaidAmount, currency),
    writeAmount("cbc:PayableRoundingAmount", totals.roundingAmount, currency),
    writeAmount("cbc:PayableAmount", totals.payableAmount, currency),
  );
}
