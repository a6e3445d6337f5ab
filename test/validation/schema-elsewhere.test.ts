// A large document's schema checked by another worker while this one runs the rule files ahead of
// their layers (issue 23): the verdict, layer by layer, is the one a single worker gives, whatever
// the other worker answers (the outcome, nothing, a failure), for valid, invalid, schema-invalid
// and malformed documents; the rule files are not run twice; and the pool asks an idle worker.

import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { rulesetBundle } from "../../src/assets/bundle";
import { createEngine } from "../../src/validation/engine";
import { NativeSchematron } from "../../src/validation/schematron-native";
import { validateDocument, type Engine, type SchemaCheckElsewhere, type ValidateOutcome } from "../../src/validation/validate";
import { WorkerPool } from "../../src/workers/pool";
import type { WorkerRequest } from "../../src/workers/protocol";
import { multiplyCiiLines, multiplyLines } from "../../bench/lines";
import { CORPUS_DIR, mirrorMissing } from "../support/corpus";
import { buildMissing, cannotRun } from "../support/requirements";

const STANDARD = `${CORPUS_DIR}xrechnung-testsuite/src/test/business-cases/standard/`;
const ubl = () => readFileSync(`${STANDARD}01.01a-INVOICE_ubl.xml`, "utf8");
const cii = () => readFileSync(`${STANDARD}01.02a-INVOICE_uncefact.xml`, "utf8");

function documents(): [string, string][] {
  const lines = multiplyLines(ubl(), 300);
  return [
    ["typical XRechnung UBL", ubl()],
    ["300-line XRechnung UBL", lines],
    ["200-line XRechnung CII (totals not recomputed: invalid)", multiplyCiiLines(cii(), 200)],
    ["300-line UBL with an element the schema does not allow", lines.replace("<cbc:IssueDate>", "<cbc:Unknown>x</cbc:Unknown><cbc:IssueDate>")],
    ["300-line UBL cut off (malformed)", lines.slice(0, lines.length - 40)],
  ];
}

/** The outcome without timings, which are the only thing allowed to differ. */
function comparable(outcome: ValidateOutcome) {
  if (!outcome.ok) return outcome;
  return { ...outcome, layers: outcome.layers.map((layer) => ({ ...layer, durationMs: 0 })) };
}

describe.skipIf(cannotRun("schema checked elsewhere", buildMissing() ?? mirrorMissing))("a schema checked elsewhere while the rules run ahead", () => {
  let engine: Engine;
  beforeAll(() => {
    engine = createEngine(rulesetBundle());
  });

  const answers: [string, (engine: Engine) => SchemaCheckElsewhere][] = [
    ["the other worker's outcome", (engine) => async (schema, xml) => engine.xsd.validate(schema, xml)],
    ["no other worker", () => async () => null],
    ["a failed check", () => async () => Promise.reject(new Error("the helper died"))],
  ];
  for (const [name, answer] of answers) {
    test(`with ${name}, every verdict and layer is the one a single worker gives`, async () => {
      let statuses = new Set<string>();
      for (const [label, xml] of documents()) {
        const bytes = new TextEncoder().encode(xml);
        const alone = await validateDocument(engine, { bytes });
        const split = await validateDocument(engine, { bytes }, answer(engine));
        expect([label, comparable(split)]).toEqual([label, comparable(alone)]);
        if (alone.ok) statuses.add(`${alone.result.valid} ${alone.layers.find((l) => l.layer === "xsd")!.status}`);
      }
      // Valid and invalid verdicts, and a schema layer that stopped the document.
      expect([...statuses].sort()).toEqual(["false ran", "false stopped", "true ran"]);
    }, 120_000);
  }

  test("the worker does not check the schema itself, and runs each rule file once", async () => {
    const bytes = new TextEncoder().encode(multiplyCiiLines(cii(), 50));
    const checks: string[] = [];
    const validate = engine.xsd.validate;
    const plan = (NativeSchematron.prototype as unknown as { plan: (entry: string) => unknown }).plan;
    const planned: string[] = [];
    (NativeSchematron.prototype as unknown as { plan: (entry: string) => unknown }).plan = function (this: NativeSchematron, entry: string) {
      planned.push(entry);
      return plan.call(this, entry);
    };
    engine.xsd.validate = (schema, xml) => {
      checks.push(schema);
      return validate.call(engine.xsd, schema, xml);
    };
    try {
      const elsewhere: string[] = [];
      const outcome = await validateDocument(engine, { bytes }, async (schema, xml) => {
        elsewhere.push(schema);
        return validate.call(engine.xsd, schema, xml);
      });
      expect(outcome.ok).toBe(true);
      expect([elsewhere, checks]).toEqual([["cii-d16b"], []]);
      // EN 16931 and XRechnung CII, each run once (ahead), though both layers ran.
      expect(planned).toHaveLength(2);
      expect(outcome.ok && outcome.layers.filter((l) => l.layer === "rules").map((l) => l.status)).toEqual(["ran", "ran"]);
    } finally {
      engine.xsd.validate = validate;
      (NativeSchematron.prototype as unknown as { plan: (entry: string) => unknown }).plan = plan;
    }
  }, 60_000);

  test("through the pool, a large document's schema check goes to the idle worker, and the verdict is the single worker's", async () => {
    const bytes = new TextEncoder().encode(multiplyCiiLines(cii(), 300));
    const sent: string[][] = [[], []];
    let started = 0;
    const entry = new URL("../../src/workers/worker-main.ts", import.meta.url).href;
    const pool = new WorkerPool(2, {
      warm: [],
      createWorker: () => {
        const log = sent[started++];
        const worker = new Worker(entry, { smol: true });
        const post = worker.postMessage.bind(worker);
        worker.postMessage = (message: WorkerRequest) => {
          log.push(message.kind);
          post(message);
        };
        return worker;
      },
    });
    try {
      await pool.ready();
      for (const log of sent) log.length = 0; // the warm-ups
      const never = new AbortController().signal;
      const outcome = await pool.validate({ bytes }, never);
      expect(sent).toEqual([["validate", "schema-answer"], ["schema"]]);
      expect(comparable(outcome)).toEqual(comparable(await validateDocument(engine, { bytes })));
      // A small document is checked where it is judged (by whichever worker is not collecting).
      for (const log of sent) log.length = 0;
      await pool.validate({ bytes: new TextEncoder().encode(cii()) }, never);
      expect(sent.flat()).toEqual(["validate"]);
    } finally {
      pool.close();
    }
  }, 120_000);
});
