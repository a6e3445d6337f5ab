// The service's schematron findings, document by document, against Saxon-HE (the authorities'
// engine) running the ORIGINAL stylesheets: the pinned authority XSLT, or for .sch entries the
// XSLT our compiler generated (the only XSLT there is). The service runs rewritten copies on
// SaxonJS; any difference left here is a SaxonJS or rewrite difference. One JVM per stylesheet.

import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { extractInvoiceXml } from "../../src/pdf/attachments";
import { readIndex } from "../../src/rulesets/compile";
import { pinByPath } from "../../src/rulesets/pins";
import { ruleEntryId } from "../../src/rulesets/rule-entries";
import { RulesetLifecycle } from "../../src/rulesets/lifecycle";

/** The versions a request of today runs, as the engine pass ran them. */
const latestVersion = (key: string) => new RulesetLifecycle().latest(key, new Date().toISOString().slice(0, 10)).version;
import { buildDir, filesDir } from "../../src/rulesets/sync";
import { RECORDS } from "../../src/profiles/catalogue";
import type { Severity, ValidationFinding, ValidationResult } from "../../src/validation/result";
import { readScenarios, scenarioFor, type Scenario } from "../../src/validation/kosit-scenarios";
import { readXml } from "../../src/native/xml-reader";
import type { LayerResult } from "../../src/validation/validate";
import { parseSvrl } from "../../src/validation/svrl";
import { findingOf } from "../../src/validation/layers/rules";
import { isPdf } from "../../src/pdf/sniff";
import { buildMissing, cannotRun } from "../support/requirements";
import { runSaxonHe, saxonHeUnavailable, type SaxonResult } from "../support/saxon-he";
import { saxonHeReference } from "../native/saxon-he-reference";
import { allRows, CORPUS, corpusUnavailable } from "./corpus";
import { enginePass } from "./engine-pass";

const skip = cannotRun("Saxon-HE differential", corpusUnavailable() ?? saxonHeUnavailable() ?? buildMissing());

