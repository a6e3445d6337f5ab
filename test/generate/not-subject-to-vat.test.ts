// Category O ("not subject to VAT") is split between two rules: a line must not carry a rate
// (BR-O-05), while XRechnung wants a rate on every VAT breakdown (BR-DE-14) and EN 16931 allows it
// there. Generated for every EN 16931 writer, the output is valid and each rate is where it belongs.

import { expect, test } from "bun:test";
import { generateXml, type GenerateInput } from "../../src/generate/generate.ts";
import { validateDocument } from "../../src/validation/validate.ts";
import { createEngine } from "../../src/validation/engine.ts";
import { rulesetBundle } from "../../src/assets/bundle.ts";
import { baseInvoice, LOCALES } from "../../fixtures/invoices.ts";
import type { InvoiceInput } from "../../src/invoice/schema.ts";
import { buildMissing, cannotRun } from "../support/requirements.ts";

const skip = cannotRun("category O generation", buildMissing());

/** A non-profit's course fee: no party may show a VAT id (BR-O-02), so the seller names its tax number. */
function notSubjectToVat(): InvoiceInput {
  const { seller, buyer } = LOCALES.de;
  const { vatId: _s, ...sellerWithoutVat } = seller;
  const { vatId: _b, ...buyerWithoutVat } = buyer;
  return {
    ...baseInvoice(LOCALES.de, "INV-2025-O1"),
    seller: { ...sellerWithoutVat, peppol: { schemeId: "0088", id: "4000001000005" } },
    buyer: { ...buyerWithoutVat, peppol: { schemeId: "0088", id: "4000001000012" } },
    lines: [{ description: "Course fee", quantity: 1, unitCode: "C62", unitPrice: 120, lineTotal: 120, vatRate: 0, vatCategoryCode: "O" }],
    taxSummary: [{ vatCategoryCode: "O", vatRate: 0, taxableAmount: 120, taxAmount: 0, exemptionReasonText: "Not subject to VAT", exemptionReasonCode: "VATEX-EU-O" }],
    totalNetAmount: 120,
    totalTaxAmount: 0,
    totalGrossAmount: 120,
  };
}

const TARGETS: Omit<GenerateInput, "invoice">[] = [
  { standard: "xrechnung", syntax: "ubl" },
  { standard: "xrechnung", syntax: "cii" },
  { standard: "peppol-bis" },
  { standard: "facturx", profile: "en16931" },
];

test.skipIf(skip)("category O: valid for every writer, a rate on the breakdown and none on the line", async () => {
  const engine = createEngine(rulesetBundle());
  for (const target of TARGETS) {
    const out = generateXml({ ...target, invoice: notSubjectToVat() }, { livemode: true });
    const xml = new TextDecoder().decode(out.bytes);
    const outcome = await validateDocument(engine, { bytes: out.bytes, record: out.record });
    if (!outcome.ok) throw new Error(outcome.message);
    expect({ target, errors: outcome.result.errors.map((e) => e.ruleId) }).toEqual({ target, errors: [] });
    if (out.record.startsWith("ubl:")) {
      expect(xml).toMatch(/<cac:TaxSubtotal>[\s\S]*<cbc:ID>O<\/cbc:ID>\s*<cbc:Percent>0<\/cbc:Percent>/);
      expect(xml).not.toMatch(/<cac:ClassifiedTaxCategory>[\s\S]*<cbc:Percent>/);
    } else {
      expect(xml).toMatch(/<ram:ApplicableTradeTax>(?:(?!<\/ram:ApplicableTradeTax>)[\s\S])*<ram:RateApplicablePercent>0<\/ram:RateApplicablePercent>/);
      expect(xml).not.toMatch(/<ram:SpecifiedLineTradeSettlement>\s*<ram:ApplicableTradeTax>(?:(?!<\/ram:ApplicableTradeTax>)[\s\S])*RateApplicablePercent/);
    }
  }
});
