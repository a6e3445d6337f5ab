// Documents under the 1 MB body limit that fail rules tens of thousands of times are judged in
// bounded time and answered with a bounded verdict: at most 100 findings per rule id, 1,000 and
// 512 Ki characters of text in all, then one FINDINGS_TRUNCATED finding counting the rest, with
// `valid` what it would be without the caps. A UBL invoice with 250,000 empty unknown elements ran
// into the request deadline (every one fails Peppol's "no empty elements" rule, and locating each
// finding counted its preceding siblings); 250 nested invoice lines answered tens of megabytes.

import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { rulesetBundle } from "../../src/assets/bundle";
import { createEngine } from "../../src/validation/engine";
import { FINDINGS_TRUNCATED } from "../../src/validation/finding-caps";
import type { ValidationResult } from "../../src/validation/result";
import { validateDocument, type Engine } from "../../src/validation/validate";
import { RULESETS_DIR } from "../support/corpus";

let engine: Engine;

const UBL = readFileSync(`${RULESETS_DIR}en16931_ubl_schematron/1.3.16/examples/ubl-tc434-example1.xml`, "utf8");
const CII = readFileSync(`${RULESETS_DIR}en16931_cii_schematron/1.3.16/examples/CII_business_example_01.xml`, "utf8");
const PEPPOL = "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0";
const XRECHNUNG = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0";
const MB = 1_000_000;

const ubl = (customization: string, before: string, insert: string) =>
  UBL.replace(/<cbc:CustomizationID>[^<]*/, `<cbc:CustomizationID>${customization}`).replace(before, `${insert}${before}`);

async function judge(xml: string): Promise<{ result: ValidationResult; ms: number; bytes: number }> {
  const started = performance.now();
  const outcome = await validateDocument(engine, { bytes: new TextEncoder().encode(xml) });
  if (!outcome.ok) throw new Error(outcome.message);
  return { result: outcome.result, ms: performance.now() - started, bytes: JSON.stringify(outcome.result).length };
}

beforeAll(async () => {
  engine = createEngine(rulesetBundle());
  // Compiles the schemas and plans the timed test uses, so that it times judging alone.
  await judge(ubl(PEPPOL, "</Invoice>", ""));
}, 60_000);

const truncation = (result: ValidationResult) => [...result.errors, ...result.warnings].filter((f) => f.ruleId === FINDINGS_TRUNCATED);
const count = (result: ValidationResult, ruleId: string) => [...result.errors, ...result.warnings].filter((f) => f.ruleId === ruleId).length;

