// Allowances and charges, document level (BG-20, BG-21) and line level (BG-27, BG-28): one CII
// element, `ram:SpecifiedTradeAllowanceCharge`, told apart by its charge indicator. Only document
// level ones carry a VAT category. Factur-X EXTENDED has a second kind of document level charge,
// the logistics service fee (`ram:SpecifiedLogisticsServiceCharge`, BT-X-271..273), which its
// rules add to the charges in BT-108 and BT-109: it is read as a BG-21 charge marked as such, and
// written back in that form only for a target that counts it (see TargetFacts).

import type { AllowanceChargeTerms, DocumentAllowanceCharge } from "../../model/index.ts";
import { ALLOWANCE_TERMS, type AllowanceTerms } from "../terms.ts";
import { VAT_SCHEME } from "../values.ts";
import { group, type XmlNode } from "../xml-writer.ts";
import type { Contribution, Header } from "./context.ts";
import { readIndicator, term, writeIndicator } from "./values.ts";
import { cii, type Element } from "./vocabulary.ts";

function readTerms(e: Element): AllowanceChargeTerms {
  return {
    amount: cii.text(e, "ram:ActualAmount") ?? "",
    baseAmount: cii.text(e, "ram:BasisAmount"),
    percentage: cii.text(e, "ram:CalculationPercent"),
    reason: cii.text(e, "ram:Reason"),
    reasonCode: cii.text(e, "ram:ReasonCode"),
  };
}

/** Splits the allowance-charge elements under `parent` into allowances and charges. */
export function readAllowanceCharges(parent: Element | undefined): { allowances: Element[]; charges: Element[] } {
  const items = cii.all(parent, "ram:SpecifiedTradeAllowanceCharge");
  return {
    allowances: items.filter((e) => readIndicator(e, "ram:ChargeIndicator") === false),
    charges: items.filter((e) => readIndicator(e, "ram:ChargeIndicator") === true),
  };
}

export const readLineAllowanceCharge = readTerms;

function readDocumentAllowanceCharge(e: Element): DocumentAllowanceCharge {
  return {
    ...readTerms(e),
    vatCategoryCode: cii.text(e, "ram:CategoryTradeTax/ram:CategoryCode") ?? "",
    vatRate: cii.text(e, "ram:CategoryTradeTax/ram:RateApplicablePercent"),
  };
}

export function writeAllowanceCharge(
  a: AllowanceChargeTerms & Partial<Pick<DocumentAllowanceCharge, "vatCategoryCode" | "vatRate">>,
  isCharge: boolean,
  [amount, base, percentage, reason, reasonCode, category, rate]: AllowanceTerms,
): XmlNode | undefined {
  return group(
    "ram:SpecifiedTradeAllowanceCharge",
    writeIndicator("ram:ChargeIndicator", isCharge),
    term("ram:CalculationPercent", a.percentage, percentage),
    term("ram:BasisAmount", a.baseAmount, base),
    term("ram:ActualAmount", a.amount, amount),
    term("ram:ReasonCode", a.reasonCode, reasonCode),
    term("ram:Reason", a.reason, reason),
    a.vatCategoryCode !== undefined &&
      group("ram:CategoryTradeTax", term("ram:TypeCode", VAT_SCHEME), term("ram:CategoryCode", a.vatCategoryCode, category), term("ram:RateApplicablePercent", a.vatRate, rate)),
  );
}

function readLogisticsServiceCharge(e: Element): DocumentAllowanceCharge {
  return {
    amount: cii.text(e, "ram:AppliedAmount") ?? "",
    reason: cii.text(e, "ram:Description"),
    vatCategoryCode: cii.text(e, "ram:AppliedTradeTax/ram:CategoryCode") ?? "",
    vatRate: cii.text(e, "ram:AppliedTradeTax/ram:RateApplicablePercent"),
    logisticsService: true,
  };
}

/** A charge the logistics service form can hold: it has no base, percentage or reason code. */
const fitsLogisticsService = (c: DocumentAllowanceCharge) =>
  c.logisticsService === true && c.baseAmount === undefined && c.percentage === undefined && c.reasonCode === undefined;

function writeLogisticsServiceCharge(c: DocumentAllowanceCharge): XmlNode | undefined {
  return group(
    "ram:SpecifiedLogisticsServiceCharge",
    term("ram:Description", c.reason, "BT-X-271"),
    term("ram:AppliedAmount", c.amount, "BT-X-272"),
    group("ram:AppliedTradeTax", term("ram:TypeCode", VAT_SCHEME), term("ram:CategoryCode", c.vatCategoryCode, "BT-X-273"), term("ram:RateApplicablePercent", c.vatRate)),
  );
}

export function readDocumentAllowanceCharges(h: Header): { allowances: DocumentAllowanceCharge[]; charges: DocumentAllowanceCharge[] } {
  const { allowances, charges } = readAllowanceCharges(h.settlement);
  return {
    allowances: allowances.map(readDocumentAllowanceCharge),
    charges: [...charges.map(readDocumentAllowanceCharge), ...cii.all(h.settlement, "ram:SpecifiedLogisticsServiceCharge").map(readLogisticsServiceCharge)],
  };
}

export function writeDocumentAllowanceCharges(
  allowances: DocumentAllowanceCharge[],
  charges: DocumentAllowanceCharge[],
  options: { logisticsServiceCharges: boolean },
): Contribution {
  return {
    settlement: [
      ...allowances.map((a) => writeAllowanceCharge(a, false, ALLOWANCE_TERMS.documentAllowance)),
      ...charges.map((c) =>
        options.logisticsServiceCharges && fitsLogisticsService(c)
          ? writeLogisticsServiceCharge(c)
          : writeAllowanceCharge(c, true, ALLOWANCE_TERMS.documentCharge),
      ),
    ],
  };
}
