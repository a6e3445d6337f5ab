// The field names the interface specification leaves open (docs/generate.md, "Field names the spec
// leaves open") are the ones existing clients of this API send: an invoice written with them is
// accepted by every standard whose writer exists, parse answers with the same names, and the names
// they replaced are refused like any unknown property.

import { describe, expect, test } from "bun:test";
import { envelope, startValidatingHarness } from "../support/harness";
import { LOCALES, SCENARIOS, type LocaleName } from "../../fixtures/invoices.ts";

const h = startValidatingHarness();
const live = await h.key(await h.org("client-names", "scale"), "live");
const headers = { authorization: `Bearer ${live}`, "content-type": "application/json" };
const generate = (body: unknown) => h.post("/v1/generate", JSON.stringify(body), headers);
const parse = (xml: string) => h.post("/v1/parse", xml, { authorization: `Bearer ${live}`, "content-type": "application/xml" });

const reverseCharge = SCENARIOS.find((s) => s.name === "cross-border reverse charge (AE)")!;
/** The invoice as a client writes it: an exempt breakdown with both reason terms and every payment means field. */
function clientInvoice(locale: LocaleName) {
  const invoice = reverseCharge.build(LOCALES[locale]);
  return {
    ...invoice,
    taxSummary: invoice.taxSummary!.map((t) => ({ ...t, exemptionReasonText: "Reverse charge", exemptionReasonCode: "VATEX-EU-AE" })),
    paymentMeans: { typeCode: "58", iban: LOCALES[locale].iban, bic: "COBADEFFXXX", bankName: invoice.seller.name, paymentReference: invoice.number },
  };
}

async function refusal(res: Response) {
  const { error } = await envelope(res);
  return { status: res.status, code: error.code as string, message: error.message as string, fields: error.details.fields as { path: string; message: string; keyword: string }[] };
}

describe("the client field names", () => {
  const writers: [string, LocaleName][] = [
    ["xrechnung", "de"],
    ["zugferd", "de"],
    ["facturx", "fr"],
    ["peppol-bis", "be"],
  ];
  for (const [standard, locale] of writers) {
    test(`${standard} accepts them, and parse gives them back`, async () => {
      const invoice = clientInvoice(locale);
      const res = await generate({ standard, output: "xml", invoice });
      expect(res.status).toBe(200);
      const { data } = await envelope(await parse(await res.text()));
      expect(data.invoice.paymentMeans).toEqual(invoice.paymentMeans);
      expect(data.invoice.taxSummary[0]).toMatchObject({ exemptionReasonText: "Reverse charge", exemptionReasonCode: "VATEX-EU-AE" });
      expect(Object.keys(data.invoice.taxSummary[0])).not.toContain("exemptionReason");
    }, 60_000);
  }
});

