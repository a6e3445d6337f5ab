import { describe, expect, test } from "bun:test";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { envelope, startValidatingHarness } from "../support/harness";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";
import { quotaStatus } from "../../src/accounts/quota";
import { rulesetSha256, sha256Hex } from "../../src/rulesets/seal";
import { TEST_MODE_COMMENT } from "../../src/generate/test-mode";

const h = startValidatingHarness();
const org = await h.org("generator", "scale");
const live = await h.key(org, "live");
const testKey = await h.key(org, "test");

const invoice = SCENARIOS[0].build(LOCALES.de);
const generate = (body: unknown, key = live, accept?: string) =>
  h.post("/v1/generate", JSON.stringify(body), { authorization: `Bearer ${key}`, "content-type": "application/json", ...(accept ? { accept } : {}) });
const parse = (body: BodyInit, contentType = "application/xml") => h.post("/v1/parse", body, { authorization: `Bearer ${live}`, "content-type": contentType });

describe("POST /v1/generate", () => {
  test("the national formats: FatturaPA, Facturae and e-SLOG written, schema-valid, their schema bundles in x-version-block; a test key's file marked", async () => {
    const cases = [
      { standard: "fatturapa", locale: LOCALES.it, root: "FatturaElettronica", block: ["italyFatturapaXsdBundle", "italyFatturapaRuntimeVersion"] },
      { standard: "facturae", locale: LOCALES.es, root: "Facturae", block: ["spainFacturaeXsdBundle", "spainFacturaeRuntimeVersion"] },
      { standard: "eslog", locale: LOCALES.si, root: "Invoice", block: ["sloveniaEslogXsdBundle", "sloveniaEslogRuntimeVersion"] },
    ];
    for (const { standard, locale, root, block } of cases) {
      const res = await generate({ standard, output: "xml", invoice: SCENARIOS[0].build(locale) }, testKey);
      expect([standard, res.status]).toEqual([standard, 200]);
      expect(res.headers.get("x-validation")).toMatch(/^pass; 0 errors/);
      expect(Object.keys(JSON.parse(res.headers.get("x-version-block")!))).toEqual(block);
      const xml = await res.text();
      expect(xml).toContain(TEST_MODE_COMMENT);
      expect(xml).toMatch(new RegExp(`<(\\w+:)?${root}[ >]`));
    }
  }, 60_000);

  test("answers the raw XML, validated, with the seal and version headers", async () => {
    const res = await generate({ standard: "xrechnung", output: "xml", invoice });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/xml");
    const xml = await res.text();
    expect(xml).toContain("CrossIndustryInvoice");
    expect(xml).toContain("urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0");
    expect(xml).not.toContain("test mode");
    expect(res.headers.get("x-validation")).toMatch(/^pass; 0 errors/);
    expect(res.headers.get("x-syntax")).toBe("cii");
    expect(res.headers.get("x-profile-detected")).toBe("xrechnung");
    expect(JSON.parse(res.headers.get("x-version-block")!)).toEqual({ schematronVersion: "1.3.16", ciusVersion: "2.5.0" });
    const rows = JSON.parse(res.headers.get("x-ruleset-artifacts")!);
    expect(rulesetSha256(rows)).toBe(res.headers.get("x-ruleset-sha256")!);
  }, 60_000);

  test("with Accept: application/json answers the envelope; test keys get the test-mode comment right after the declaration", async () => {
    const res = await generate({ standard: "facturx", profile: "basic", output: "xml", invoice }, testKey, "application/json");
    expect(res.status).toBe(200);
    const { data } = await envelope(res);
    const bytes = Buffer.from(data.output, "base64");
    expect(data.sha256).toBe(sha256Hex(bytes));
    expect(data).toMatchObject({ standard: "facturx", profile: "basic", contentType: "application/xml", outputFormat: "xml" });
    expect(data.validationResult).toMatchObject({ valid: true, verified: true, format: "cii", sha256: data.sha256 });
    expect(bytes.toString("utf8")).toMatch(/^<\?xml[^>]*\?>\n<!-- TEST MODE: [^>]*not a valid production invoice[^>]*not transmitted\. -->\n/);
    expect(JSON.parse(res.headers.get("x-version-block")!).facturxProfile).toBe("basic");
  }, 60_000);

  test("the JSON envelope has exactly the fields clients read, and the OpenAPI schema describes exactly it", async () => {
    const doc = await (await h.get("/openapi.json")).json();
    expect(doc.paths["/v1/generate"].post.responses["200"].content["application/json"].schema.properties.data).toEqual({ $ref: "#/components/schemas/GenerateResult" });
    const schema = doc.components.schemas.GenerateResult;
    // Its references (the validation result) point into the document's components.
    const matches = addFormats(new Ajv({ strict: false })).compile({ ...schema, components: doc.components });
    const fields = ["invoiceId", "format", "standard", "profile", "validationResult", "output", "outputFormat", "contentType", "sha256", "droppedFields"];
    const xml = (await envelope(await generate({ standard: "xrechnung", syntax: "ubl", output: "xml", invoice }, live, "application/json"))).data;
    expect(Object.keys(xml).sort()).toEqual([...fields].sort());
    expect(xml).toMatchObject({ invoiceId: invoice.number, format: "ubl", standard: "xrechnung", profile: "xrechnung", outputFormat: "xml", contentType: "application/xml", droppedFields: [] });
    expect(matches(xml)).toBe(true);
    const pdf = (await envelope(await generate({ standard: "zugferd", output: "pdf", invoice }, live, "application/json"))).data;
    expect(Object.keys(pdf).sort()).toEqual([...fields, "pdfKind"].sort());
    expect(pdf).toMatchObject({ invoiceId: invoice.number, format: "cii", standard: "zugferd", profile: "en16931", outputFormat: "pdf", contentType: "application/pdf", pdfKind: "hybrid" });
    expect(pdf.sha256).toBe(sha256Hex(Buffer.from(pdf.output, "base64")));
    expect(matches(pdf)).toBe(true);
    expect(Object.keys(schema.properties).sort()).toEqual([...fields, "pdfKind"].sort());
    expect(schema.required.sort()).toEqual([...fields].sort());
    expect(matches({ ...xml, extra: 1 })).toBe(false);
  }, 60_000);

  test("a raw answer says its envelope in x-output-envelope; a JSON answer's is its content type", async () => {
    const xml = await generate({ standard: "xrechnung", output: "xml", invoice });
    expect(xml.headers.get("content-type")).toStartWith("application/xml");
    expect(xml.headers.get("x-output-envelope")).toBe("xml");
    const pdf = await generate({ standard: "facturx", output: "pdf", invoice });
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("x-output-envelope")).toBe("pdf");
    expect(pdf.headers.get("x-pdf-kind")).toBe("hybrid");
    const json = await generate({ standard: "xrechnung", output: "xml", invoice }, live, "application/json");
    expect(json.headers.get("x-output-envelope")).toBeNull();
    const doc = await (await h.get("/openapi.json")).json();
    expect(Object.keys(doc.paths["/v1/generate"].post.responses["200"].headers)).toEqual(expect.arrayContaining(["x-output-envelope", "x-pdf-kind", "x-lost-elements", "x-lost-elements-count"]));
  }, 60_000);

  test("fields the target cannot carry are reported on a raw answer too: x-lost-elements as the envelope lists them, with their count", async () => {
    const sub = { ...invoice.lines[0] };
    const withParts = { ...invoice, lines: [{ ...sub, subLines: [sub] }, ...invoice.lines.slice(1)] };
    const raw = await generate({ standard: "xrechnung", output: "xml", invoice: withParts });
    expect(raw.status).toBe(200);
    expect(raw.headers.get("x-lost-elements-count")).toBe("1");
    expect(JSON.parse(raw.headers.get("x-lost-elements")!)).toEqual([{ bt: "BG-DEX-01", xpath: "/invoice/lines/0/subLines" }]);
    const { data } = await envelope(await generate({ standard: "xrechnung", output: "xml", invoice: withParts }, live, "application/json"));
    expect(data.droppedFields).toEqual([{ bt: "BG-DEX-01", xpath: "/invoice/lines/0/subLines" }]);
    const kept = await generate({ standard: "xrechnung", output: "xml", invoice });
    expect(kept.headers.get("x-lost-elements-count")).toBe("0");
    expect(kept.headers.get("x-lost-elements")).toBe("[]");
  }, 60_000);

  test("x-lost-elements stays within 6 KB: the first entries that fit, then how many more; the count stays exact", async () => {
    const body = { standard: "facturx", profile: "minimum", output: "xml", invoice };
    const { data } = await envelope(await generate(body, live, "application/json"));
    expect(JSON.stringify(data.droppedFields).length).toBeGreaterThan(6 * 1024);
    const raw = await generate(body);
    expect(raw.status).toBe(200);
    const header = raw.headers.get("x-lost-elements")!;
    expect(header.length).toBeLessThanOrEqual(6 * 1024);
    expect(Number(raw.headers.get("x-lost-elements-count"))).toBe(data.droppedFields.length);
    const entries = JSON.parse(header);
    const marker = entries.pop();
    expect(entries.length).toBeGreaterThan(0);
    expect(entries).toEqual(data.droppedFields.slice(0, entries.length));
    expect(marker).toEqual({ truncated: true, more: data.droppedFields.length - entries.length });
  }, 60_000);

  test("verify: false skips validation and says so", async () => {
    const { data } = await envelope(await generate({ standard: "peppol-bis", output: "xml", invoice, verify: false }, live, "application/json"));
    expect(data.validationResult).toMatchObject({ valid: false, verified: false, errors: [], warnings: [] });
    expect(data.validationResult.rulesetSha256).toBeUndefined();
  });

  test("an invoice that breaks the rules is 422 INVALID_INVOICE with the verdict, and costs its unit", async () => {
    const before = (await quotaStatus(h.storage, h.clock.now, org, true)).used;
    const res = await generate({ standard: "xrechnung", output: "xml", invoice: { ...invoice, totalGrossAmount: invoice.totalGrossAmount + 1 } });
    expect(res.status).toBe(422);
    const { error } = await envelope(res);
    expect(error.code).toBe("INVALID_INVOICE");
    expect(error.details.validationResult.valid).toBe(false);
    expect(error.details.validationResult.errors.map((e: { ruleId: string }) => e.ruleId)).toContain("BR-CO-15");
    expect((await quotaStatus(h.storage, h.clock.now, org, true)).used).toBe(before + 1);
  }, 60_000);

  test("profile and document type outside the compatibility table are 422 with the allowed values", async () => {
    const mismatch = await envelope(await generate({ standard: "xrechnung", profile: "peppol", output: "xml", invoice }));
    expect(mismatch.error.code).toBe("PROFILE_STANDARD_MISMATCH");
    expect(mismatch.error.details).toMatchObject({ standard: "xrechnung", profile: "peppol", allowedProfiles: ["xrechnung"] });
    const credit = await envelope(await generate({ standard: "fatturapa", output: "xml", invoice: { ...invoice, documentType: "creditnote" } }));
    expect(credit.error.code).toBe("DOCUMENT_TYPE_STANDARD_MISMATCH");
    expect(credit.error.details.creditNoteCapableStandards).toEqual(["eslog", "facturx", "peppol-bis", "xrechnung", "zugferd"]);
  });

  test("a party without a derivable electronic address is 400 INVALID_REQUEST naming it", async () => {
    const { vatId: _, email: __, ...buyer } = invoice.buyer;
    const res = await generate({ standard: "peppol-bis", output: "xml", invoice: { ...invoice, buyer } });
    expect(res.status).toBe(400);
    const { error } = await envelope(res);
    expect(error.code).toBe("INVALID_REQUEST");
    expect(error.details.party).toBe("buyer");
  });

  test("schema failures follow the spec's details.fields shapes and cost nothing", async () => {
    const before = (await quotaStatus(h.storage, h.clock.now, org, true)).used;
    const fields = async (body: unknown) => (await envelope(await generate(body))).error.details.fields as { path: string; keyword: string }[];
    expect(await fields({ standard: "xrechnung", invoice })).toEqual([expect.objectContaining({ path: "output", keyword: "required" })]);
    const { city: _, ...address } = invoice.seller.address;
    expect(await fields({ standard: "xrechnung", output: "xml", invoice: { ...invoice, seller: { ...invoice.seller, address } } })).toEqual([
      expect.objectContaining({ path: "/invoice/seller/address", keyword: "required" }),
    ]);
    const badStandard = await fields({ standard: "nope", output: "xml", invoice });
    expect(badStandard.filter((f) => f.path === "/standard" && f.keyword === "const")).toHaveLength(7);
    expect(badStandard).toContainEqual(expect.objectContaining({ path: "/standard", keyword: "anyOf" }));
    expect(await fields({ standard: "xrechnung", output: "xml", invoice: { ...invoice, seller: { ...invoice.seller, vatId: "de 123" } } })).toEqual([
      expect.objectContaining({ path: "/invoice/seller/vatId", keyword: "pattern" }),
    ]);
    expect(await fields({ standard: "xrechnung", output: "xml", invoice: { ...invoice, colour: "red" } })).toEqual([
      expect.objectContaining({ path: "/invoice", keyword: "additionalProperties" }),
    ]);
    const sub = { ...invoice.lines[0] };
    const tooMany = { ...invoice, lines: [{ ...sub, subLines: Array.from({ length: 201 }, () => sub) }] };
    expect(await fields({ standard: "xrechnung", output: "xml", invoice: tooMany })).toContainEqual(expect.objectContaining({ path: "/invoice/lines/0/subLines", keyword: "maxItems" }));
    expect((await quotaStatus(h.storage, h.clock.now, org, true)).used).toBe(before);
  });
});

