// Document totals (BG-22). The two VAT totals share one element name and differ by currency:
// BT-110 is in the invoice currency, BT-111 in the VAT accounting currency (BT-6).

import type { DocumentTotals } from "../../model/index.ts";
import { textOf } from "../xml-reader.ts";
import { group } from "../xml-writer.ts";
import type { Contribution, Header } from "./context.ts";
import { term } from "./values.ts";
import { cii } from "./vocabulary.ts";

const SUMMATION = "ram:SpecifiedTradeSettlementHeaderMonetarySummation";

export function readTotals(h: Header, currencyCode: string, taxCurrencyCode: string | undefined): DocumentTotals {
  const s = cii.one(h.settlement, SUMMATION);
  const taxTotals = cii.all(s, "ram:TaxTotalAmount");
  const inAccountingCurrency = (e: (typeof taxTotals)[number]) =>
    taxCurrencyCode !== undefined && taxCurrencyCode !== currencyCode && cii.matches(e, "@currencyID", (c) => c === taxCurrencyCode);
  return {
    lineNetTotal: cii.text(s, "ram:LineTotalAmount") ?? "",
    allowanceTotal: cii.text(s, "ram:AllowanceTotalAmount"),
    chargeTotal: cii.text(s, "ram:ChargeTotalAmount"),
    taxExclusiveTotal: cii.text(s, "ram:TaxBasisTotalAmount") ?? "",
    vatTotal: textOf(taxTotals.find((e) => !inAccountingCurrency(e))),
    vatTotalInAccountingCurrency: textOf(taxTotals.find(inAccountingCurrency)),
    taxInclusiveTotal: cii.text(s, "ram:GrandTotalAmount") ?? "",
    prepaidAmount: cii.text(s, "ram:TotalPrepaidAmount"),
    roundingAmount: cii.text(s, "ram:RoundingAmount"),
    payableAmount: cii.text(s, "ram:DuePayableAmount") ?? "",
  };
}

export function writeTotals(t: DocumentTotals, currencyCode: string, taxCurrencyCode: string | undefined): Contribution {
  return {
    settlement: [
      group(
        SUMMATION,
        term("ram:LineTotalAmount", t.lineNetTotal, "BT-106"),
        term("ram:ChargeTotalAmount", t.chargeTotal, "BT-108"),
        term("ram:AllowanceTotalAmount", t.allowanceTotal, "BT-107"),
        term("ram:TaxBasisTotalAmount", t.taxExclusiveTotal, "BT-109"),
        term("ram:TaxTotalAmount", t.vatTotal, "BT-110", { currencyID: currencyCode }),
        term("ram:TaxTotalAmount", t.vatTotalInAccountingCurrency, "BT-111", { currencyID: taxCurrencyCode }),
        term("ram:RoundingAmount", t.roundingAmount, "BT-114"),
        term("ram:GrandTotalAmount", t.taxInclusiveTotal, "BT-112"),
        term("ram:TotalPrepaidAmount", t.prepaidAmount, "BT-113"),
        term("ram:DuePayableAmount", t.payableAmount, "BT-115"),
      ),
    ],
  };
}
