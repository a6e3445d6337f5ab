// A bundle from the default build holds SaxonJS stylesheets only for the rule files the native engine
// has no plan for. A file that must run on SaxonJS without one cannot be judged: the run fails as the
// engine's fault (503 ENGINE_UNAVAILABLE), never as a verdict, and warming the worker does not fail.
import { expect, test } from "bun:test";
import { packBundle, Bundle } from "../../src/assets/bundle-format";
import type { BundledEntry } from "../../src/assets/build-bundle";
import { EngineUnavailable } from "../../src/engine/admission";
import { RuleEngines } from "../../src/validation/rule-engines";
import { RuleFileStopped } from "../../src/schematron/finding";
import { errorOf, failureReply, type WorkerReply } from "../../src/workers/protocol";

const path = "example/1.0/rules.xslt";
const entry: BundledEntry = {
  id: path,
  key: "example",
  version: "1.0",
  path,
  sha256: "0".repeat(64),
  sef: null,
  xslt: `rewritten/${path}`,
  sourceXslt: `files/${path}`,
  rewrites: {},
  codeLists: [],
  cacheKey: "0".repeat(64),
  ruleIds: [],
  native: { refused: "the native engine has no plan for this file" },
};
const bundle = new Bundle(packBundle(new Map([["index.json", new TextEncoder().encode(JSON.stringify({ rewritesVersion: 1, entries: [entry] }))]])));

for (const choice of ["native", "saxonjs"] as const) {
  test(`VALIDATION_ENGINE=${choice}: a rule file without a plan or a stylesheet fails as the engine's fault`, () => {
    const engines = new RuleEngines(bundle, choice);
    expect(engines.engineOf(path)).toBe("saxonjs");
    expect(() => engines.warm(path)).not.toThrow();
    let thrown: unknown;
    try {
      engines.run(path, "<Invoice/>");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown).not.toBeInstanceOf(RuleFileStopped);
    expect((thrown as Error).message).toContain(`SaxonJS cannot run ${path}: the ruleset bundle has no compiled stylesheet`);
    // What the worker's reply becomes on the HTTP thread: the 503 of an engine that could not serve.
    expect(errorOf(failureReply(1, thrown) as Extract<WorkerReply, { ok: false }>)).toBeInstanceOf(EngineUnavailable);
  });
}