describe("documents under the body limit: bounded time, bounded verdict", () => {
  test("1 MB of empty unknown elements: judged in seconds, a small answer that counts what it left out", async () => {
    const elements = 250_000;
    const xml = ubl(PEPPOL, "</Invoice>", "<a/>".repeat(elements));
    expect(xml.length).toBeGreaterThan(MB);
    const { result, ms, bytes } = await judge(xml);
    // Generous: it ran into the request deadline; this only proves it no longer does.
    expect(ms).toBeLessThan(15_000);
    expect(bytes).toBeLessThan(MB);
    expect(result.valid).toBe(false);
    expect(count(result, "PEPPOL-EN16931-R008")).toBe(100);
    expect(truncation(result)).toEqual([
      {
        ruleId: FINDINGS_TRUNCATED,
        severity: "error",
        message: expect.stringMatching(new RegExp(`^${elements - 100} more findings not listed \\(${elements - 100} errors, 0 warnings\\): .*Not listed, by rule id: PEPPOL-EN16931-R008 ${elements - 100}\\.$`)),
      },
    ]);
  }, 60_000);

  test("50,000 prepaid payments: XRechnung's positional-looking rule context cac:PrepaidPayment[$isExtension] stays linear", async () => {
    const { result, ms } = await judge(ubl(XRECHNUNG, "</Invoice>", "<cac:PrepaidPayment/>".repeat(50_000)));
    // Generous: fewer of them ran past the request deadline.
    expect(ms).toBeLessThan(15_000);
    expect(result.valid).toBe(false);
    expect(count(result, "PEPPOL-EN16931-R008")).toBe(100);
  }, 60_000);

  test("1 MB of payment ids: CEN's one-distinct-payment-id rule (UBL-SR-44) stays linear", async () => {
    const { result, ms } = await judge(UBL.replace("<cbc:PaymentID>", `${"<cbc:PaymentID>1</cbc:PaymentID>".repeat(32_000)}<cbc:PaymentID>`));
    // Generous: it compared every payment id with every one before it, past the request deadline.
    expect(ms).toBeLessThan(15_000);
    expect(result.errors.map((f) => f.ruleId)).toEqual(["UBL-SR-44", "UBL-SR-26"]);
  }, 60_000);

  test("1,400 VAT breakdowns and 1,400 allowances of one rate: each breakdown's sums stay linear (Factur-X EXTENDED, CEN)", async () => {
    const tax = "<ram:ApplicableTradeTax><ram:CalculatedAmount>0</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>0</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>25</ram:RateApplicablePercent></ram:ApplicableTradeTax>";
    const allowance = "<ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>false</udt:Indicator></ram:ChargeIndicator><ram:ActualAmount>0</ram:ActualAmount><ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>25</ram:RateApplicablePercent></ram:CategoryTradeTax></ram:SpecifiedTradeAllowanceCharge>";
    const xml = CII.replace(/(<ram:GuidelineSpecifiedDocumentContextParameter>\s*<ram:ID>)[^<]*/, "$1urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended").replace(
      "</ram:ApplicableHeaderTradeSettlement>",
      `${tax.repeat(1_400)}${allowance.repeat(1_400)}</ram:ApplicableHeaderTradeSettlement>`,
    );
    expect(xml.length).toBeLessThan(MB);
    const { result, ms } = await judge(xml);
    // Generous: every breakdown summed every allowance, past the request deadline.
    expect(ms).toBeLessThan(15_000);
    expect(result.profileDetected).toBe("facturx:extended");
    expect(count(result, "BR-FXEXT-S08b")).toBe(100);
  }, 60_000);

  test("invoice lines nested 250 deep: each location is 20 KB, the answer still stays under 1 MB", async () => {
    const xml = ubl(PEPPOL, "</Invoice>", "<cac:InvoiceLine>".repeat(250) + "</cac:InvoiceLine>".repeat(250));
    expect(xml.length).toBeLessThan(40_000);
    const { result, bytes } = await judge(xml);
    expect(bytes).toBeLessThan(MB);
    expect(result.valid).toBe(false);
    expect(truncation(result)).toHaveLength(1);
  }, 30_000);

  test("thousands of invoice lines with a wrong unit code: the first 100 listed, the exact rest counted", async () => {
    const line = UBL.match(/<cac:InvoiceLine>[\s\S]*?<\/cac:InvoiceLine>/)![0].replace(/unitCode="[^"]*"/, 'unitCode="XXX"');
    const lines = 1_200;
    const { result } = await judge(UBL.replace(/<cac:InvoiceLine>[\s\S]*<\/cac:InvoiceLine>/, Array.from({ length: lines }, () => line).join("")));
    expect(result.valid).toBe(false);
    expect(count(result, "BR-CL-23")).toBe(100);
    expect(truncation(result)[0].message).toContain(`Not listed, by rule id: BR-CL-23 ${lines - 100}.`);
  }, 30_000);

  test("leaving warnings out adds no error: the errors are those of the document without them", async () => {
    // Lines of amount 0 priced 1: XRechnung's PEPPOL-EN16931-R120 warns on each, and the totals still add up.
    const line = (id: number) =>
      `<cac:InvoiceLine><cbc:ID>${id}</cbc:ID><cbc:InvoicedQuantity unitCode="EA">1</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">0.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>N</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>6</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">1.00</cbc:PriceAmount></cac:Price></cac:InvoiceLine>`;
    const withLines = (n: number) => ubl(XRECHNUNG, "</Invoice>", Array.from({ length: n }, (_, i) => line(100 + i)).join(""));
    const few = (await judge(withLines(2))).result;
    const many = (await judge(withLines(1_000))).result;
    expect(count(many, "PEPPOL-EN16931-R120")).toBe(100);
    expect(many.errors).toEqual(few.errors);
    expect(many.valid).toBe(few.valid);
    expect(truncation(many)).toEqual([expect.objectContaining({ severity: "info", message: expect.stringContaining("(0 errors, 901 warnings)") })]);
    expect(many.warnings.at(-1)!.ruleId).toBe(FINDINGS_TRUNCATED);
  }, 60_000);

  test("French CTC rules left out of the list still block transmission", async () => {
    const lines = 2_000;
    const xml = CII.replace("<rsm:ExchangedDocumentContext>", "<rsm:ExchangedDocumentContext><ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>S1</ram:ID></ram:BusinessProcessSpecifiedDocumentContextParameter>")
      .replace("<ram:CountryID>NO", "<ram:CountryID>FR")
      .replace("</rsm:SupplyChainTradeTransaction>", `${"<ram:IncludedSupplyChainTradeLineItem/>".repeat(lines)}</rsm:SupplyChainTradeTransaction>`)
      .replace("<ram:SpecifiedTradeSettlementHeaderMonetarySummation>", `${"<ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>false</udt:Indicator></ram:ChargeIndicator></ram:SpecifiedTradeAllowanceCharge>".repeat(lines)}<ram:SpecifiedTradeSettlementHeaderMonetarySummation>`);
    const { result } = await judge(xml);
    const listed = new Set(result.errors.map((f) => f.ruleId));
    const unlisted = result.franceCtcBlockingRuleIds!.filter((ruleId) => !listed.has(ruleId));
    expect(unlisted.length).toBeGreaterThan(5);
    expect(unlisted.every((ruleId) => ruleId.startsWith("BR-FR-"))).toBe(true);
  }, 60_000);
});
