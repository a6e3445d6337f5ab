// Document totals (BG-22). The two VAT totals share one element name and differ by currency:
// BT-110 is in the invoice currency, BT-111 in the VAT accounting currency (BT-6).

import type { DocumentTotals } from "../../model/index.ts";
import type { Contribution, Header } from "./context.ts";
import { all, attr, first, text } from "./dom.ts";
import { group, leaf } from "./node.ts";

const SUMMATION = "ram:SpecifiedTradeSettlementHeaderMonetarySummation";

export function readTotals(h: Header, currencyCode: string, taxCurrencyCode: string | undefined): DocumentTotals {
  const s = first(h.settlement, SUMMATION);
  const taxTotals = all(s, "ram:TaxTotalAmount");
  const inAccountingCurrency = (e: (typeof taxTotals)[number]) =>
    taxCurrencyCode !== undefined && taxCurrencyCode !== currencyCode && attr(e, "currencyID") === taxCurrencyCode;
  return {
    lineNetTotal: text(s, "ram:LineTotalAmount") ?? "",
    allowanceTotal: text(s, "ram:AllowanceTotalAmount"),
    chargeTotal: text(s, "ram:ChargeTotalAmount"),
    taxExclusiveTotal: text(s, "ram:TaxBasisTotalAmount") ?? "",
    vatTotal: taxTotals.find((e) => !inAccountingCurrency(e))?.textContent?.trim(),
    vatTotalInAccountingCurrency: taxTotals.find(inAccountingCurrency)?.textContent?.trim(),
    taxInclusiveTotal: text(s, "ram:GrandTotalAmount") ?? "",
    prepaidAmount: text(s, "ram:TotalPrepaidAmount"),
    roundingAmount: text(s, "ram:RoundingAmount"),
    payableAmount: text(s, "ram:DuePayableAmount") ?? "",
  };
}

export function writeTotals(t: DocumentTotals, currencyCode: string, taxCurrencyCode: string | undefined): Contribution {
  return {
    settlement: [
      group(
        SUMMATION,
        leaf("ram:LineTotalAmount", t.lineNetTotal, "BT-106"),
        leaf("ram:ChargeTotalAmount", t.chargeTotal, "BT-108"),
        leaf("ram:AllowanceTotalAmount", t.allowanceTotal, "BT-107"),
        leaf("ram:TaxBasisTotalAmount", t.taxExclusiveTotal, "BT-109"),
        leaf("ram:TaxTotalAmount", t.vatTotal, "BT-110", { currencyID: currencyCode }),
        leaf("ram:TaxTotalAmount", t.vatTotalInAccountingCurrency, "BT-111", { currencyID: taxCurrencyCode }),
        leaf("ram:RoundingAmount", t.roundingAmount, "BT-114"),
        leaf("ram:GrandTotalAmount", t.taxInclusiveTotal, "BT-112"),
        leaf("ram:TotalPrepaidAmount", t.prepaidAmount, "BT-113"),
        leaf("ram:DuePayableAmount", t.payableAmount, "BT-115"),
      ),
    ],
  };
}
