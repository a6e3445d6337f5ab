// A credit note must name the invoice it credits. While `verify` is true every standard answers one
// that names none with 422 INVALID_INVOICE and a Validation result naming BR-55 (the specification's
// reading of the rule: Resources, Invoice, `precedingInvoiceReference`); with `verify` false a CII
// one is written unverified and a UBL one fails closed, as the writer always did.
import { describe, expect, test } from "bun:test";
import { envelope, startValidatingHarness } from "../support/harness";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";
import { quotaStatus } from "../../src/accounts/quota";

const h = startValidatingHarness();
const org = await h.org("credit-notes", "scale");
const key = await h.key(org, "live");
const used = async () => (await quotaStatus(h.storage, h.clock.now, org, true)).used;

const credit = SCENARIOS.find((s) => s.name === "credit note with preceding invoice")!;
const generate = (body: object) =>
  h.post("/v1/generate", JSON.stringify({ output: "xml", ...body }), { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json" });

const TARGETS = [
  { request: { standard: "xrechnung" }, locale: LOCALES.de, format: "cii", profile: "xrechnung" },
  { request: { standard: "xrechnung", syntax: "ubl" }, locale: LOCALES.de, format: "ubl", profile: "xrechnung" },
  { request: { standard: "zugferd" }, locale: LOCALES.de, format: "cii", profile: "facturx:en16931" },
  { request: { standard: "facturx", profile: "basic" }, locale: LOCALES.fr, format: "cii", profile: "facturx:basic" },
  { request: { standard: "peppol-bis" }, locale: LOCALES.be, format: "ubl", profile: "peppol" },
] as const;

const label = (t: (typeof TARGETS)[number]) => Object.values(t.request).join(" ");

describe("a credit note without precedingInvoiceReference", () => {
  for (const target of TARGETS) {
    test(`${label(target)}: 422 INVALID_INVOICE naming BR-55, no seal, no unit; with the reference, 200`, async () => {
      const { precedingInvoiceReference: _, ...uncited } = credit.build(target.locale);
      const before = await used();
      const res = await generate({ ...target.request, invoice: uncited });
      expect(res.status).toBe(422);
      const { error } = await envelope(res);
      expect(error.code).toBe("INVALID_INVOICE");
      expect(error.message).toContain("BR-55");
      const result = error.details.validationResult;
      expect(result).toEqual({
        valid: false,
        verified: true,
        format: target.format,
        profileDetected: target.profile,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        errors: [{ ruleId: "BR-55", severity: "fatal", message: "[BR-55]-Each Preceding Invoice reference (BG-3) shall contain a Preceding Invoice reference (BT-25)." }],
        warnings: [],
      });
      expect(await used()).toBe(before);

      const cited = await generate({ ...target.request, invoice: credit.build(target.locale) });
      const { data } = await envelope(cited);
      expect([cited.status, data.validationResult.valid, data.validationResult.errors]).toEqual([200, true, []]);
      expect(await used()).toBe(before + 1);
    }, 60_000);
  }

  test("a hybrid PDF asked for is refused the same way, before anything is drawn", async () => {
    const { precedingInvoiceReference: _, ...uncited } = credit.build(LOCALES.de);
    const res = await generate({ standard: "zugferd", output: "pdf", invoice: uncited });
    const { error } = await envelope(res);
    expect([res.status, error.code, error.details.validationResult.errors.map((e: { ruleId: string }) => e.ruleId)]).toEqual([422, "INVALID_INVOICE", ["BR-55"]]);
  }, 60_000);

  test("verify: false writes a CII one unverified; a UBL one still fails closed on the field", async () => {
    const { precedingInvoiceReference: _, ...uncited } = credit.build(LOCALES.de);
    const cii = await generate({ standard: "zugferd", verify: false, invoice: uncited });
    expect(cii.status).toBe(200);
    expect((await envelope(cii)).data.validationResult).toMatchObject({ valid: false, verified: false, errors: [] });
    const ubl = await generate({ standard: "xrechnung", syntax: "ubl", verify: false, invoice: uncited });
    expect(ubl.status).toBe(400);
    expect((await envelope(ubl)).error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { fields: [{ path: "/invoice", keyword: "required", message: "must have required property 'precedingInvoiceReference'" }] },
    });
  }, 60_000);
});
