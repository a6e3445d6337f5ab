/**
 * Child process of the benchmark: times `validateDocument` in-process on the native engine or on
 * SaxonJS, whole and per rule file, so each figure compares with Saxon-HE running the very same
 * stylesheet. A separate process because a SaxonJS transform cannot be interrupted: the parent
 * bounds it by killing it.
 *
 *   bun bench/timed-validate.ts '{"file": "...", "engine": "native", "warmWith": "...", "warmups": 1, "runs": 3, "dumpXml": "..."}'
 *
 * Prints JSON lines: `{"layers": [...]}` once the warm-up showed which stylesheets judge the
 * document, then `{"valid", "totalMs": [...], "layerMs": {...}}` after the timed runs.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { rulesetBundle } from "../src/assets/bundle";
import { createEngine } from "../src/validation/engine";
import { RuleEngines, type RuleEngineChoice } from "../src/validation/rule-engines";
import { validateDocument } from "../src/validation/validate";

export interface TimedJob {
  file: string;
  engine: RuleEngineChoice;
  /** Warm up on this document instead (same profile, much smaller) when the job is slow. */
  warmWith?: string;
  warmups: number;
  runs: number;
  /** Write the XML the stylesheets saw here (the invoice inside a hybrid PDF), for Saxon-HE. */
  dumpXml?: string;
}

export interface TimedLayer {
  entry: string;
  /** The engine that ran the entry (an entry without a native plan runs on SaxonJS either way). */
  engine: string;
  /** The stylesheet the SEF was compiled from, relative to build/rulesets/. */
  xslt: string;
}

/** Records how long each rule file took in the current run. */
class TimedSchematron extends RuleEngines {
  times = new Map<string, number>();
  lastXml = "";

  override run(entryPath: string, xml: string) {
    const started = performance.now();
    try {
      return super.run(entryPath, xml);
    } finally {
      this.times.set(entryPath, performance.now() - started);
      this.lastXml = xml;
    }
  }
}

const job = JSON.parse(process.argv[2]) as TimedJob;
const bundle = rulesetBundle();
const schematron = new TimedSchematron(bundle, job.engine);
const engine = { ...createEngine(bundle), schematron };
const say = (line: unknown) => console.log(JSON.stringify(line));

const bytes = readFileSync(job.file);
const warmBytes = job.warmWith ? readFileSync(job.warmWith) : bytes;
for (let i = 0; i < Math.max(1, job.warmups); i++) await validateDocument(engine, { bytes: warmBytes });
if (job.dumpXml) writeFileSync(job.dumpXml, schematron.lastXml);
say({ layers: [...schematron.times.keys()].map((entry): TimedLayer => ({ entry, engine: schematron.engineOf(entry), xslt: schematron.entry(entry).xslt })) });

const totalMs: number[] = [];
const layerMs: Record<string, number[]> = {};
let valid: boolean | undefined;
for (let i = 0; i < job.runs; i++) {
  schematron.times.clear();
  const started = performance.now();
  const outcome = await validateDocument(engine, { bytes });
  totalMs.push(performance.now() - started);
  valid = outcome.ok && outcome.result.valid;
  for (const [entry, ms] of schematron.times) (layerMs[entry] ??= []).push(ms);
}
say({ valid, totalMs, layerMs });
