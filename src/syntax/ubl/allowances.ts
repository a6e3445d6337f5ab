// Allowances and charges <-> cac:AllowanceCharge: document level (BG-20, BG-21, with a tax
// category) and line level (BG-27, BG-28, without). `cbc:ChargeIndicator` tells the two apart.

import type { AllowanceChargeTerms, DocumentAllowanceCharge, LineAllowanceCharge } from "../../model/index.ts";
import { always, leaf, type XmlNode } from "../xml-writer.ts";
import { readTaxCategory, writeTaxCategory } from "./tax.ts";
import { isTrue } from "../values.ts";
import { writeAmount } from "./values.ts";
import { ubl, type Element } from "./vocabulary.ts";

export interface Split<T> {
  allowances: T[];
  charges: T[];
}

// `cbc:ChargeIndicator` is an `xs:boolean`: `true` or `1` (and their whitespace variants) are true.
// Each test consumes the indicator only of the elements it keeps (xml-reader.ts, Reader).
const isCharge = (el: Element): boolean => ubl.matches(el, "cbc:ChargeIndicator", isTrue);

export const isAllowance = (el: Element): boolean => ubl.matches(el, "cbc:ChargeIndicator", (v) => !isTrue(v));

function readTerms(el: Element): AllowanceChargeTerms {
  return {
    amount: ubl.text(el, "cbc:Amount") ?? "",
    baseAmount: ubl.text(el, "cbc:BaseAmount"),
    percentage: ubl.text(el, "cbc:MultiplierFactorNumeric"),
    reason: ubl.text(el, "cbc:AllowanceChargeReason"),
    reasonCode: ubl.text(el, "cbc:AllowanceChargeReasonCode"),
  };
}

function split<T>(elements: Element[], read: (el: Element) => T): Split<T> {
  return {
    allowances: elements.filter(isAllowance).map(read),
    charges: elements.filter(isCharge).map(read),
  };
}

export function readDocumentAllowanceCharges(root: Element): Split<DocumentAllowanceCharge> {
  return split(ubl.all(root, "cac:AllowanceCharge"), (el) => {
    const category = readTaxCategory(ubl.one(el, "cac:TaxCategory"));
    return { ...readTerms(el), vatCategoryCode: category.code, vatRate: category.rate };
  });
}

export function readLineAllowanceCharges(line: Element): Split<LineAllowanceCharge> {
  return split(ubl.all(line, "cac:AllowanceCharge"), readTerms);
}

function writeAllowanceCharge(charge: boolean, terms: AllowanceChargeTerms, currency: string, taxCategory?: XmlNode): XmlNode {
  return always(
    "cac:AllowanceCharge",
    leaf("cbc:ChargeIndicator", String(charge)),
    leaf("cbc:AllowanceChargeReasonCode", terms.reasonCode),
    leaf("cbc:AllowanceChargeReason", terms.reason),
    leaf("cbc:MultiplierFactorNumeric", terms.percentage),
    writeAmount("cbc:Amount", terms.amount, currency),
    writeAmount("cbc:BaseAmount", terms.baseAmount, currency),
    taxCategory,
  );
}

/** Allowances first, then charges: both are `cac:AllowanceCharge`, and order among them carries no meaning. */
export function writeDocumentAllowanceCharges(split: Split<DocumentAllowanceCharge>, currency: string): XmlNode[] {
  const write = (charge: boolean) => (ac: DocumentAllowanceCharge) =>
    writeAllowanceCharge(charge, ac, currency, writeTaxCategory("cac:TaxCategory", { code: ac.vatCategoryCode, rate: ac.vatRate }));
  return [...split.allowances.map(write(false)), ...split.charges.map(write(true))];
}

export function writeLineAllowanceCharges(split: Split<LineAllowanceCharge>, currency: string): XmlNode[] {
  return [
    ...split.allowances.map((ac) => writeAllowanceCharge(false, ac, currency)),
    ...split.charges.map((ac) => writeAllowanceCharge(true, ac, currency)),
  ];
}
