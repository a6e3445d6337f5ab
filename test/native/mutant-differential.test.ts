// Differential identity of the native engine with Saxon-HE on deterministic mutants of the valid
// corpus documents (amounts nudged by a cent, rates and codes swapped, elements removed or
// duplicated, lines multiplied, dates moved; sometimes two at once: see mutants.ts). Mutants are
// spread evenly over every pipeline with rule layers (and every France CTC overlay), and every rule
// layer of the pipeline judges them natively (`readRuleSource` on the pinned file) and on Saxon-HE
// (the pinned XSLT as published; for a pinned `.sch`, the XSLT `schematronToXslt` emits): the
// finding lines (rule id, flag, location, message, order) or the stop error code must be identical.
//
//   CI sample (1,000 mutants):  ./node_modules/.bin/bun test test/native/mutant-differential.test.ts --timeout 3600000
//   Full run (10,000 mutants):  MUTANTS=10000 ./node_modules/.bin/bun test test/native/mutant-differential.test.ts --timeout 3600000
//
// Other knobs: VERSIONS=all judges with every pinned version of each ruleset key, not only the
// newest; SAXONJS_SAMPLE=<n> (default 20, 0 = off; SaxonJS takes
// 0.1-1 s per mutant, most of the default run's time at 50) mutants per rule file also run on SaxonJS, whose
// differences from Saxon-HE are printed for information and never fail the test. A difference is
// reproduced from its id `<source>#<n>:<operators>` with `mutate(readFileSync(CORPUS_DIR + source,
// "utf8"), source, n)` from ./mutants.ts.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Plan } from "../../src/native/engine.ts";
import { readXml } from "../../src/native/xml-reader.ts";
import { versionsOf } from "../../src/rulesets/pins.ts";
import { schematronToXslt } from "../../src/schematron/compile.ts";
import { RECORDS } from "../../src/profiles/catalogue.ts";
import type { RuleLayerRef as RuleLayer } from "../../src/profiles/record.ts";
import type { Finding } from "../../src/schematron/finding.ts";
import { CORPUS_DIR, corpusMissing, corpusRows, hasCorpus, RULESETS_DIR } from "../support/corpus.ts";
import { runSaxonHe, saxonHeUnavailable, type SaxonResult } from "../support/saxon-he.ts";
import { cannotRun } from "../support/requirements.ts";
import { mutate, type Mutant } from "./mutants.ts";
import { saxonHeReference } from "./saxon-he-reference.ts";
import { findingLine, nativeOutcome, planOfFile, referenceOutcome } from "./differential.ts";

const TOTAL = Number(process.env.MUTANTS ?? 1000);
const SAXONJS_SAMPLE = Number(process.env.SAXONJS_SAMPLE ?? 20);
const ALL_VERSIONS = process.env.VERSIONS === "all";

/**
 * Rule files (`<key>/<version>/<file>`) the native engine refuses, with the refusal: they run on
 * SaxonJS (docs/validation.md). Any other refusal fails the test; an entry that compiles is judged
 * anyway and reported as stale. Empty: the native engine reads every rule file a pipeline runs.
 */
const RUN_ON_SAXONJS: Record<string, string> = {};

/**
 * Rule files Saxon-HE 9.9 (Debian's libsaxonhe-java, the reference here) cannot compile, with why:
 * there is no Saxon-HE outcome to compare with, so native is compared with SaxonJS on the sample,
 * for information. Any other Saxon-HE failure fails the test. Empty: the France CTC UBL Flux2 files,
 * whose XSLT 3.0 pattern it cannot compile, run as the copy saxon-he-reference.ts spells as a union.
 */
const SAXON_HE_CANNOT_COMPILE: Record<string, string> = {};

/**
 * Pipelines the corpus has no document of: mutants start from the nearest profile instead (the
 * France CTC rules judge any EN 16931 document of their syntax; the point is identity, not validity).
 */
const SEED_SUBSTITUTES: Record<string, string> = {
  "ubl:extended-ctc-fr": "ubl:en16931",
  "cii:facturx:extended-ctc-fr": "cii:facturx:extended",
};

/** Larger corpus documents are embedded attachments: they cost time, not coverage. */
const MAX_SEED_BYTES = 1_000_000;

const skip = cannotRun("native engine vs Saxon-HE on mutants", corpusMissing ?? saxonHeUnavailable());

interface JudgedPipeline {
  id: string;
  syntax: string;
  profile: string;
  layers: RuleLayer[];
  seeds: string[];
  seedNote: string;
}

