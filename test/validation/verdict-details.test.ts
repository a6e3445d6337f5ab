import { beforeAll, describe, expect, test } from "bun:test";
import { rulesetBundle } from "../../src/assets/bundle";
import { createEngine } from "../../src/validation/engine";
import { validateDocument, type Engine } from "../../src/validation/validate";
import { generateXml } from "../../src/generate/generate";
import { rulesetRequest } from "../../src/rulesets/selection";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";
import type { ValidationResult } from "../../src/validation/result";

let engine: Engine;
beforeAll(() => {
  engine = createEngine(rulesetBundle());
});

const DAY = "2026-11-22";
const base = SCENARIOS[0].build(LOCALES.de);
const { dueDate: _due, paymentTerms: _terms, ...withoutPaymentDeadline } = base;

async function judge(invoice: typeof base, standard: "xrechnung" | "peppol-bis" | "facturx", profile?: string, channel = "latest", documentType?: "creditnote"): Promise<ValidationResult> {
  const request = { standard, profile, output: "xml" as const, invoice: { ...invoice, ...(documentType ? { documentType, precedingInvoiceReference: { id: "INV-1" } } : {}) } };
  const generated = generateXml(request as never, { livemode: true });
  const outcome = await validateDocument(engine, { bytes: generated.bytes, record: generated.record, ruleset: { request: rulesetRequest(channel, "latest"), day: DAY } });
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.result;
}

const advisory = (r: ValidationResult) => r.warnings.find((w) => w.ruleId === "EN16931_BR_CO_25_NOT_ENFORCED");

describe("EN16931_BR_CO_25_NOT_ENFORCED", () => {
  test("is reported as info when no rule file that ran carries BR-CO-25 and a positive amount due has no due date or terms", async () => {
    const result = await judge(withoutPaymentDeadline, "xrechnung");
    expect(advisory(result)).toMatchObject({ severity: "info" });
    expect(result.valid).toBe(true);
  }, 60_000);

  test("is absent when a due date or payment terms is present", async () => {
    expect(advisory(await judge(base, "xrechnung"))).toBeUndefined();
  }, 60_000);

  test("is absent where an artifact that ran enforces the rule (CEN 1.3.15 through previous, Peppol's CEN 1.3.14, Factur-X EXTENDED)", async () => {
    const peppol = await judge(withoutPaymentDeadline, "peppol-bis");
    expect(advisory(peppol)).toBeUndefined();
    expect(peppol.errors.map((e) => e.ruleId)).toContain("BR-CO-25");
    const previous = await judge(withoutPaymentDeadline, "xrechnung", undefined, "previous");
    expect(previous.rulesetArtifacts!.map((r) => r.version)).toContain("1.3.15");
    expect(advisory(previous)).toBeUndefined();
    expect(previous.errors.map((e) => e.ruleId)).toContain("BR-CO-25");
    const extended = await judge(withoutPaymentDeadline, "facturx", "extended");
    expect(advisory(extended)).toBeUndefined();
    expect(extended.errors.map((e) => e.ruleId)).toContain("BR-CO-25");
  }, 60_000);

  // The pinned Factur-X 1.09 BASIC and BASIC WL files carry no BR-CO-25 (the advisory reads the
  // rule files themselves, not the specification's prose that says they enforce it).
  test("is reported on Factur-X BASIC and BASIC WL invoices without due date and payment terms", async () => {
    for (const level of ["basic", "basicwl"]) {
      const result = await judge(withoutPaymentDeadline, "facturx", level);
      expect([level, advisory(result)?.severity, result.valid]).toEqual([level, "info", true]);
    }
  }, 60_000);

  test("never on credit notes", async () => {
    expect(advisory(await judge(withoutPaymentDeadline, "xrechnung", undefined, "latest", "creditnote"))).toBeUndefined();
  }, 60_000);
});

describe("France CTC overlay", () => {
  test("EXTENDED-CTC-FR documents run the French rules and list what fired as blocking", async () => {
    const invoice = { ...SCENARIOS[0].build(LOCALES.fr), franceCtc: true };
    const ok = await judge(invoice, "facturx", "extended-ctc-fr");
    // The D22B schema and both rule files are pinned under the France CTC key.
    expect(ok.rulesetArtifacts!.filter((r) => r.key === "france_ctc_schematron")).toHaveLength(3);
    expect(ok.valid).toBe(true);
    expect(ok.franceCtcBlockingRuleIds).toBeUndefined();
    // The seller's SIREN is what BR-FR rules check first: without it they fire.
    const { registrationId: _, ...seller } = invoice.seller;
    const broken = await judge({ ...invoice, seller }, "facturx", "extended-ctc-fr");
    expect(broken.franceCtcBlockingRuleIds?.length).toBeGreaterThan(0);
    for (const id of broken.franceCtcBlockingRuleIds!) expect([...broken.errors, ...broken.warnings].map((f) => f.ruleId)).toContain(id);
  }, 60_000);

  test("a French seller with a French business process gets the BR-FR file of its level", async () => {
    const invoice = { ...SCENARIOS[0].build(LOCALES.fr), franceCtc: true };
    const result = await judge(invoice, "facturx", "en16931");
    expect(result.rulesetArtifacts!.map((r) => r.key)).toEqual(["cii_xsd_d22b", "facturx_schematron", "france_ctc_schematron"]);
    const german = await judge(SCENARIOS[0].build(LOCALES.de), "facturx", "en16931");
    expect(german.rulesetArtifacts!.map((r) => r.key)).toEqual(["cii_xsd_d22b", "facturx_schematron"]);
  }, 60_000);
});
