// The native plans the ruleset bundle carries: every rule entry has a plan or the reason it runs on
// SaxonJS; stored plans compile without the source files and name them relative to the rulesets root;
// a rule set using something the engine does not support is recorded as refused, never half-compiled.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rulesetBundle } from "../../src/assets/bundle";
import { bundledEntries } from "../../src/assets/bundled-entries";
import { buildNativeModel, planOf } from "../../src/native/plans";
import { runPlan } from "../../src/native/engine";

const bundle = rulesetBundle();
const work = mkdtempSync(join(tmpdir(), "native-plans-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("native plans in the ruleset bundle", () => {
  test("every rule entry carries a plan or the reason it has none, without build-machine paths", () => {
    const entries = [...bundledEntries(bundle).values()];
    expect(entries.length).toBeGreaterThan(10);
    for (const entry of entries) {
      if ("model" in entry.native) expect(bundle.has(entry.native.model)).toBe(true);
      else expect(entry.native.refused).toMatch(/^[A-Z]{4}\d{4}: \S/);
      expect(JSON.stringify(entry.native)).not.toContain(process.cwd());
    }
  });

  test("each stored plan compiles whole from the bundle alone, with origins relative to the rulesets root", () => {
    let compiled = 0;
    for (const entry of bundledEntries(bundle).values()) {
      if (!("model" in entry.native)) continue;
      const json = bundle.text(entry.native.model);
      expect(json).not.toContain(process.cwd());
      const origins = [...json.matchAll(/"file":"([^"]*)"/g)].map((m) => m[1]);
      expect(origins.every((file) => file.startsWith(`${entry.key}/${entry.version}/`))).toBe(true);
      planOf(json, entry, (path) => bundle.read(`files/${path}`), { eager: true });
      compiled++;
    }
    expect(compiled).toBeGreaterThan(0);
  });

  test("a rule set calling a function the engine does not know is refused with the reason, and a supported one runs", () => {
    const sch = (test: string) =>
      `<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2"><ns prefix="x" uri="urn:x"/>` +
      `<pattern><rule context="/*"><assert id="R1" test="${test}">root must be named a</assert></rule></pattern></schema>`;
    const dir = join(work, "k", "1");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "bad.sch"), sch("x:unknown(.)"));
    writeFileSync(join(dir, "good.sch"), sch("local-name() = 'a'"));
    const read = () => new Uint8Array();
    const bad = buildNativeModel(work, { id: "k/1/bad.sch", path: "k/1/bad.sch", codeLists: [] }, read);
    expect(bad).toEqual({ availability: { refused: expect.stringMatching(/^XPST0017: .*x:unknown/) } });
    const good = buildNativeModel(work, { id: "k/1/good.sch", path: "k/1/good.sch", codeLists: [] }, read);
    expect(good.availability).toEqual({ source: "schematron", model: "native/k/1/good.sch.json" });
    const plan = planOf(good.json!, { path: "k/1/good.sch", codeLists: [] }, read);
    expect(runPlan(plan, "<a/>")).toEqual([]);
    expect(runPlan(plan, "<b/>").map((f) => f.ruleId)).toEqual(["R1"]);
  });
});