function judgedPipelines(): JudgedPipeline[] {
  const rows = corpusRows();
  const seedsOf = (pipelineId: string): { seeds: string[]; note: string } => {
    const seedId = SEED_SUBSTITUTES[pipelineId] ?? pipelineId;
    const [syntax, ...rest] = seedId.split(":");
    const profile = rest.join(":");
    const own = rows.filter(
      (row) => row.syntax === syntax && row.profile === profile && existsSync(CORPUS_DIR + row.path) && readFileSync(CORPUS_DIR + row.path).length <= MAX_SEED_BYTES,
    );
    // Not every profile has documents upstream calls valid: fall back to unjudged, then to any.
    for (const [note, keep] of [
      ["expected valid", (v: boolean | null) => v === true],
      ["no upstream verdict", (v: boolean | null) => v === null],
      ["expected invalid", () => true],
    ] as const) {
      const seeds = own.filter((row) => keep(row.expectedValid)).map((row) => row.path);
      if (seeds.length) return { seeds, note: `${seeds.length} ${seedId} documents (${note})` };
    }
    return { seeds: [], note: `no ${seedId} document` };
  };
  const pipelines: JudgedPipeline[] = [];
  for (const { id, syntax, judge } of RECORDS) {
    if (!judge?.rules.length) continue;
    const { seeds, note } = seedsOf(id);
    const profile = id.slice(syntax.length + 1);
    pipelines.push({ id, syntax, profile, layers: [...judge.rules], seeds, seedNote: note });
    for (const overlay of judge.overlays ?? []) {
      pipelines.push({ id: `${id}+france-ctc-overlay`, syntax, profile, layers: [...judge.rules, overlay.layer], seeds, seedNote: note });
    }
  }
  return pipelines;
}

/** Rule files as `<key>/<version>/<file>`, by layer: the newest version, or every pinned one. */
function ruleFilesOf(layer: RuleLayer): string[] {
  const versions = versionsOf(layer.key).map((v) => v.version);
  return (ALL_VERSIONS ? versions : versions.slice(0, 1)).map((version) => `${layer.key}/${version}/${layer.file}`).filter((file) => existsSync(RULESETS_DIR + file));
}

const pipelines = hasCorpus ? judgedPipelines() : [];
const ruleFiles = [...new Set(pipelines.flatMap((p) => p.layers.flatMap(ruleFilesOf)))];

const sameLines = (a: string[], b: string[]) => a.length === b.length && a.every((line, i) => line === b[i]);

