// Parse and generate run in engine workers, generate as one job that asks the HTTP thread to spend
// its unit once its refusals have passed. What the caller sees and pays stays as it was: a refusal
// of the caller's document or request comes back with its status, code, message and details (parse
// keeps the unit, generate never spent one), and an engine failure is a 503 that returns the unit
// if one was spent.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Organization } from "../../src/accounts/orgs";
import { envelope, startHarness, startValidatingHarness } from "../support/harness";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";
import { quotaStatus, spendUnit } from "../../src/accounts/quota";
import { WorkerPool } from "../../src/workers/pool";
import type { UnitAnswer, WorkerRequest } from "../../src/workers/protocol";

const invoice = SCENARIOS[0].build(LOCALES.de);

describe("with scripted workers", () => {
  const h = startHarness({ config: { requestDeadlineMs: 500 } });
  const pool = new WorkerPool(1, { warm: [], createWorker: () => new Worker(new URL("../workers/scripted-worker.ts", import.meta.url).href) });
  h.deps.workers = () => pool;
  afterAll(() => {
    pool.close();
    h.close();
  });
  let org: Organization;
  let key: string;
  beforeAll(async () => {
    org = await h.org("scripted", "scale");
    key = await h.key(org, "live");
  });
  const used = async () => (await quotaStatus(h.storage, h.clock.now, org, true)).used;
  const parse = (command: string) => h.post("/v1/parse", command, { authorization: `Bearer ${key}`, "content-type": "application/xml" });
  const generate = (note: string) =>
    h.post("/v1/generate", JSON.stringify({ standard: "xrechnung", output: "xml", invoice: { ...invoice, note } }), { authorization: `Bearer ${key}`, "content-type": "application/json" });

  test("parse: the worker's refusal is the caller's 400 PARSE_FAILED, as raised, and keeps the unit", async () => {
    const before = await used();
    const res = await parse("refuse");
    expect(res.status).toBe(400);
    expect((await envelope(res)).error).toMatchObject({ code: "PARSE_FAILED", message: "the document cannot be read: scripted", details: { format: "ubl" } });
    expect(res.headers.get("x-service-quota-refunded")).toBeNull();
    expect(await used()).toBe(before + 1);
  });

  for (const command of ["exit", "fault", "spin"]) {
    test(`parse: a worker that fails (${command}) is 503 ENGINE_UNAVAILABLE and the unit comes back`, async () => {
      const before = await used();
      const res = await parse(command);
      expect(res.status).toBe(503);
      expect((await envelope(res)).error.code).toBe("ENGINE_UNAVAILABLE");
      expect(res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      expect(res.headers.get("x-service-quota-refunded")).toBe("true");
      expect(await used()).toBe(before);
    });
  }

  for (const note of ["exit", "spin"]) {
    test(`generate: a worker that fails (${note}) while writing the XML is 503 and spent nothing`, async () => {
      const before = await used();
      const res = await generate(note);
      expect(res.status).toBe(503);
      const { error } = await envelope(res);
      expect(error.code).toBe("ENGINE_UNAVAILABLE");
      expect(error.message).toContain("no quota unit was spent");
      expect(res.headers.get("x-service-quota-refunded")).toBeNull();
      expect(await used()).toBe(before);
    });
  }

  for (const note of ["ok/exit", "ok/spin"]) {
    test(`generate: a worker that fails (${note}) after the unit was spent is 503 and the unit comes back`, async () => {
      const before = await used();
      const res = await generate(note);
      expect(res.status).toBe(503);
      const { error } = await envelope(res);
      expect(error.code).toBe("ENGINE_UNAVAILABLE");
      expect(error.message).toContain("your quota unit was returned");
      expect(res.headers.get("x-service-quota-refunded")).toBe("true");
      expect(await used()).toBe(before);
    });
  }

  test("generate with the quota used up: a refusal is still answered for free, a request that passes them is 429", async () => {
    const spent = await h.org("spent", "free");
    const spentKey = await h.key(spent, "live");
    for (let i = 0; i < 20; i++) await spendUnit(h.storage, h.clock.now, spent, true);
    const send = (note: string) =>
      h.post("/v1/generate", JSON.stringify({ standard: "xrechnung", output: "xml", invoice: { ...invoice, note } }), { authorization: `Bearer ${spentKey}`, "content-type": "application/json" });
    const refused = await send("refuse");
    expect(refused.status).toBe(400);
    expect((await envelope(refused)).error.code).toBe("PARSE_FAILED");
    const over = await send("ok");
    expect(over.status).toBe(429);
    expect((await envelope(over)).error).toMatchObject({ code: "QUOTA_EXCEEDED", message: expect.stringContaining("20 of 20") });
    expect(over.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(over.headers.get("x-service-quota-refunded")).toBeNull();
    expect((await quotaStatus(h.storage, h.clock.now, spent, true)).used).toBe(20);
  });

  test("after all that, the engine is whole", async () => {
    expect(h.deps.admission.stats).toMatchObject({ running: 0, queued: 0 });
    expect((await parse("ok")).status).toBe(200);
  });
});

describe("with the real workers", () => {
  const h = startValidatingHarness();
  let org: Organization;
  let key: string;
  beforeAll(async () => {
    org = await h.org("refused", "scale");
    key = await h.key(org, "live");
  });
  const used = async () => (await quotaStatus(h.storage, h.clock.now, org, true)).used;
  const generate = (body: object) => h.post("/v1/generate", JSON.stringify({ invoice, ...body }), { authorization: `Bearer ${key}`, "content-type": "application/json" });

  test("generate crosses to a worker once: a hybrid PDF is written, drawn and judged in one job", async () => {
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
      const res = await generate({ standard: "zugferd", output: "pdf" });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-pdf-kind")).toBe("hybrid");
      expect(res.headers.get("x-validation")).toStartWith("pass");
      // The job, and the answer to its ask for the unit.
      expect(sent).toEqual(["generate", "unit"]);
    } finally {
      h.deps.workers = shared;
      pool.close();
    }
  }, 60_000);

  test("generate's refusals from the worker keep their status, code and details and cost nothing", async () => {
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const { data } = await envelope(await h.post("/v1/pdf-templates", JSON.stringify({ name: "Brand", definition: { accentColor: "#1F4E79" } }), headers));
    h.storage.sqlite.run("UPDATE pdf_templates SET definition = ? WHERE ref = ?", ['{"accentColor": 42}', data.ref]);
    const before = await used();
    const refusals = [
      { body: { standard: "xrechnung", profile: "peppol", output: "xml" }, status: 422, code: "PROFILE_STANDARD_MISMATCH" },
      { body: { standard: "xrechnung", output: "pdf" }, status: 400, code: "VALIDATION_ERROR" },
      { body: { standard: "zugferd", output: "pdf", pdfTemplateId: data.ref }, status: 422, code: "PDF_TEMPLATE_INVALID" },
    ];
    for (const { body, status, code } of refusals) {
      const res = await generate(body);
      expect(res.status).toBe(status);
      const { error } = await envelope(res);
      expect(error.code).toBe(code);
      expect(error.details).toBeDefined();
      expect(res.headers.get("x-service-quota-refunded")).toBeNull();
    }
    expect(await used()).toBe(before);
  }, 60_000);

  test("issue 14's wedge: documents cut off at the deadline, then small validations while their workers reload; later requests are served again", async () => {
    const attacker = await h.key(await h.org("attacker", "scale"), "live");
    const victim = await h.key(await h.org("victim", "scale"), "live");
    const validate = (xml: string, who: string) => h.post("/v1/validate", xml, { authorization: `Bearer ${who}`, "content-type": "application/xml" });
    const small = await (await generate({ standard: "xrechnung", syntax: "ubl", output: "xml" })).text();
    const line = small.match(/<cac:InvoiceLine>[\s\S]*?<\/cac:InvoiceLine>/)![0];
    const large = small.replace(line, line.repeat(Math.floor(1_000_000 / line.length)));
    const deadline = h.deps.config.requestDeadlineMs;
    // A deadline shorter than a worker takes to load: every job below runs into it, the later ones
    // while waiting for the replacements of the workers the first ones took down. It is a quarter of
    // the fastest of three side-by-side runs of the two large documents on warm workers (and at most
    // 150 ms), so that both are cut off on a fast machine too, and a run slowed by something else on
    // the machine cannot stretch the deadline past what the next run takes.
    const sideBySide = async () => {
      const started = performance.now();
      const answers = await Promise.all([validate(large, attacker), validate(large, attacker)]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      return performance.now() - started;
    };
    await sideBySide();
    const fastest = Math.min(await sideBySide(), await sideBySide(), await sideBySide());
    h.deps.config.requestDeadlineMs = Math.min(150, Math.round(fastest / 4));
    try {
      expect((await Promise.all([validate(large, attacker), validate(large, attacker)])).map((r) => r.status)).toEqual([503, 503]);
      await Bun.sleep(100);
      expect((await Promise.all(Array.from({ length: 5 }, () => validate(small, victim)))).map((r) => r.status)).toEqual([503, 503, 503, 503, 503]);
    } finally {
      h.deps.config.requestDeadlineMs = deadline;
    }
    const later = await Promise.all(Array.from({ length: 3 }, () => validate(small, victim)));
    expect(later.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(h.deps.admission.stats).toMatchObject({ running: 0, queued: 0 });
  }, 120_000);

  test("parse's refusal carries the format it found", async () => {
    const fattura = `<?xml version="1.0"?><p:FatturaElettronica versione="FPR12" xmlns:p="http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2"/>`;
    const before = await used();
    const res = await h.post("/v1/parse", fattura, { authorization: `Bearer ${key}`, "content-type": "application/xml" });
    expect(res.status).toBe(400);
    expect((await envelope(res)).error).toMatchObject({ code: "PARSE_FAILED", message: expect.stringContaining("FatturaPA"), details: { format: "fatturapa" } });
    expect(await used()).toBe(before + 1);
  }, 60_000);
});
