// POST /v1/receive (preview): validate's verdict, and parse's invoice where parse maps the document,
// from one engine job. What validate refuses, receive refuses the same way; what parse refuses only
// leaves `parse` out.
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Organization } from "../../src/accounts/orgs";
import { envelope, startHarness, startValidatingHarness } from "../support/harness";
import { CORPUS_DIR, corpusMissing } from "../support/corpus";
import { cannotRun } from "../support/requirements";
import { quotaStatus } from "../../src/accounts/quota";
import { sha256Hex } from "../../src/rulesets/seal";
import { WorkerPool } from "../../src/workers/pool";
import { EngineUnavailable } from "../../src/engine/admission";
import type { UnitAnswer, WorkerRequest } from "../../src/workers/protocol";

const noCorpus = cannotRun("POST /v1/receive on corpus documents", corpusMissing);

const XRECHNUNG_UBL = "xrechnung-testsuite/src/test/business-cases/standard/01.01a-INVOICE_ubl.xml";
const ZUGFERD_PDF = "mustangproject/validator/src/test/resources/zugferd_2p1_EXTENDED_PDFA-3A.pdf";
const FATTURAPA = "zugferd-corpus/fatturaPA/official/valid/IT01234567890_FPR01.xml";
const FACTURAE = "gobl-facturae/test/data/out/invoice-face.xml";
const corpus = (path: string) => readFileSync(CORPUS_DIR + path);

const h = startValidatingHarness();
let org: Organization;
let key: string;
beforeAll(async () => {
  org = await h.org("receiver", "scale");
  key = await h.key(org, "live");
});
const used = async (livemode = true) => (await quotaStatus(h.storage, h.clock.now, org, livemode)).used;
const send = (route: "receive" | "validate" | "parse", body: BodyInit, contentType = "application/xml", who = key) =>
  h.post(`/v1/${route}`, body, { authorization: `Bearer ${who}`, "content-type": contentType });
const receive = (body: BodyInit, contentType?: string, who?: string) => send("receive", body, contentType, who);

describe.skipIf(noCorpus)("POST /v1/receive", () => {
  test("a valid XRechnung UBL: validate's verdict and parse's invoice, validate's headers, one unit", async () => {
    const bytes = corpus(XRECHNUNG_UBL);
    const before = await used();
    const res = await receive(bytes);
    expect(res.status).toBe(200);
    expect(await used()).toBe(before + 1);
    const { data } = await envelope(res);
    expect(Object.keys(data)).toEqual(["validationResult", "parse"]);
    expect(data.validationResult).toMatchObject({ valid: true, format: "ubl", profileDetected: "xrechnung", errors: [] });
    expect(data.validationResult.sha256).toBe(sha256Hex(bytes));
    expect(data.parse).toMatchObject({ format: "ubl", profileDetected: "xrechnung", invoice: { number: expect.any(String) } });
    // The same answers the two routes give on their own.
    const validated = await send("validate", bytes);
    expect(data.validationResult).toEqual((await envelope(validated)).data);
    expect(data.parse).toEqual((await envelope(await send("parse", bytes))).data);
    for (const name of ["x-syntax", "x-profile-detected", "x-schematron-version", "x-validation", "x-ruleset-sha256", "x-ruleset-artifacts"]) {
      expect(res.headers.get(name)).toBe(validated.headers.get(name));
    }
    expect(res.headers.get("x-validation")).toStartWith("pass");
  }, 60_000);

  test("an invalid document is a 200 with valid: false, and still parsed", async () => {
    const broken = new TextDecoder().decode(corpus(XRECHNUNG_UBL)).replace(/<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, "");
    const res = await receive(broken);
    expect(res.status).toBe(200);
    const { data } = await envelope(res);
    expect(data.validationResult.valid).toBe(false);
    expect(data.validationResult.errors.map((f: { ruleId: string }) => f.ruleId)).toContain("BR-DE-15");
    expect(data.parse.invoice.buyerReference).toBeUndefined();
    expect(data.parse.invoice.number).toBeString();
    expect(res.headers.get("x-validation")).toStartWith("fail");
  }, 60_000);

  test("a hybrid PDF is judged and read through its embedded XML", async () => {
    const pdf = corpus(ZUGFERD_PDF);
    const { data } = await envelope(await receive(pdf, "application/pdf"));
    expect(data.validationResult).toMatchObject({ valid: true, format: "cii", profileDetected: "facturx:extended", sha256: sha256Hex(pdf) });
    expect(data.parse).toMatchObject({ format: "cii", profileDetected: "facturx:extended" });
  }, 60_000);

  test("FatturaPA and Facturae, which parse does not map: the verdict and no parse", async () => {
    for (const [path, format] of [[FATTURAPA, "fatturapa"], [FACTURAE, "facturae"]]) {
      const res = await receive(corpus(path));
      expect(res.status).toBe(200);
      const { data } = await envelope(res);
      expect(data.validationResult).toMatchObject({ valid: true, format });
      expect(data.parse).toBeUndefined();
      expect(res.headers.get("x-syntax")).toBeNull();
    }
  }, 60_000);

  test("a document parse refuses although its syntax is UBL (no invoice number) keeps its verdict", async () => {
    const unnumbered = new TextDecoder().decode(corpus(XRECHNUNG_UBL)).replace(/<cbc:ID>[^<]*<\/cbc:ID>/, "");
    expect((await send("parse", unnumbered)).status).toBe(400);
    const { data } = await envelope(await receive(unnumbered));
    expect(data.validationResult).toMatchObject({ valid: false, format: "ubl" });
    expect(data.parse).toBeUndefined();
  }, 60_000);

  test("a test key works and is counted against the sandbox, not the live quota", async () => {
    const testKey = await h.key(org, "test");
    const [live, sandbox] = [await used(true), await used(false)];
    const res = await receive(corpus(XRECHNUNG_UBL), "application/xml", testKey);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-livemode")).toBe("false");
    expect((await envelope(res)).data.validationResult.valid).toBe(true);
    expect([await used(true), await used(false)]).toEqual([live, sandbox + 1]);
  }, 60_000);

  test("crosses to a worker once: the receive job and nothing else", async () => {
    const sent: string[] = [];
    const entry = new URL("../../src/workers/worker-main.ts", import.meta.url).href;
    const pool = new WorkerPool(1, {
      warm: [],
      createWorker: () => {
        const worker = new Worker(entry, { smol: true });
        const post = worker.postMessage.bind(worker);
        worker.postMessage = (message: WorkerRequest | UnitAnswer) => {
          sent.push(message.kind);
          post(message);
        };
        return worker;
      },
    });
    await pool.ready();
    const shared = h.deps.workers;
    h.deps.workers = () => pool;
    try {
      sent.length = 0; // the warm-up
      const res = await receive(corpus(XRECHNUNG_UBL));
      expect(res.status).toBe(200);
      expect((await envelope(res)).data.parse).toBeDefined();
      expect(sent).toEqual(["receive"]);
    } finally {
      h.deps.workers = shared;
      pool.close();
    }
  }, 60_000);
});

