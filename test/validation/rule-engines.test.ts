// Which engine judges which rule file, and what a verdict says about it: the native engine where the
// bundle carries a plan, SaxonJS where it does not or when VALIDATION_ENGINE=saxonjs forces it; the
// engine is named on each rulesetArtifacts row and never changes the seal; a native defect falls
// back to SaxonJS for that document instead of costing a verdict.
import { afterEach, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { rulesetBundle } from "../../src/assets/bundle";
import { bundledEntries } from "../../src/assets/bundled-entries";
import { createEngine } from "../../src/validation/engine";
import { DEFAULT_REQUEST } from "../../src/rulesets/selection";
import { NativeSchematron } from "../../src/validation/schematron-native";
import { ruleEngineChoice } from "../../src/config";
import { validateDocument, type Engine, type LayerResult } from "../../src/validation/validate";
import type { ValidationFinding, ValidationResult } from "../../src/validation/result";
import { corpusFile, corpusMissing, corpusRows } from "../support/corpus";
import { cannotRun } from "../support/requirements";

const noCorpus = cannotRun("rule engines on corpus documents", corpusMissing);

let native: Engine;
let saxonjs: Engine;
beforeAll(() => {
  native = createEngine(rulesetBundle(), "native");
  saxonjs = createEngine(rulesetBundle(), "saxonjs");
});

async function judged(engine: Engine, bytes: Uint8Array): Promise<{ result: ValidationResult; layers: LayerResult[] }> {
  const outcome = await validateDocument(engine, { bytes, ruleset: { request: DEFAULT_REQUEST, day: "2026-11-22" } });
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome;
}

const judge = async (engine: Engine, bytes: Uint8Array): Promise<ValidationResult> => (await judged(engine, bytes)).result;

/** The layers that ran a rule file (the severities layer's scenario match is always native XPath). */
const ruleLayers = (layers: readonly LayerResult[]) => layers.filter((l) => (l.layer === "rules" || l.layer === "overlay") && l.status !== "skipped");

/** A stopped rule file names the same error code on both engines; the description after it is each engine's own. */
function comparable(findings: ValidationFinding[]): ValidationFinding[] {
  return findings.map((f) => (f.ruleId === "RULE_FILE_STOPPED" ? { ...f, message: f.message.replace(/(: [A-Z]{4}\d{4}): .*$/, "$1") } : f));
}

/** One document of each profile whose rule files the native engine runs today. */
function documentsJudgedNatively(): { path: string; bytes: Uint8Array }[] {
  const byProfile = new Map<string, { path: string; bytes: Uint8Array }>();
  for (const row of corpusRows()) {
    if ((row.syntax !== "ubl" && row.syntax !== "cii") || byProfile.has(`${row.profile}:${row.syntax}:${row.expectedValid}`)) continue;
    const bytes = corpusFile(row);
    if (bytes) byProfile.set(`${row.profile}:${row.syntax}:${row.expectedValid}`, { path: row.path, bytes });
  }
  return [...byProfile.values()];
}

describe("VALIDATION_ENGINE", () => {
  test("defaults to native, accepts saxonjs, and refuses anything else with a message naming the values", () => {
    expect(ruleEngineChoice(undefined)).toBe("native");
    expect(ruleEngineChoice("")).toBe("native");
    expect(ruleEngineChoice("native")).toBe("native");
    expect(ruleEngineChoice("saxonjs")).toBe("saxonjs");
    expect(() => ruleEngineChoice("saxon")).toThrow(/VALIDATION_ENGINE must be "native" or "saxonjs"/);
  });
});

describe.skipIf(noCorpus)("verdicts name the engine per rule file", () => {
  afterEach(() => {
    // Restores the spy of the fallback test even when it fails.
    (NativeSchematron.prototype.run as { mockRestore?: () => void }).mockRestore?.();
  });

  test("each rule file runs natively exactly when the bundle carries its plan; forced SaxonJS gives the same findings and seal", async () => {
    const entries = bundledEntries(rulesetBundle());
    const documents = documentsJudgedNatively();
    expect(documents.length).toBeGreaterThan(10);
    let nativeRows = 0;
    for (const { path, bytes } of documents) {
      const { result: a, layers } = await judged(native, bytes);
      const { result: b, layers: forced } = await judged(saxonjs, bytes);
      // A rule layer names its compiled rule file: the entry at `<key>/<version>/<name>`.
      for (const layer of ruleLayers(layers)) {
        const entry = entries.get(`${layer.artifact!.key}/${layer.artifact!.version}/${layer.name}`);
        expect({ path, engine: layer.engine }).toEqual({ path, engine: entry && "model" in entry.native ? "native" : "saxonjs" });
        if (layer.engine === "native") nativeRows++;
      }
      expect(ruleLayers(forced).every((layer) => layer.engine === "saxonjs")).toBe(true);
      expect({ path, seal: a.rulesetSha256, valid: a.valid, errors: comparable(a.errors), warnings: a.warnings }).toEqual({
        path,
        seal: b.rulesetSha256,
        valid: b.valid,
        errors: comparable(b.errors),
        warnings: b.warnings,
      });
    }
    expect(nativeRows).toBeGreaterThan(0);
  }, 300_000);

  test("a defect of the native engine costs no verdict: SaxonJS judges that file and the row says so", async () => {
    const peppol = corpusRows().find((row) => row.profile === "peppol" && row.syntax === "ubl" && row.expectedValid === true);
    const bytes = peppol && corpusFile(peppol);
    if (!bytes) throw new Error("no valid Peppol UBL document in the corpus");
    const expected = await judge(native, bytes);
    expect(expected.rulesetArtifacts?.some((row) => row.engine === "native")).toBe(true);
    const spy = spyOn(NativeSchematron.prototype, "run").mockImplementation(() => {
      throw new TypeError("simulated defect");
    });
    const error = spyOn(console, "error").mockImplementation(() => {});
    try {
      const result = await judge(native, bytes);
      expect(result.rulesetArtifacts?.filter((row) => row.engine !== "libxml2-wasm").every((row) => row.engine === "saxonjs")).toBe(true);
      expect({ valid: result.valid, seal: result.rulesetSha256, errors: result.errors }).toEqual({ valid: expected.valid, seal: expected.rulesetSha256, errors: expected.errors });
      expect(error.mock.calls.some((call) => String(call[0]).includes("simulated defect"))).toBe(true);
    } finally {
      spy.mockRestore();
      error.mockRestore();
    }
  }, 120_000);
});

describe.skipIf(noCorpus)("a worker keeps no document between validations", () => {
  test("the tree the layers share is built once per validation and let go when it ends", async () => {
    const row = corpusRows().find((r) => r.profile === "xrechnung" && r.syntax === "ubl" && r.expectedValid === true);
    const bytes = row && corpusFile(row);
    if (!bytes) throw new Error("no valid XRechnung UBL document in the corpus");
    const documents = spyOn(NativeSchematron.prototype, "document");
    const released = spyOn(NativeSchematron.prototype, "release");
    try {
      await judge(native, bytes);
      // Facts and both rule files read one tree; the validation ends by letting it go.
      const trees = new Set(documents.mock.results.map((r) => r.value));
      expect(documents.mock.calls.length).toBeGreaterThanOrEqual(3);
      expect(trees.size).toBe(1);
      expect(released).toHaveBeenCalledTimes(1);
      expect(native.schematron.document(new TextDecoder().decode(bytes))).not.toBe([...trees][0]);
    } finally {
      documents.mockRestore();
      released.mockRestore();
    }
  }, 60_000);
});