describe("POST /v1/parse", () => {
  test("parse(generate(x)) gives back the invoice in the generate field names", async () => {
    const xml = await (await generate({ standard: "xrechnung", syntax: "ubl", output: "xml", invoice })).text();
    const res = await parse(xml);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-syntax")).toBe("ubl");
    const { data } = await envelope(res);
    expect(data.format).toBe("ubl");
    expect(data.profileDetected).toBe("xrechnung");
    expect(data.invoice).toMatchObject({ number: invoice.number, issueDate: invoice.issueDate, totalGrossAmount: invoice.totalGrossAmount, lines: invoice.lines });
    expect(JSON.stringify(data.invoice)).not.toContain("null");
  }, 60_000);

  test("malformed XML and formats parse does not map are 400 PARSE_FAILED", async () => {
    const malformed = await envelope(await parse("<Invoice><broken></Invoice>"));
    expect(malformed.error.code).toBe("PARSE_FAILED");
    const fattura = `<?xml version="1.0"?><p:FatturaElettronica versione="FPR12" xmlns:p="http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2"/>`;
    const refused = await envelope(await parse(fattura));
    expect(refused.error.code).toBe("PARSE_FAILED");
    expect(refused.error.message).toContain("FatturaPA");
    expect((await parse("")).status).toBe(400);
  });
});

