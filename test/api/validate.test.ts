import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { envelope, startHarness, startValidatingHarness } from "../support/harness";
import { CORPUS_DIR, corpusMissing } from "../support/corpus";
import { quotaStatus } from "../../src/accounts/quota";
import { rulesetSha256, sha256Hex } from "../../src/rulesets/seal";
import { EngineUnavailable } from "../../src/engine/admission";
import { cannotRun } from "../support/requirements";

const noCorpus = cannotRun("POST /v1/validate on corpus documents", corpusMissing);

const h = startValidatingHarness();
const org = await h.org("validator", "scale");
const key = await h.key(org, "live");

const XRECHNUNG_UBL = "xrechnung-testsuite/src/test/business-cases/standard/01.01a-INVOICE_ubl.xml";
const corpus = (path: string) => readFileSync(CORPUS_DIR + path);
const validate = (body: BodyInit, contentType = "application/xml", query = "") =>
  h.post(`/v1/validate${query}`, body, { authorization: `Bearer ${key}`, "content-type": contentType });

describe.skipIf(noCorpus)("POST /v1/validate", () => {
  test("an official XRechnung invoice passes, with the result headers and a seal anyone can verify", async () => {
    const bytes = corpus(XRECHNUNG_UBL);
    const res = await validate(bytes);
    expect(res.status).toBe(200);
    const { data } = await envelope(res);
    expect(data).toMatchObject({ valid: true, format: "ubl", profileDetected: "xrechnung", errors: [] });
    expect(data.sha256).toBe(sha256Hex(bytes));
    expect(data.rulesetArtifacts.map((r: { key: string }) => r.key)).toEqual(["ubl_xsd", "xrechnung_severity_overrides", "en16931_ubl_schematron", "xrechnung_schematron"]);
    expect(data.schematronVersion).toBe("1.3.16");
    expect(data.ciusVersion).toBe("2.5.0");
    // The seal recomputes from its rows, and every row is in the public catalogue.
    expect(rulesetSha256(data.rulesetArtifacts)).toBe(data.rulesetSha256);
    const catalogue = (await envelope(await fetch(h.base + "/v1/rulesets"))).data;
    // Rows match the catalogue on key, version and hash (the spec's recipe); `engine` says what ran each.
    for (const { key, version, fileSha256 } of data.rulesetArtifacts) expect(catalogue.artifacts).toContainEqual({ key, version, fileSha256 });
    expect(data.rulesetArtifacts.map((r: { engine: string }) => r.engine)).toEqual(["libxml2-wasm", "native", "native", "native"]);
    expect(res.headers.get("x-syntax")).toBe("ubl");
    expect(res.headers.get("x-profile-detected")).toBe("xrechnung");
    expect(res.headers.get("x-schematron-version")).toBe("1.3.16");
    expect(res.headers.get("x-ruleset-sha256")).toBe(data.rulesetSha256);
    expect(JSON.parse(res.headers.get("x-ruleset-artifacts")!)).toEqual(data.rulesetArtifacts);
    expect(res.headers.get("x-validation")).toMatch(/^pass; 0 errors, \d+ warnings?$/);
  }, 60_000);

  test("an invalid document is a 200 verdict with rule findings, and costs one unit", async () => {
    const before = (await quotaStatus(h.storage, h.clock.now, org, true)).used;
    const broken = new TextDecoder().decode(corpus(XRECHNUNG_UBL)).replace(/<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, "");
    const res = await validate(broken);
    expect(res.status).toBe(200);
    const { data } = await envelope(res);
    expect(data.valid).toBe(false);
    expect(data.errors.length).toBeGreaterThan(0);
    for (const f of data.errors) {
      expect(["fatal", "error"]).toContain(f.severity);
      expect(f.ruleId).toBeString();
      expect(f.message).toBeString();
    }
    expect(res.headers.get("x-validation")).toMatch(/^fail; \d+ errors?, /);
    expect((await quotaStatus(h.storage, h.clock.now, org, true)).used).toBe(before + 1);
  }, 60_000);

  test("a hybrid PDF is judged through its embedded XML; the seal hashes the PDF bytes", async () => {
    const pdf = corpus("mustangproject/validator/src/test/resources/zugferd_2p1_EXTENDED_PDFA-3A.pdf");
    const res = await validate(pdf, "application/pdf");
    expect(res.status).toBe(200);
    const { data } = await envelope(res);
    expect(data.format).toBe("cii");
    expect(data.profileDetected).toBe("facturx:extended");
    expect(data.rulesetArtifacts.map((r: { key: string }) => r.key)).toEqual(["cii_xsd_d22b", "facturx_schematron"]);
    expect(data.valid).toBe(true);
    expect(data.sha256).toBe(sha256Hex(pdf));
  }, 60_000);

  test("validations run off the request thread: GET /v1/me answers while they are in flight", async () => {
    const pdf = corpus("mustangproject/validator/src/test/resources/zugferd_2p1_EXTENDED_PDFA-3A.pdf");
    // Eight hybrid PDFs on two workers take several rounds; /v1/me answers before the last is done.
    let done = 0;
    const validations = Array.from({ length: 8 }, () => validate(pdf, "application/pdf").then(() => done++));
    await Bun.sleep(10);
    const me = await h.get("/v1/me", key);
    const doneWhenMeAnswered = done;
    expect(me.status).toBe(200);
    await Promise.all(validations);
    expect(doneWhenMeAnswered).toBeLessThan(8);
  }, 120_000);

  test("XSD-only formats name their schema bundle and use the XSD rule id", async () => {
    const xml = new TextDecoder().decode(corpus("gobl-facturae/test/data/out/invoice-face.xml"));
    const ok = await envelope(await validate(xml));
    expect(ok.data).toMatchObject({ valid: true, format: "facturae", profileDetected: "spain-facturae-v3-2-2" });
    expect(ok.data.spainFacturaeXsdBundle).toBe("facturae_xsd@3.2.2");
    expect(ok.data.spainFacturaeRuntimeVersion).toStartWith("libxml2-wasm");
    expect(ok.data.schematronVersion).toBeUndefined();
    const bad = await envelope(await validate(xml.replace(/<InvoiceNumber>/, "<Bogus>x</Bogus><InvoiceNumber>")));
    expect(bad.data.valid).toBe(false);
    expect(bad.data.errors[0].ruleId).toBe("XSD");
  }, 60_000);
});