describe("POST /v1/receive: what validate refuses or finds", () => {
  test("malformed XML gets validate's answer, and no parse", async () => {
    const xml = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>1</Invoice>`;
    const res = await receive(xml);
    expect(res.status).toBe(200);
    const { data } = await envelope(res);
    expect(data.validationResult).toEqual((await envelope(await send("validate", xml))).data);
    expect(data.validationResult.errors[0]).toMatchObject({ ruleId: "XML_MALFORMED", severity: "fatal" });
    expect(data.parse).toBeUndefined();
  }, 60_000);

  test("an empty body is 400, a JSON body 415, a body over 1 MB 413, each as on validate; empty and oversize cost nothing", async () => {
    const before = await used();
    const cases: [BodyInit, string, number][] = [
      ["", "application/xml", 400],
      ["{}", "application/json", 415],
      ["<a/>".padEnd(1024 * 1024 + 1, " "), "application/xml", 413],
    ];
    for (const [body, contentType, status] of cases) {
      const received = await receive(body, contentType);
      const validated = await send("validate", body, contentType);
      expect([received.status, validated.status]).toEqual([status, status]);
      expect((await envelope(received)).error.code).toBe((await envelope(validated)).error.code);
    }
    expect(await used()).toBe(before);
  });

  test("a PDF that is not a hybrid invoice is refused as on validate", async () => {
    const notHybrid = new TextEncoder().encode("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");
    const received = await receive(notHybrid, "application/pdf");
    const validated = await send("validate", notHybrid, "application/pdf");
    expect(received.status).toBe(400);
    expect(validated.status).toBe(400);
    expect((await envelope(received)).error.code).toBe((await envelope(validated)).error.code);
  }, 60_000);

  test("is keyed", async () => {
    const res = await h.post("/v1/receive", "<a/>", { "content-type": "application/xml" });
    expect(res.status).toBe(401);
  });
});

describe("a receive job the engine cannot run", () => {
  test("is 503 ENGINE_UNAVAILABLE with the unit returned, as on validate", async () => {
    const broken = startHarness();
    const brokenOrg = await broken.org("broken", "starter");
    const brokenKey = await broken.key(brokenOrg, "live");
    broken.deps.workers = () => ({ receive: async () => Promise.reject(new EngineUnavailable("a validation layer could not run", true, 5)) }) as never;
    try {
      const res = await broken.post("/v1/receive", "<x/>", { authorization: `Bearer ${brokenKey}`, "content-type": "application/xml" });
      expect(res.status).toBe(503);
      expect((await envelope(res)).error.code).toBe("ENGINE_UNAVAILABLE");
      expect(res.headers.get("x-service-quota-refunded")).toBe("true");
      expect((await quotaStatus(broken.storage, broken.clock.now, brokenOrg, true)).used).toBe(0);
    } finally {
      broken.close();
    }
  });
});