const work = mkdtempSync(join(tmpdir(), "saxon-he-differential-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * Stylesheets the Saxon-HE at hand cannot compile, so their documents cannot be compared here
 * (a newer Saxon-HE may compile them; then they are compared like the rest). Empty: the France CTC
 * UBL Flux2 files, whose XSLT 3.0 match pattern Saxon-HE 9.9 cannot compile, run as the copy
 * test/native/saxon-he-reference.ts spells as the union that pattern means.
 */
const SAXON_HE_CANNOT_COMPILE: Record<string, string> = {};

/** Saxon-HE runs at once: CI has two cores. */
const JVMS = 2;
const STOP_CODE = /\b([A-Z]{4}\d{4})\b/;

/** A finding reduced to what must match; a stop is matched on the rule file's bytes and the error code. */
function keyOf(f: ValidationFinding): string {
  if (f.ruleId === "RULE_FILE_STOPPED") {
    const file = /^the rule file (\S+) stopped on this document: /.exec(f.message)?.[1];
    return JSON.stringify(["RULE_FILE_STOPPED", f.severity, (file && pinByPath(file)?.sha256) ?? "?", STOP_CODE.exec(f.message)?.[1] ?? "?"]);
  }
  return JSON.stringify([f.ruleId, f.severity, f.location ?? null, f.message]);
}

/** Findings Saxon-HE gives for one stylesheet run, as the service would report them (at its scenario's levels). */
function saxonFindings(entry: string, r: SaxonResult, levels: ReadonlyMap<string, Severity> | undefined): ValidationFinding[] {
  const stopped = (error: string): ValidationFinding[] => [
    { ruleId: "RULE_FILE_STOPPED", severity: "fatal", message: `the rule file ${entry} stopped on this document: ${error}` },
  ];
  if (r.error !== null) return stopped(r.error);
  try {
    return parseSvrl(r.svrl!).map((f) => findingOf(f, levels));
  } catch {
    // A document that stops can leave a cut-off output file behind and no reported error.
    return stopped("output cut off (not well-formed SVRL)");
  }
}

const scenarioTables = new Map<string, Scenario[]>();

/**
 * The levels KoSIT's scenario gives the document's findings, when its verdict ran the severities
 * layer (test/validation/kosit-scenarios.test.ts holds the choice of scenario to the pinned table).
 */
function levelsOf(layers: readonly LayerResult[], xml: string): ReadonlyMap<string, Severity> | undefined {
  const layer = layers.find((l) => l.layer === "severities" && l.status === "ran");
  if (!layer) return undefined;
  const path = `${layer.artifact!.key}/${layer.artifact!.version}/${layer.name}`;
  let scenarios = scenarioTables.get(path);
  if (!scenarios) scenarioTables.set(path, (scenarios = readScenarios(readFileSync(join(filesDir, path)))));
  return scenarioFor(scenarios, readXml(readFileSync(xml)))?.levels;
}

/** The rule files a verdict's rule layers ran, as build index ids: `<key>/<version>/<layer name>`. */
function layerPaths(layers: readonly LayerResult[]): string[] {
  return layers.filter((l) => (l.layer === "rules" || l.layer === "overlay") && l.status !== "skipped").map((l) => `${l.artifact!.key}/${l.artifact!.version}/${l.name}`);
}

/** Every rule file a record runs unconditionally, except the France CTC ones no corpus document declares. */
function pipelineEntries(): string[] {
  const layers = RECORDS.flatMap((r) => r.judge?.rules ?? []);
  return [...new Set(layers.filter((l) => l.family !== "france-ctc").map((l) => ruleEntryId(`${l.key}/${latestVersion(l.key)}/${l.file}`, l.part?.patterns)))].sort();
}

async function inParallel<T>(items: T[], lanes: number, run: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(Array.from({ length: lanes }, async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await run(item);
  }));
}

test.skipIf(skip)(
  "the service reports exactly Saxon-HE's findings on the original stylesheets, for every document and rule layer",
  async () => {
    const rows = allRows();
    const pass = await enginePass(rows);
    const started = performance.now();
    const index = new Map(readIndex()!.entries.map((e) => [e.id, e]));

    // Which documents each stylesheet must judge, and the XML it judged (PDFs: the embedded XML).
    const jobs = new Map<string, string[]>();
    const judged: { path: string; xml: string; layers: string[]; levels?: ReadonlyMap<string, Severity>; result: ValidationResult }[] = [];
    for (const row of rows) {
      const outcome = pass.records.get(row.path)!.outcome;
      if (!outcome.ok) continue;
      const layers = layerPaths(outcome.layers);
      if (layers.length === 0) continue;
      let xml = join(CORPUS, row.path);
      const bytes = new Uint8Array(readFileSync(xml));
      if (isPdf(bytes)) {
        const extracted = await extractInvoiceXml(bytes);
        if (!extracted.ok) throw new Error(`${row.path}: judged by the service, but no XML extracts now`);
        xml = join(work, "pdf-xml", `${row.path}.xml`);
        mkdirSync(dirname(xml), { recursive: true });
        writeFileSync(xml, extracted.xml);
      }
      judged.push({ path: row.path, xml, layers, levels: levelsOf(outcome.layers, xml), result: outcome.result });
      for (const layer of layers) jobs.set(layer, jobs.get(layer) ?? []).get(layer)!.push(xml);
    }

    const saxon = new Map<string, Map<string, SaxonResult>>();
    const uncompiled = new Map<string, string>();
    await inParallel([...jobs.keys()], JVMS, async (entry) => {
      const source = index.get(entry)?.sourceXslt;
      if (!source) throw new Error(`no build index entry for ${entry}`);
      try {
        saxon.set(entry, await runSaxonHe(saxonHeReference(join(buildDir, source), work), jobs.get(entry)!));
      } catch (error) {
        uncompiled.set(entry, (error as Error).message.split("\n").slice(0, 3).join(" "));
      }
    });

    let runs = 0;
    let identical = 0;
    const notCompared: string[] = [];
    const stoppedDocs: string[] = [];
    const byRule = new Map<string, { onlySaxonHe: number; onlyService: number }>();
    const differing: string[] = [];
    const perSheet = new Map<string, { documents: number; findings: number; stops: number; differing: number }>();
    for (const doc of judged) {
      if (doc.layers.some((l) => uncompiled.has(l))) {
        notCompared.push(doc.path);
        continue;
      }
      const expected: ValidationFinding[] = [];
      for (const layer of doc.layers) {
        const found = saxonFindings(layer, saxon.get(layer)!.get(doc.xml)!, doc.levels);
        expected.push(...found);
        runs++;
        const sheet = perSheet.get(layer) ?? { documents: 0, findings: 0, stops: 0, differing: 0 };
        perSheet.set(layer, sheet);
        sheet.documents++;
        if (found[0]?.ruleId === "RULE_FILE_STOPPED") sheet.stops++;
        else sheet.findings += found.length;
      }
      // The service lists XSD findings first, then the rule layers, then what no stylesheet makes:
      // the hybrid PDF container checks and the advisories.
      const fromStylesheets = (f: { ruleId: string }) => f.ruleId !== "XSD" && !f.ruleId.startsWith("BR-HYBRID-") && !f.ruleId.endsWith("_NOT_ENFORCED");
      const service = [...doc.result.errors.filter(fromStylesheets), ...doc.result.warnings.filter(fromStylesheets)];
      const isError = (f: ValidationFinding) => f.severity === "fatal" || f.severity === "error";
      const want = [...expected.filter(isError), ...expected.filter((f) => !isError(f))].map(keyOf);
      const got = service.map(keyOf);
      if (expected.some((f) => f.ruleId === "RULE_FILE_STOPPED")) {
        stoppedDocs.push(doc.path);
        expect(doc.result.valid, `${doc.path} stops a rule file and must not be valid`).toBe(false);
      }
      if (Bun.deepEquals(want, got)) {
        identical += doc.layers.length;
        continue;
      }
      differing.push(doc.path);
      for (const layer of doc.layers) perSheet.get(layer)!.differing++;
      const count = (keys: string[]) => keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());
      const [w, g] = [count(want), count(got)];
      const keys = [...new Set([...w.keys(), ...g.keys()])].filter((k) => w.get(k) !== g.get(k));
      // Same findings in another order still differ; they are counted under a pseudo id.
      for (const k of keys.length ? keys : [JSON.stringify(["(order only)"])]) {
        const delta = (w.get(k) ?? 0) - (g.get(k) ?? 0);
        const id = JSON.parse(k)[0] as string;
        const line = byRule.get(id) ?? { onlySaxonHe: 0, onlyService: 0 };
        byRule.set(id, line);
        if (delta > 0) line.onlySaxonHe += delta;
        else line.onlyService -= delta;
      }
    }

    const short = (entry: string) => entry.replace(/^([^/]+)\/([^/]+)\/.*\//, "$1@$2 ");
    console.log(
      [
        `Saxon-HE differential: ${judged.length - notCompared.length} documents, ${runs} document x stylesheet runs on ${saxon.size} stylesheets; ` +
          `${identical} runs identical, ${differing.length} documents differ; ${stoppedDocs.length} documents stop a rule file on Saxon-HE ` +
          `(all reported as RULE_FILE_STOPPED, never valid); Saxon-HE side ${((performance.now() - started) / 1000).toFixed(1)} s`,
        ...[...perSheet].sort().map(([e, s]) => `  ${short(e).padEnd(70)} ${String(s.documents).padStart(5)} docs ${String(s.findings).padStart(6)} findings ${String(s.stops).padStart(3)} stops ${String(s.differing).padStart(4)} differ`),
        ...[...uncompiled.keys()].map((e) => `  not compared: ${short(e)} does not compile on Saxon-HE (${SAXON_HE_CANNOT_COMPILE[e] ?? `UNLISTED: ${uncompiled.get(e)}`}); documents skipped: ${notCompared.join(", ")}`),
        `  SaxonJS-only differences by rule id: ${[...byRule].map(([id, c]) => `${id} (only Saxon-HE ${c.onlySaxonHe}, only service ${c.onlyService})`).join(", ") || "none"}`,
        ...differing.slice(0, 10).map((d) => `  differs: ${d}`),
      ].join("\n"),
    );

    // Every rule file a pipeline runs was judged on the corpus, Factur-X EXTENDED included.
    expect(pipelineEntries().filter((e) => !perSheet.has(e))).toEqual([]);
    expect([...uncompiled].filter(([e]) => !SAXON_HE_CANNOT_COMPILE[e])).toEqual([]);
    expect(differing).toEqual([]);
  },
  30 * 60_000,
);