describe.skipIf(noCorpus)("?layers=true", () => {
  test("adds what each layer did, in the order it ran; without it the result is the spec's, and the verdict is the same", async () => {
    const bytes = corpus(XRECHNUNG_UBL);
    const plain = (await envelope(await validate(bytes))).data;
    expect(plain.layers).toBeUndefined();
    const res = await validate(bytes, "application/xml", "?layers=true");
    expect(res.status).toBe(200);
    const { data } = await envelope(res);
    const { layers, ...verdict } = data;
    expect(verdict).toEqual(plain);
    expect(layers.map((l: { layer: string; status: string }) => `${l.layer} ${l.status}`)).toEqual([
      "source skipped",
      "xsd ran",
      "severities ran",
      "rules ran",
      "rules ran",
      "advisory ran",
      "container skipped",
    ]);
    expect(layers[2]).toMatchObject({ name: "scenarios.xml", artifact: { key: "xrechnung_severity_overrides", version: "2026-01-31" }, engine: "native" });
    expect(layers[4]).toMatchObject({ name: "schematron/ubl/XRechnung-UBL-validation.xsl", artifact: { key: "xrechnung_schematron", version: "2.5.0" }, engine: "native" });
    expect((await validate(bytes, "application/xml", "?layers=false").then(envelope)).data.layers).toBeUndefined();
    expect((await validate(bytes, "application/xml", "?layers=yes")).status).toBe(400);
  }, 60_000);
});

describe.skipIf(noCorpus)("format hint", () => {
  test("a matching hint judges as detected; a hint outside the enum is a 400 with details.fields", async () => {
    const hinted = await envelope(await validate(corpus(XRECHNUNG_UBL), "application/xml", "?format=ubl"));
    expect(hinted.data).toMatchObject({ valid: true, format: "ubl", profileDetected: "xrechnung" });
    const bad = await validate(corpus(XRECHNUNG_UBL), "application/xml", "?format=json");
    expect(bad.status).toBe(400);
    expect((await envelope(bad)).error.details.fields).toContainEqual(expect.objectContaining({ path: "/format", keyword: "anyOf" }));
  }, 60_000);

  test("a hint naming another syntax is honoured: the document is not judged as what it is not", async () => {
    const { data } = await envelope(await validate(corpus(XRECHNUNG_UBL), "application/xml", "?format=fatturapa"));
    expect(data.valid).toBe(false);
    expect(data.format).toBe("fatturapa");
  }, 60_000);
});

describe("POST /v1/validate: what is not an invoice", () => {
  test("a document in no recognised syntax is a 200 with one fatal UNSUPPORTED_FORMAT finding", async () => {
    const res = await validate("<note><to>someone</to></note>");
    expect(res.status).toBe(200);
    const body = await envelope(res);
    expect(body.success).toBe(true);
    expect(body.error).toBeUndefined();
    expect(body.data).toMatchObject({ valid: false, format: "unknown", warnings: [] });
    expect(body.data.errors).toEqual([expect.objectContaining({ ruleId: "UNSUPPORTED_FORMAT", severity: "fatal" })]);
    expect(body.data.rulesetSha256).toBeUndefined();
  });

  test("an empty body, a JSON body and a PDF without invoice XML are refused with VALIDATION_ERROR", async () => {
    const empty = await validate("");
    expect(empty.status).toBe(400);
    expect((await envelope(empty)).error.code).toBe("VALIDATION_ERROR");
    const json = await validate("{}", "application/json");
    expect(json.status).toBe(415);
    const bare = await validate(minimalPdf() as BodyInit, "application/pdf");
    expect(bare.status).toBe(400);
    expect((await envelope(bare)).error.message).toContain("factur-x.xml");
    const truncated = await validate(minimalPdf().slice(0, 40) as BodyInit, "application/octet-stream");
    expect(truncated.status).toBe(400);
  });
});