describe("POST /v1/generate with output pdf", () => {
  const pdfGenerate = (body: object, key = live) => generate({ output: "pdf", invoice, ...body }, key);

  test("zugferd and facturx give a hybrid PDF/A-3 that validates whole, with its XML inside", async () => {
    const res = await pdfGenerate({ standard: "facturx", profile: "en16931", template: "standard" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("x-pdf-kind")).toBe("hybrid");
    expect(res.headers.get("x-validation")).toMatch(/^pass;/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
    const parsed = await envelope(await parse(bytes as BodyInit, "application/pdf"));
    expect(parsed.data.invoice.number).toBe(invoice.number);
    const judged = await envelope(await h.post("/v1/validate", bytes as BodyInit, { authorization: `Bearer ${live}`, "content-type": "application/pdf" }));
    expect(judged.data).toMatchObject({ valid: true, format: "cii", profileDetected: "facturx:en16931" });
  }, 60_000);

  test("other standards give a visualization, which needs a template", async () => {
    const refused = await pdfGenerate({ standard: "xrechnung" });
    expect(refused.status).toBe(400);
    expect((await envelope(refused)).error.code).toBe("VALIDATION_ERROR");
    const res = await pdfGenerate({ standard: "xrechnung", template: "standard" }, testKey);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-pdf-kind")).toBe("visualization");
  }, 60_000);

  test("pdfTemplateId names a stored template of the caller's organization", async () => {
    const headers = { authorization: `Bearer ${live}`, "content-type": "application/json" };
    const { data } = await envelope(await h.post("/v1/pdf-templates", JSON.stringify({ name: "Brand", definition: { accentColor: "#1F4E79" } }), headers));
    const ok = await pdfGenerate({ standard: "zugferd", pdfTemplateId: data.ref });
    expect(ok.status).toBe(200);
    const missing = await pdfGenerate({ standard: "zugferd", pdfTemplateId: "ZZZ-ZZZ" });
    expect(missing.status).toBe(404);
    expect((await envelope(missing)).error.code).toBe("PDF_TEMPLATE_NOT_FOUND");
    const stranger = await h.key(await h.org("stranger", "scale"), "live");
    expect((await pdfGenerate({ standard: "zugferd", pdfTemplateId: data.ref }, stranger)).status).toBe(404);
    h.storage.sqlite.run("UPDATE pdf_templates SET definition = ? WHERE ref = ?", ['{"accentColor": 42}', data.ref]);
    const broken = await pdfGenerate({ standard: "zugferd", pdfTemplateId: data.ref });
    expect(broken.status).toBe(422);
    const { error } = await envelope(broken);
    expect(error.code).toBe("PDF_TEMPLATE_INVALID");
    expect(error.details.problems[0]).toContain("accentColor");
  }, 60_000);
});
