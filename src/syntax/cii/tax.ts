// VAT breakdown (BG-23) and the VAT point date and code (BT-7, BT-8). CII keeps BT-7/BT-8 inside
// the header `ram:ApplicableTradeTax` entries though they are document-level terms; the reader takes
// the first it finds. BT-7 may appear only once (CII-SR-461), so it goes in the first entry, as the
// CEN and XRechnung examples carry it; BT-8 may repeat with one value (CII-SR-462) and every entry
// carries it.

import type { VatBreakdown } from "../../model/index.ts";
import { firstRead, VAT_SCHEME } from "../values.ts";
import { group } from "../xml-writer.ts";
import type { Contribution, Header } from "./context.ts";
import { readDate, term, writeDate } from "./values.ts";
import { cii } from "./vocabulary.ts";

/**
 * BT-8 in CII is a UNTDID 2475 code, where UBL and the model have UNTDID 2005's (CEN/TS 16931-3-3;
 * BR-CL-06 checks each list in its syntax): the invoice's date, the delivery's, the payment's. A
 * code outside both lists passes as it is, for validation to judge.
 */
const TAX_POINT_CODES: Record<string, string> = { "3": "5", "35": "29", "432": "72" };
const FROM_CII = Object.fromEntries(Object.entries(TAX_POINT_CODES).map(([model, cii]) => [cii, model]));
const translated = (code: string | undefined, table: Record<string, string>) => (code === undefined ? undefined : (table[code] ?? code));

/** BT-8 as CII writes it. */
export const ciiTaxPointCode = (code: string | undefined) => translated(code, TAX_POINT_CODES);

interface TaxTerms {
  vatBreakdown: VatBreakdown[];
  taxPointDate?: string;
  taxPointDateCode?: string;
}

export function readTax(h: Header): TaxTerms {
  const taxes = cii.all(h.settlement, "ram:ApplicableTradeTax");
  return {
    vatBreakdown: taxes.map((t) => ({
      taxableAmount: cii.text(t, "ram:BasisAmount") ?? "",
      taxAmount: cii.text(t, "ram:CalculatedAmount") ?? "",
      categoryCode: cii.text(t, "ram:CategoryCode") ?? "",
      rate: cii.text(t, "ram:RateApplicablePercent"),
      exemptionReason: cii.text(t, "ram:ExemptionReason"),
      exemptionReasonCode: cii.text(t, "ram:ExemptionReasonCode"),
    })),
    taxPointDate: firstRead(taxes, (t) => readDate(t, "ram:TaxPointDate")),
    taxPointDateCode: translated(firstRead(taxes, (t) => cii.text(t, "ram:DueDateTypeCode")), FROM_CII),
  };
}

export function writeTax(t: TaxTerms): Contribution {
  return {
    settlement: t.vatBreakdown.map((v, i) =>
      group(
        "ram:ApplicableTradeTax",
        term("ram:CalculatedAmount", v.taxAmount, "BT-117"),
        term("ram:TypeCode", VAT_SCHEME),
        term("ram:ExemptionReason", v.exemptionReason, "BT-120"),
        term("ram:BasisAmount", v.taxableAmount, "BT-116"),
        term("ram:CategoryCode", v.categoryCode, "BT-118"),
        term("ram:ExemptionReasonCode", v.exemptionReasonCode, "BT-121"),
        i === 0 && writeDate("ram:TaxPointDate", t.taxPointDate, "BT-7", "udt:DateString"),
        term("ram:DueDateTypeCode", ciiTaxPointCode(t.taxPointDateCode), "BT-8"),
        term("ram:RateApplicablePercent", v.rate, "BT-119"),
      ),
    ),
  };
}
