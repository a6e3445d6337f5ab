// Tax categories, the VAT breakdown (BG-23) and the VAT totals (BT-110, BT-111) <-> cac:TaxTotal.
// The tax total in the invoice currency carries the breakdown; a second one, in the VAT
// accounting currency (BT-6), carries only its amount (BT-111).

import type { Decimal, Invoice, VatBreakdown } from "../../model/index.ts";
import { VAT_SCHEME } from "../values.ts";
import { always, leaf, type XmlNode } from "../xml-writer.ts";
import { writeAmount } from "./values.ts";
import { ubl, type Element } from "./vocabulary.ts";

export interface TaxCategory {
  code: string;
  rate?: Decimal;
  exemptionReason?: string;
  exemptionReasonCode?: string;
}

export function readTaxCategory(el: Element | undefined): TaxCategory {
  if (!el) return { code: "" };
  return {
    code: ubl.text(el, "cbc:ID") ?? "",
    rate: ubl.text(el, "cbc:Percent"),
    exemptionReason: ubl.text(el, "cbc:TaxExemptionReason"),
    exemptionReasonCode: ubl.text(el, "cbc:TaxExemptionReasonCode"),
  };
}

/** `cac:TaxCategory` (breakdown, allowances) or `cac:ClassifiedTaxCategory` (line items). */
export function writeTaxCategory(name: string, category: TaxCategory): XmlNode {
  return always(
    name,
    leaf("cbc:ID", category.code),
    leaf("cbc:Percent", category.rate),
    leaf("cbc:TaxExemptionReasonCode", category.exemptionReasonCode),
    leaf("cbc:TaxExemptionReason", category.exemptionReason),
    always("cac:TaxScheme", leaf("cbc:ID", VAT_SCHEME)),
  );
}

function readBreakdown(subtotal: Element): VatBreakdown {
  const category = readTaxCategory(ubl.one(subtotal, "cac:TaxCategory"));
  return {
    taxableAmount: ubl.text(subtotal, "cbc:TaxableAmount") ?? "",
    taxAmount: ubl.text(subtotal, "cbc:TaxAmount") ?? "",
    categoryCode: category.code,
    rate: category.rate,
    exemptionReason: category.exemptionReason,
    exemptionReasonCode: category.exemptionReasonCode,
  };
}

interface TaxTotals {
  vatTotal?: Decimal;
  vatTotalInAccountingCurrency?: Decimal;
  vatBreakdown: VatBreakdown[];
}

export function readTaxTotals(root: Element, currencyCode: string, taxCurrencyCode: string | undefined): TaxTotals {
  const totals = ubl.all(root, "cac:TaxTotal");
  // Without a distinct accounting currency every tax total is in the invoice currency; the one
  // with the breakdown is the main one.
  const accounting =
    taxCurrencyCode !== undefined && taxCurrencyCode !== currencyCode ? totals.find((t) => ubl.matches(t, "cbc:TaxAmount/@currencyID", (c) => c === taxCurrencyCode)) : undefined;
  const main = totals.find((t) => t !== accounting && ubl.one(t, "cac:TaxSubtotal")) ?? totals.find((t) => t !== accounting);
  return {
    vatTotal: main && ubl.text(main, "cbc:TaxAmount"),
    vatTotalInAccountingCurrency: accounting && ubl.text(accounting, "cbc:TaxAmount"),
    vatBreakdown: main ? ubl.all(main, "cac:TaxSubtotal").map(readBreakdown) : [],
  };
}

function writeBreakdown(b: VatBreakdown, currency: string): XmlNode {
  return always(
    "cac:TaxSubtotal",
    writeAmount("cbc:TaxableAmount", b.taxableAmount, currency),
    writeAmount("cbc:TaxAmount", b.taxAmount, currency),
    writeTaxCategory("cac:TaxCategory", {
      code: b.categoryCode,
      rate: b.rate,
      exemptionReason: b.exemptionReason,
      exemptionReasonCode: b.exemptionReasonCode,
    }),
  );
}

export function writeTaxTotals(invoice: Invoice): XmlNode[] {
  const { vatTotal, vatTotalInAccountingCurrency } = invoice.totals;
  const out: XmlNode[] = [];
  if (vatTotal !== undefined || invoice.vatBreakdown.length > 0) {
    out.push(
      always(
        "cac:TaxTotal",
        // TaxAmount is mandatory in UBL; a breakdown without BT-110 cannot be written faithfully.
        writeAmount("cbc:TaxAmount", vatTotal ?? "0", invoice.currencyCode),
        invoice.vatBreakdown.map((b) => writeBreakdown(b, invoice.currencyCode)),
      ),
    );
  }
  if (vatTotalInAccountingCurrency !== undefined && invoice.taxCurrencyCode !== undefined) {
    out.push(always("cac:TaxTotal", writeAmount("cbc:TaxAmount", vatTotalInAccountingCurrency, invoice.taxCurrencyCode)));
  }
  return out;
}