describe("hostile XML", () => {
  test("DOCTYPEs, entity expansion and external entities are refused, not expanded or fetched", async () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&lol2;</ID></Invoice>`;
    const external = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&xxe;</ID></Invoice>`;
    for (const xml of [laughs, external]) {
      const { data } = await envelope(await validate(xml));
      expect(data.valid).toBe(false);
      expect(data.errors[0]).toMatchObject({ ruleId: "XML_REFUSED", severity: "fatal" });
      expect(JSON.stringify(data)).not.toContain("root:");
    }
  });

  test("not-well-formed XML gets a fatal finding", async () => {
    const { data } = await envelope(await validate(`<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>1</Invoice>`));
    expect(data.valid).toBe(false);
    expect(data.errors[0]).toMatchObject({ ruleId: "XML_MALFORMED", severity: "fatal" });
  });

  test("a 1 MB body of deeply nested elements is answered and the service keeps serving", async () => {
    const open = "<a>".repeat(130_000);
    const xml = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">${open}${"</a>".repeat(130_000)}</Invoice>`.slice(0, 1024 * 1024);
    const res = await validate(xml);
    expect(res.status).toBe(200);
    expect((await envelope(res)).data.valid).toBe(false);
    expect((await h.get("/v1/me", key)).status).toBe(200);
  }, 60_000);
});

describe("a layer that cannot run", () => {
  test("is 503 ENGINE_UNAVAILABLE with a refund, never a verdict", async () => {
    const broken = startHarness();
    const brokenOrg = await broken.org("broken", "starter");
    const brokenKey = await broken.key(brokenOrg, "live");
    broken.deps.workers = () =>
      ({ validate: async () => Promise.reject(new EngineUnavailable("a validation layer could not run: no compiled stylesheet", true, 5)) }) as never;
    try {
      const res = await broken.post("/v1/validate", "<x/>", { authorization: `Bearer ${brokenKey}`, "content-type": "application/xml" });
      expect(res.status).toBe(503);
      const body = await envelope(res);
      expect(body.error.code).toBe("ENGINE_UNAVAILABLE");
      expect(body.error.incidentId).toBeString();
      expect(res.headers.get("x-service-quota-refunded")).toBe("true");
      expect(res.headers.get("retry-after")).toBe("5");
      expect((await quotaStatus(broken.storage, broken.clock.now, brokenOrg, true)).used).toBe(0);
    } finally {
      broken.close();
    }
  });
});

describe("GET /v1/rulesets", () => {
  test("is keyless, cacheable, and lists families, channels and every sealable artifact", async () => {
    const res = await fetch(h.base + "/v1/rulesets");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("x-ratelimit-limit")).toBe("120");
    const { data } = await envelope(res);
    expect(Object.keys(data)).toEqual(["rulesets", "channels", "scheduledChanges", "artifacts"]);
    expect(data.channels.map((c: { id: string }) => c.id)).toEqual(["latest", "previous"]);
    for (const row of data.rulesets) {
      expect(Object.keys(row)).toEqual([
        "format", "label", "standard", "authority", "region", "specVersion", "rulesetVersion", "rulesetArtefact", "versionKey",
        "verificationTier", "rulesProvenance", "verificationBadge", "releaseDate", "repo", "tag", "retained",
      ]);
      expect(data.artifacts.some((a: { key: string; version: string }) => a.key === row.versionKey && a.version === row.rulesetVersion)).toBe(true);
    }
    const fatturapa = data.rulesets.find((r: { format: string }) => r.format === "fatturapa");
    expect(fatturapa).toMatchObject({ verificationTier: "xsd-structural", verificationBadge: "structure-checked" });
    for (const a of data.artifacts) expect(a.fileSha256).toMatch(/^[0-9a-f]{64}$/);
    // A key with a previous release lists both versions, each with its own hash.
    expect(data.artifacts.filter((a: { key: string }) => a.key === "en16931_ubl_schematron").map((a: { version: string }) => a.version).sort()).toEqual(["1.3.15", "1.3.16"]);
  });
});

/** A valid one-page PDF with no attachments, written by hand so the test needs no fixture. */
function minimalPdf(): Uint8Array {
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"];
  let out = "%PDF-1.7\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}