function nativePlan(entry: string): { plan: Plan } | { refused: string } {
  try {
    return { plan: planOfFile(entry) };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

/** Evenly spread, deterministic. */
function spread<T>(items: T[], limit: number): T[] {
  if (items.length <= limit) return items;
  const step = items.length / limit;
  return Array.from({ length: limit }, (_, i) => items[Math.floor(i * step)]);
}

// ---------------------------------------------------------------------------------------------

interface WrittenMutant extends Mutant {
  file: string;
  pipeline: string;
}

describe.skipIf(skip)(`native engine vs Saxon-HE on ${TOTAL} mutants of valid documents`, () => {
  let work = "";
  const mutantsByRuleFile = new Map<string, WrittenMutant[]>();
  /** Saxon-HE outcomes per rule file, run one JVM at a time ahead of the tests so they overlap native and SaxonJS work. */
  const references = new Map<string, Promise<Map<string, SaxonResult> | Error>>();
  const malformed: string[] = [];

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "native-mutants-"));
    mkdirSync(join(work, "mutants"));
    const started = performance.now();
    const judged = pipelines.filter((p) => p.seeds.length > 0);
    const nextN = new Map<string, number>();
    const sourceText = new Map<string, string>();
    let written = 0;
    judged.forEach((pipeline, index) => {
      const count = Math.floor(TOTAL / judged.length) + (index < TOTAL % judged.length ? 1 : 0);
      const files = [...new Set(pipeline.layers.flatMap(ruleFilesOf))];
      for (let k = 0; k < count; k++) {
        const source = pipeline.seeds[k % pipeline.seeds.length];
        if (!sourceText.has(source)) sourceText.set(source, readFileSync(CORPUS_DIR + source, "utf8"));
        // n counts per source over the whole run, so two pipelines sharing a seed get different mutants.
        const n = nextN.get(source) ?? 0;
        nextN.set(source, n + 1);
        const mutant = mutate(sourceText.get(source)!, source, n);
        try {
          readXml(mutant.xml);
        } catch (error) {
          malformed.push(`${mutant.id}: ${(error as Error).message}`);
          continue;
        }
        const file = join(work, "mutants", `${String(written++).padStart(5, "0")}-${basename(source).replace(/[^\w.-]/g, "_")}`);
        writeFileSync(file, mutant.xml);
        const entry: WrittenMutant = { ...mutant, xml: "", file, pipeline: pipeline.id };
        for (const ruleFile of files) {
          if (!mutantsByRuleFile.has(ruleFile)) mutantsByRuleFile.set(ruleFile, []);
          mutantsByRuleFile.get(ruleFile)!.push(entry);
        }
      }
    });
    console.log(
      `generated ${written} mutants in ${((performance.now() - started) / 1000).toFixed(1)} s over ${judged.length} pipelines:\n` +
        pipelines.map((p) => `  ${p.id}: ${p.seedNote}; layers ${p.layers.map((l) => l.file).join(", ")}`).join("\n"),
    );
    let chain: Promise<unknown> = Promise.resolve();
    for (const ruleFile of ruleFiles) {
      const mutants = mutantsByRuleFile.get(ruleFile) ?? [];
      const run = chain.then(async () => {
        try {
          return await runSaxonHe(await referenceXslt(ruleFile, work), mutants.map((m) => m.file));
        } catch (error) {
          return error as Error;
        }
      });
      references.set(ruleFile, run);
      chain = run;
    }
  });

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test("every pipeline with rule layers gets mutants, all well-formed, reproducible from their id", () => {
    expect(pipelines.filter((p) => p.seeds.length === 0).map((p) => p.id)).toEqual([]);
    expect(malformed).toEqual([]);
    const all = new Map<string, WrittenMutant>();
    for (const list of mutantsByRuleFile.values()) for (const m of list) all.set(m.file, m);
    expect(all.size).toBeGreaterThanOrEqual(TOTAL);
    for (const m of spread([...all.values()], 20)) {
      expect(mutate(readFileSync(CORPUS_DIR + m.source, "utf8"), m.source, m.n).xml).toBe(readFileSync(m.file, "utf8"));
    }
  });

  for (const ruleFile of ruleFiles) {
    test(
      ruleFile,
      async () => {
        const mutants = mutantsByRuleFile.get(ruleFile) ?? [];
        expect(mutants.length).toBeGreaterThan(0);
        const compiled = nativePlan(RULESETS_DIR + ruleFile);
        const waited = performance.now();
        const reference = await references.get(ruleFile)!;
        const waitMs = performance.now() - waited;

        if (reference instanceof Error) {
          const known = SAXON_HE_CANNOT_COMPILE[ruleFile];
          console.log(`${ruleFile}: Saxon-HE cannot run it${known ? ` (known: ${known})` : ""}: ${reference.message.split("\n").slice(0, 3).join(" ").slice(0, 300)}`);
          if (!known) throw reference;
          // The only reference left is SaxonJS: its comparison is printed, for information.
          if ("plan" in compiled) await reportNativeVsSaxonJs(ruleFile, compiled.plan, spread(mutants, SAXONJS_SAMPLE));
          else console.log(`  native refuses it too (${compiled.refused})`);
          if ("refused" in compiled && !(ruleFile in RUN_ON_SAXONJS)) throw new Error(`${ruleFile} is refused by the native engine: ${compiled.refused}`);
          return;
        }
        if ("refused" in compiled) {
          console.log(`${ruleFile}: native refuses (${compiled.refused}); ${mutants.length} mutants not judged natively`);
          await reportSaxonJs(ruleFile, spread(mutants, SAXONJS_SAMPLE), reference);
          if (!(ruleFile in RUN_ON_SAXONJS)) throw new Error(`${ruleFile} is refused by the native engine: ${compiled.refused}`);
          return;
        }
        if (ruleFile in RUN_ON_SAXONJS) console.log(`${ruleFile}: compiles natively now: remove it from RUN_ON_SAXONJS`);

        let identical = 0;
        let bothStopped = 0;
        let nativeMs = 0;
        const differences: { mutant: WrittenMutant; native: string[]; reference: string[] }[] = [];
        for (const mutant of mutants) {
          const bytes = readFileSync(mutant.file);
          const started = performance.now();
          const native = nativeOutcome(compiled.plan, bytes);
          nativeMs += performance.now() - started;
          const expected = referenceOutcome(reference.get(mutant.file)!);
          if (sameLines(native, expected)) {
            if (expected.length === 1 && expected[0].startsWith("stopped")) bothStopped++;
            else identical++;
          } else differences.push({ mutant, native, reference: expected });
        }
        console.log(
          `${ruleFile}: ${mutants.length} mutants, ${identical} identical, ${bothStopped} stopped with the same error on both, ` +
            `${differences.length} differing; native ${(nativeMs / 1000).toFixed(1)} s (${((nativeMs / mutants.length) || 0).toFixed(1)} ms per mutant), ` +
            `waited ${(waitMs / 1000).toFixed(1)} s for Saxon-HE`,
        );
        for (const { mutant, native, reference: saxon } of differences.slice(0, 5)) console.log(describeDifference(mutant, native, saxon));
        await reportSaxonJs(ruleFile, spread(mutants, SAXONJS_SAMPLE), reference);
        expect(differences.map((d) => d.mutant.id)).toEqual([]);
      },
      60 * 60_000,
    );
  }
});

