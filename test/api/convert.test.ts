// POST /v1/convert over HTTP: the converted file with the spec's headers, the acceptable losses in
// x-lost-elements with the 200, every other loss refused with the places it names, pairs outside the
// EN 16931 family refused by name, and one quota unit per call.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { envelope, startValidatingHarness } from "../support/harness";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";
import { generateXml, type GenerateInput } from "../../src/generate/generate.ts";
import { quotaStatus } from "../../src/accounts/quota";
import { rulesetSha256 } from "../../src/rulesets/seal";
import { TEST_MODE_COMMENT } from "../../src/generate/test-mode.ts";
import { CORPUS_DIR } from "../support/corpus.ts";
import { detect } from "../../src/syntax/detect.ts";

const h = startValidatingHarness();
const org = await h.org("converter", "scale");
const live = await h.key(org, "live");
const testKey = await h.key(org, "test");
const used = async () => (await quotaStatus(h.storage, h.clock.now, org, true)).used;

const invoice = SCENARIOS[0]!.build(LOCALES.de);
const written = (request: Omit<GenerateInput, "invoice">, locale = invoice) => generateXml({ ...request, invoice: locale }, { livemode: true }).bytes;
const convert = (body: BodyInit | Uint8Array, query: string, key = live, headers: Record<string, string> = {}) =>
  h.post(`/v1/convert?${query}`, body as BodyInit, { authorization: `Bearer ${key}`, "content-type": "application/xml", ...headers });