describe("names outside the contract", () => {
  const invoice = clientInvoice("de");

  test("the names they replaced are 400 VALIDATION_ERROR naming them", async () => {
    const { bankName, paymentReference, ...paymentMeans } = invoice.paymentMeans;
    const oldNames = [
      { paymentMeans: { ...paymentMeans, accountName: bankName }, path: "/invoice/paymentMeans", name: "accountName" },
      { paymentMeans: { ...paymentMeans, remittanceInformation: paymentReference }, path: "/invoice/paymentMeans", name: "remittanceInformation" },
    ];
    for (const old of oldNames) {
      const r = await refusal(await generate({ standard: "xrechnung", output: "xml", invoice: { ...invoice, paymentMeans: old.paymentMeans } }));
      expect([r.status, r.code]).toEqual([400, "VALIDATION_ERROR"]);
      expect(r.fields).toEqual([expect.objectContaining({ path: old.path, keyword: "additionalProperties" })]);
      expect(r.message).toContain(`'${old.name}'`);
    }
    const { exemptionReasonText, ...breakdown } = invoice.taxSummary[0]!;
    const r = await refusal(await generate({ standard: "xrechnung", output: "xml", invoice: { ...invoice, taxSummary: [{ ...breakdown, exemptionReason: exemptionReasonText }] } }));
    expect(r.fields).toEqual([expect.objectContaining({ path: "/invoice/taxSummary/0", keyword: "additionalProperties" })]);
    expect(r.message).toContain("'exemptionReason'");
  });

  test("a pdfTemplateId that is not a short ref is 400 VALIDATION_ERROR naming pdfTemplateId", async () => {
    const r = await refusal(await generate({ standard: "zugferd", output: "pdf", pdfTemplateId: "3f2b8c1e-9a4d-4f6e-8b1a-2c3d4e5f6a7b", invoice }));
    expect([r.status, r.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(r.fields).toEqual([expect.objectContaining({ path: "/pdfTemplateId", keyword: "pattern" })]);
    expect(r.message).toContain("pdfTemplateId");
  });

  test("a 6-character codiceDestinatario (FPA12, public administration) is 400 naming the field; 7 characters pass the schema", async () => {
    const italy = (codiceDestinatario: string) => ({ standard: "fatturapa", output: "xml", invoice: { ...invoice, italy: { codiceDestinatario } } });
    const r = await refusal(await generate(italy("UFABCD")));
    expect([r.status, r.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(r.fields).toEqual([expect.objectContaining({ path: "/invoice/italy/codiceDestinatario", keyword: "pattern" })]);
    expect(r.message).toContain("codiceDestinatario");
    // Past the schema, the code routes the FatturaPA file.
    const italian = { standard: "fatturapa", output: "xml", invoice: { ...SCENARIOS[0]!.build(LOCALES.it), italy: { codiceDestinatario: "ABC1234" } } };
    const accepted = await generate(italian);
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toContain("<CodiceDestinatario>ABC1234</CodiceDestinatario>");
  });

  test("the OpenAPI document tells why a 6-character codiceDestinatario is refused", async () => {
    const doc = await (await h.get("/openapi.json")).text();
    expect(doc).toContain("A 6-character code addresses a public administration, which takes FPA12, a format generate does not write");
  });
});

// The refusals an SDK maps to its own error types, each in the shape the spec's Errors section gives.
describe("the error cases SDK clients handle", () => {
  const invoice = clientInvoice("de");

  test("a profile the standard does not accept is 422 PROFILE_STANDARD_MISMATCH listing the allowed profiles", async () => {
    const res = await generate({ standard: "peppol-bis", profile: "xrechnung", output: "xml", invoice });
    const { error } = await envelope(res);
    expect([res.status, error.code]).toEqual([422, "PROFILE_STANDARD_MISMATCH"]);
    expect(error.details).toMatchObject({ standard: "peppol-bis", profile: "xrechnung", allowedProfiles: ["peppol", "romania-ro-cius", "netherlands-nlcius"] });
  });

  test("an invoice without taxSummary is 422 INVALID_INVOICE whose validation result names BR-CO-18", async () => {
    const { taxSummary: _, ...withoutBreakdown } = invoice;
    const res = await generate({ standard: "xrechnung", output: "xml", invoice: withoutBreakdown });
    const { error } = await envelope(res);
    expect([res.status, error.code]).toEqual([422, "INVALID_INVOICE"]);
    expect(error.details.validationResult.valid).toBe(false);
    expect(error.details.validationResult.errors.map((e: { ruleId: string }) => e.ruleId)).toContain("BR-CO-18");
  }, 60_000);

  test("an unknown field is 400 VALIDATION_ERROR with details.fields naming it", async () => {
    const r = await refusal(await generate({ standard: "xrechnung", output: "xml", invoice: { ...invoice, purchaseOrderNumber: "PO-1" } }));
    expect([r.status, r.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(r.fields).toEqual([expect.objectContaining({ path: "/invoice", keyword: "additionalProperties" })]);
    expect(r.message).toContain("'purchaseOrderNumber'");
  });
});