async function referenceXslt(ruleFile: string, work: string): Promise<string> {
  const entry = RULESETS_DIR + ruleFile;
  if (!/\.sch$/i.test(entry)) return saxonHeReference(entry, work);
  const xslt = join(work, `${ruleFile.replace(/[^\w.-]/g, "_")}.xsl`);
  writeFileSync(xslt, await schematronToXslt(entry));
  return xslt;
}

/** The lines only one side has, or both outcomes whole when they hold the same lines in another order. */
function describeDifference(mutant: WrittenMutant, native: string[], reference: string[]): string {
  let nativeOnly = native.filter((l) => !reference.includes(l));
  let referenceOnly = reference.filter((l) => !native.includes(l));
  if (!nativeOnly.length && !referenceOnly.length) [nativeOnly, referenceOnly] = [native, reference];
  const show = (lines: string[]) => (lines.length ? lines.slice(0, 3).map((l) => l.slice(0, 400)).join("\n                   ") : "(nothing)");
  return `  ${mutant.id} [${mutant.pipeline}] ${mutant.details.join(" | ")}\n    native only:   ${show(nativeOnly)}\n    Saxon-HE only: ${show(referenceOnly)}`;
}

// ---------------------------------------------------------------------------------------------
// SaxonJS, for information: the service's fallback engine, compared with the same Saxon-HE outcome.

let saxonJs: { run(entryPath: string, xml: string): Finding[] } | null | undefined;

async function loadSaxonJs(): Promise<typeof saxonJs> {
  if (saxonJs !== undefined) return saxonJs;
  try {
    const [{ SaxonJsSchematron }, { rulesetBundle }] = await Promise.all([
      import("../../src/validation/schematron-saxonjs.ts"),
      import("../../src/assets/bundle.ts"),
    ]);
    saxonJs = new SaxonJsSchematron(rulesetBundle());
  } catch (error) {
    console.log(`SaxonJS comparison off: ${(error as Error).message}`);
    saxonJs = null;
  }
  return saxonJs;
}

async function reportSaxonJs(ruleFile: string, sample: WrittenMutant[], reference: Map<string, SaxonResult>): Promise<void> {
  const engine = SAXONJS_SAMPLE > 0 ? await loadSaxonJs() : null;
  if (!engine || !sample.length) return;
  const started = performance.now();
  const differing: string[] = [];
  for (const mutant of sample) {
    let lines: string[];
    try {
      lines = engine.run(ruleFile, readFileSync(mutant.file, "utf8")).map(findingLine);
    } catch (error) {
      const stopped = (error as { xpathError?: string }).xpathError;
      if (stopped === undefined) {
        // Not a stop of the rules (RuleFileStopped) but no stylesheet to run, e.g. missing from the bundle.
        console.log(`  SaxonJS cannot run ${ruleFile}: ${(error as Error).message}`);
        return;
      }
      lines = [`stopped ${/[A-Z]{4}\d{4}/.exec(stopped)?.[0] ?? "?"}`];
    }
    const expected = referenceOutcome(reference.get(mutant.file)!);
    if (!sameLines(lines, expected)) {
      const ids = [...new Set([...lines.filter((l) => !expected.includes(l)), ...expected.filter((l) => !lines.includes(l))].map((l) => l.split(" ")[0]))];
      differing.push(`${mutant.id} (${ids.slice(0, 4).join(", ")})`);
    }
  }
  console.log(
    `  SaxonJS (information only): ${differing.length} of ${sample.length} sampled mutants differ from Saxon-HE ` +
      `(${((performance.now() - started) / 1000).toFixed(1)} s)${differing.length ? `, e.g. ${differing.slice(0, 3).join("; ")}` : ""}`,
  );
}

/** For rule files without a Saxon-HE outcome: native against SaxonJS, printed only. */
async function reportNativeVsSaxonJs(ruleFile: string, plan: Plan, sample: WrittenMutant[]): Promise<void> {
  const engine = SAXONJS_SAMPLE > 0 ? await loadSaxonJs() : null;
  if (!engine) return;
  const differing: string[] = [];
  for (const mutant of sample) {
    const bytes = readFileSync(mutant.file);
    const native = nativeOutcome(plan, bytes);
    let lines: string[];
    try {
      lines = engine.run(ruleFile, new TextDecoder().decode(bytes)).map(findingLine);
    } catch (error) {
      const stopped = (error as { xpathError?: string }).xpathError;
      lines = [`stopped ${/[A-Z]{4}\d{4}/.exec(stopped ?? "")?.[0] ?? "?"}`];
    }
    if (!sameLines(native, lines)) differing.push(mutant.id);
  }
  console.log(`  native vs SaxonJS (information only): ${differing.length} of ${sample.length} sampled mutants differ${differing.length ? `, e.g. ${differing.slice(0, 3).join("; ")}` : ""}`);
}