describe("POST /v1/convert", () => {
  test("XRechnung CII to UBL: the UBL file, judged as XRechnung UBL, with the spec's headers and one unit spent", async () => {
    const before = await used();
    const res = await convert(written({ standard: "xrechnung", syntax: "cii" }), "targetFormat=ubl");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/xml");
    const xml = await res.text();
    expect(xml).toContain("<Invoice xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\"");
    expect(xml).toContain("urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0");
    expect(res.headers.get("x-source-format")).toBe("xrechnung");
    expect(res.headers.get("x-target-format")).toBe("ubl");
    expect(res.headers.get("x-profile-detected")).toBe("xrechnung");
    expect(res.headers.get("x-lost-elements-count")).toBe("0");
    expect(res.headers.get("x-lost-elements")).toBe("[]");
    expect(res.headers.get("x-output-envelope")).toBe("xml");
    expect(res.headers.get("x-conversion-tools")!.split(",").slice(0, 2)).toEqual(["cii-reader", "ubl-writer"]);
    expect(JSON.parse(res.headers.get("x-version-block")!)).toEqual({ schematronVersion: "1.3.16", ciusVersion: "2.5.0" });
    expect(res.headers.get("x-validation")).toMatch(/^pass; 0 errors/);
    expect(rulesetSha256(JSON.parse(res.headers.get("x-ruleset-artifacts")!))).toBe(res.headers.get("x-ruleset-sha256")!);
    expect(await used()).toBe(before + 1);
  }, 60_000);

  test("Peppol BIS UBL to plain UBL: the endpoints are stripped, each an acceptable loss named by its term", async () => {
    const res = await convert(written({ standard: "peppol-bis" }, SCENARIOS[0]!.build(LOCALES.be)), "targetFormat=ubl");
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain("cbc:EndpointID");
    expect(res.headers.get("x-source-format")).toBe("peppol-bis");
    const lost = JSON.parse(res.headers.get("x-lost-elements")!);
    expect(res.headers.get("x-lost-elements-count")).toBe(String(lost.length));
    expect(lost).toEqual([
      expect.objectContaining({ path: "/Invoice/cac:AccountingSupplierParty/cac:Party/cbc:EndpointID", severity: "info", acceptableLoss: true, reason: expect.stringContaining("BT-34") }),
      expect.objectContaining({ path: "/Invoice/cac:AccountingCustomerParty/cac:Party/cbc:EndpointID", severity: "info", acceptableLoss: true, reason: expect.stringContaining("BT-49") }),
    ]);
    expect(typeof lost[0].value).toBe("string");
  }, 60_000);

  test("a Peppol target from a source without endpoints fails closed naming them, with no body and the unit kept", async () => {
    // A buyer with neither e-mail nor VAT id: nothing a Factur-X writer makes an electronic address of.
    const { email: _e, vatId: _v, ...buyer } = invoice.buyer;
    const before = await used();
    const res = await convert(written({ standard: "facturx", profile: "en16931" }, { ...invoice, buyer }), "targetFormat=peppol-bis");
    expect(res.status).toBe(422);
    const { error } = await envelope(res);
    expect(error.code).toBe("CONVERSION_LOSSY_FAILCLOSED");
    expect(error.details.unmappablePaths).toEqual(["/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:URIUniversalCommunication/ram:URIID"]);
    expect(error.message).toContain("convert never invents one");
    expect(await used()).toBe(before + 1);
  }, 60_000);

  test("a France CTC process code on a UBL target fails closed, and with dropFranceCtcOverlay=true is an acceptable loss", async () => {
    const french = written({ standard: "facturx", profile: "extended-ctc-fr" }, { ...SCENARIOS[0]!.build(LOCALES.fr), franceCtc: true });
    const refused = await convert(french, "targetFormat=ubl");
    expect(refused.status).toBe(422);
    const { error } = await envelope(refused);
    expect(error).toMatchObject({ code: "CONVERSION_LOSSY_FAILCLOSED", details: { unmappablePaths: ["/rsm:CrossIndustryInvoice/rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID"] } });
    expect(error.message).toContain("dropFranceCtcOverlay=true");
    const dropped = await convert(french, "targetFormat=ubl&dropFranceCtcOverlay=true");
    expect(dropped.status).toBe(200);
    expect(JSON.parse(dropped.headers.get("x-lost-elements")!)).toEqual([expect.objectContaining({ value: "M1", acceptableLoss: true, reason: expect.stringContaining("BT-23") })]);
    expect(await dropped.text()).not.toContain("<cbc:ProfileID>M1</cbc:ProfileID>");
  }, 60_000);

  test("a hybrid PDF to a Factur-X target stays a PDF, its invoice re-wrapped; to an XML target its envelope is an acceptable loss", async () => {
    const pdf = readFileSync(`${CORPUS_DIR}zugferd-corpus/XML-Rechnung/FX/EN16931_AbweichenderZahlungsempf.pdf`);
    const wrapped = await convert(pdf, "targetFormat=zugferd", live, { "content-type": "application/pdf" });
    expect(wrapped.status).toBe(200);
    expect(wrapped.headers.get("content-type")).toBe("application/pdf");
    expect(wrapped.headers.get("x-output-envelope")).toBe("pdf");
    expect(wrapped.headers.get("x-lost-elements")).toBe("[]");
    expect(wrapped.headers.get("x-conversion-tools")!.split(",")).toContain("pdf-rewrap");
    expect(new TextDecoder().decode((await wrapped.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    const extracted = await convert(pdf, "targetFormat=cii", live, { "content-type": "application/pdf" });
    expect(extracted.status).toBe(200);
    expect(extracted.headers.get("x-output-envelope")).toBe("xml");
    expect(JSON.parse(extracted.headers.get("x-lost-elements")!)).toEqual([{ path: "/", value: null, reason: expect.stringContaining("PDF envelope"), severity: "info", acceptableLoss: true }]);
  }, 60_000);

  test("a test key's re-wrapped PDF carries the sandbox mark on every page, beneath the page's own content, and is still a valid hybrid", async () => {
    const pdf = readFileSync(`${CORPUS_DIR}zugferd-corpus/XML-Rechnung/FX/EN16931_AbweichenderZahlungsempf.pdf`);
    const res = await convert(pdf, "targetFormat=facturx", testKey, { "content-type": "application/pdf" });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-validation")).toMatch(/^pass/);
    const file = join(mkdtempSync(join(tmpdir(), "convert-")), "marked.pdf");
    writeFileSync(file, new Uint8Array(await res.arrayBuffer()));
    // The mark is the one text set in our bold face: poppler lists it on every page (rotated text
    // comes out of pdftotext in fragments, so the font is the clearer witness).
    const pages = Number(/Pages:\s+(\d+)/.exec(Bun.spawnSync(["pdfinfo", file]).stdout.toString())?.[1]);
    expect(pages).toBeGreaterThan(1);
    for (let page = 1; page <= pages; page++) expect([page, Bun.spawnSync(["pdffonts", "-f", String(page), "-l", String(page), file]).stdout.toString()]).toEqual([page, expect.stringMatching(/\+DejaVuSans-Bold/)]);
  }, 60_000);

  test("a FatturaPA source is 422 CONVERSION_UNSUPPORTED_PAIR naming both formats", async () => {
    const dir = `${CORPUS_DIR}fatturapa-testsdi/`;
    const files = readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith(".xml"));
    const invoiceFile = files.find((f) => detect(readFileSync(dir + f)).format === "fatturapa")!;
    const res = await convert(readFileSync(dir + invoiceFile), "targetFormat=ubl");
    expect(res.status).toBe(422);
    expect((await envelope(res)).error).toMatchObject({ code: "CONVERSION_UNSUPPORTED_PAIR", details: { sourceFormat: "fatturapa", targetFormat: "ubl" } });
  });

  test("a missing targetFormat, or one outside the list, is 400 VALIDATION_ERROR naming it", async () => {
    for (const query of ["", "targetFormat=fatturapa"]) {
      const res = await convert(written({ standard: "xrechnung" }), query);
      expect(res.status).toBe(400);
      const { error } = await envelope(res);
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(JSON.stringify(error.details.fields)).toContain("targetFormat");
    }
  });

  test("a sourceFormat the document contradicts is 422 VALIDATION_ERROR saying what the document is", async () => {
    const res = await convert(written({ standard: "xrechnung", syntax: "cii" }), "sourceFormat=peppol-bis&targetFormat=ubl");
    expect(res.status).toBe(422);
    expect((await envelope(res)).error.message).toContain("the document is xrechnung (CII)");
  });

  test("CII to a Factur-X target: the id rewritten, the level in x-version-block; a test key's output is marked", async () => {
    const res = await convert(written({ standard: "xrechnung", syntax: "cii" }), "targetFormat=facturx&targetProfile=extended", testKey);
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toContain("urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended");
    expect(xml).toContain(TEST_MODE_COMMENT);
    expect(JSON.parse(res.headers.get("x-version-block")!)).toMatchObject({ facturxProfile: "extended" });
  }, 60_000);
});
