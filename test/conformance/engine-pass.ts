// One pass of the service's validation engine over the selected corpus rows, shared by the
// conformance and the differential test: the pass is the slow part (SaxonJS), so its outcomes are
// cached under build/ (gitignored) and reused while the corpus, the built rulesets and src/ are
// unchanged.

import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { WorkerPool } from "../../src/workers/pool";
import type { ValidateOutcome } from "../../src/validation/validate";
import { CORPUS, recordFor, type CorpusRow } from "./corpus";

const repoRoot = resolve(import.meta.dir, "../..");
const CACHE = join(repoRoot, "build/conformance/engine-pass.json");
const WORKERS = 2;

export interface PassRecord {
  path: string;
  /** Catalogue record handed to the engine, when the row names a profile a record judges. */
  record?: string;
  /** The engine's outcome, or why no outcome came back (an engine failure, a 503). */
  outcome: ValidateOutcome | { ok: false; failed: true; message: string };
  ms: number;
}

export interface EnginePass {
  records: Map<string, PassRecord>;
  /** Wall-clock seconds of the pass that produced the records (0 when none had to run). */
  seconds: number;
  cached: boolean;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .sort();
}

/** Everything the outcomes depend on: the corpus verdict file, the rule bundle and the source. */
function fingerprint(rows: CorpusRow[]): string {
  const h = new Bun.CryptoHasher("sha256");
  h.update(rows.map((r) => r.path).join("\n"));
  for (const f of [join(CORPUS, "expected.json"), join(repoRoot, "build/assets/rulesets.bundle"), ...filesUnder(join(repoRoot, "src"))]) {
    h.update(f);
    h.update(readFileSync(f));
  }
  return h.digest("hex");
}

let memo: Promise<EnginePass> | undefined;

/** The engine's outcome for every row, from the cache when it is current. */
export function enginePass(rows: CorpusRow[]): Promise<EnginePass> {
  memo ??= run(rows);
  return memo;
}

async function run(rows: CorpusRow[]): Promise<EnginePass> {
  const key = fingerprint(rows);
  if (existsSync(CACHE)) {
    const cached = JSON.parse(readFileSync(CACHE, "utf8")) as { key: string; seconds: number; records: PassRecord[] };
    if (cached.key === key) return { records: new Map(cached.records.map((r) => [r.path, r])), seconds: cached.seconds, cached: true };
  }
  const started = performance.now();
  const pool = new WorkerPool(WORKERS);
  const records: PassRecord[] = [];
  try {
    await pool.ready();
    // Largest documents first, so the slowest ones do not end up alone on one worker at the end.
    const queue = [...rows].sort((a, b) => statSync(join(CORPUS, b.path)).size - statSync(join(CORPUS, a.path)).size);
    const never = new AbortController().signal;
    const lane = async () => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        const record = recordFor(row);
        const bytes = new Uint8Array(readFileSync(join(CORPUS, row.path)));
        const t0 = performance.now();
        let outcome: PassRecord["outcome"];
        try {
          outcome = await pool.validate({ bytes, ...(record ? { record } : {}) }, never);
        } catch (error) {
          outcome = { ok: false, failed: true, message: (error as Error).message };
        }
        records.push({ path: row.path, ...(record ? { record } : {}), outcome, ms: Math.round(performance.now() - t0) });
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, lane));
  } finally {
    pool.close();
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  records.sort((a, b) => a.path.localeCompare(b.path));
  mkdirSync(dirname(CACHE), { recursive: true });
  writeFileSync(CACHE, JSON.stringify({ key, seconds, records }));
  return { records: new Map(records.map((r) => [r.path, r])), seconds, cached: false };
}
