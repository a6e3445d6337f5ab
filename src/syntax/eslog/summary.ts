// The summary: G_SG50 document totals (BG-22) and G_SG52 VAT breakdown (BG-23). Qualifiers as both
// corpus samples write them: 79 lines, 260 allowances, 259 charges, 389 without VAT, 176 VAT,
// 388 with VAT, 113 prepaid, 366 rounding, 9 due; 260 and 259 are written as 0.00 when there are
// none, as the Slovenian issuer's sample does. amounts.ts makes them add up.

import { always, type XmlNode } from "../xml-writer.ts";
import type { Totals } from "./amounts.ts";
import { AMOUNT } from "./qualifiers.ts";
import { moa, vat } from "./segments.ts";

const sg50 = (qualifier: string, amount: string | undefined) => (amount === undefined ? undefined : always("G_SG50", moa(qualifier, amount)));

export function summary(t: Totals): (XmlNode | undefined)[] {
  return [
    sg50(AMOUNT.lineTotal, t.lineTotal),
    sg50(AMOUNT.allowanceTotal, t.allowanceTotal),
    sg50(AMOUNT.chargeTotal, t.chargeTotal),
    sg50(AMOUNT.taxExclusive, t.taxExclusive),
    sg50(AMOUNT.taxTotal, t.taxTotal),
    sg50(AMOUNT.taxInclusive, t.taxInclusive),
    sg50(AMOUNT.prepaid, t.prepaid),
    sg50(AMOUNT.rounding, t.rounding),
    sg50(AMOUNT.payable, t.payable),
    ...t.breakdowns.map((b) => always("G_SG52", vat(b.categoryCode, b.rate), moa(AMOUNT.taxable, b.taxable), moa(AMOUNT.tax, b.tax))),
  ];
}
