// Prepares every rule entry (rule-entries.ts: the pinned rule files and the parts of them a layer
// runs alone) (its XSLT: the pinned file, or our own .sch -> XSLT compiler's output; the rewrites;
// the code lists it reads) and compiles the ones asked for to a SaxonJS SEF,
// writing build/rulesets/index.json describing what was built. Preparing takes seconds; a SEF takes
// up to half a minute, so SEFs are compiled only for the entries that will run on SaxonJS.
//
// Layout under build/rulesets/:
//   files/<path>               pinned bytes (sync.ts)
//   xslt/<id>.xsl              XSLT generated from a pinned .sch (or part of it; id: rule-entries.ts)
//   rewritten/<id>[.xsl]       the copy actually compiled (rewrites.ts applied)
//   sef/<id>.sef.json          the SEF, with <name>.cachekey beside it and the code lists it reads

import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import { documentTarget, pinByPath, type Pin } from "./pins";
import { ruleEntries, type RuleEntry } from "./rule-entries";
import type { PatternSelection } from "../profiles/record";
import { REWRITES_VERSION, rewriteStylesheet } from "./rewrites";
import { buildDir, filesDir, repoRoot, writeAtomically } from "./sync";
import { sha256Hex } from "./seal";

export const indexPath = join(buildDir, "index.json");
const schematronModule = join(repoRoot, "src/schematron/compile.ts");
const xslt3 = join(repoRoot, "node_modules/xslt3/xslt3.js");

export interface IndexEntry {
  /** What the bundle and the rule engines call it: the pinned path, or a part's handle (rule-entries.ts). */
  id: string;
  key: string;
  version: string;
  /** The pinned entry file, relative to the rulesets root. */
  path: string;
  /** The patterns of a part; absent: the whole entry. */
  patterns?: PatternSelection;
  /** SHA-256 of the pinned entry file. */
  sha256: string;
  /** The compiled SEF, or null when none was asked for (the entry then runs only natively). */
  sef: Sef | null;
  /** The stylesheet the SEF was compiled from (after rewrites), relative to build/rulesets. */
  xslt: string;
  /** The stylesheet before rewrites: the pinned file, or the XSLT our compiler generated from the .sch. */
  sourceXslt: string;
  rewrites: Record<string, number>;
  /** Pinned files (rulesets-root relative) the stylesheet reads with document(); copied beside the SEF. */
  codeLists: string[];
  cacheKey: string;
}

interface Sef {
  /** Relative to build/rulesets. */
  path: string;
  sha256: string;
  bytes: number;
  /** Seconds the export took when it was last made (null when the index lost that figure). */
  compileSeconds: number | null;
}

export interface BuildIndex {
  rewritesVersion: number;
  entries: IndexEntry[];
}

type PrepareEvent = { kind: "skipped"; entry: RuleEntry; reason: string };

type CompileEvent = { kind: "start"; entry: IndexEntry; n: number; of: number } | { kind: "done"; entry: IndexEntry; n: number; of: number };

export function readIndex(): BuildIndex | null {
  return existsSync(indexPath) ? (JSON.parse(readFileSync(indexPath, "utf8")) as BuildIndex) : null;
}

/**
 * Writes the XSLT, rewritten copy and code lists of every rule entry (those whose id contains one
 * of `only`, when given, keeping the rest of the index) and the index describing them. An entry
 * keeps the SEF already built for the same input (its cache key); the others have none until
 * {@link compileSefs}. Returns the index and the entries that could not be prepared because the
 * Schematron compiler is absent.
 */
export async function prepareRulesets(opts: { only?: string[]; onEvent?: (e: PrepareEvent) => void } = {}): Promise<{ index: BuildIndex; skipped: RuleEntry[] }> {
  const previous = readIndex();
  const only = opts.only?.length ? opts.only : undefined;
  const index: BuildIndex = { rewritesVersion: REWRITES_VERSION, entries: only ? (previous?.entries ?? []) : [] };
  const skipped: RuleEntry[] = [];
  const selected = ruleEntries().filter((e) => !only || only.some((s) => e.id.includes(s)));
  for (const rule of selected) {
    const source = await sourceStylesheet(rule);
    if ("skip" in source) {
      skipped.push(rule);
      opts.onEvent?.({ kind: "skipped", entry: rule, reason: source.skip });
      continue;
    }
    const entry = prepareOne(rule, source, previous?.entries.find((e) => e.id === rule.id));
    index.entries = index.entries.filter((e) => e.id !== rule.id).concat(entry);
  }
  index.entries.sort((a, b) => a.id.localeCompare(b.id));
  writeAtomically(indexPath, JSON.stringify(index, null, 2) + "\n");
  return { index, skipped };
}

/**
 * Compiles the SEF of each given entry of `index` (each xslt3 export takes up to half a minute and
 * ~0.7 GB), `parallel` at a time, and records it in the index. The index is rewritten after every
 * stylesheet so an interrupted build keeps what it finished.
 */
export async function compileSefs(index: BuildIndex, entries: readonly IndexEntry[], opts: { parallel: number; onEvent?: (e: CompileEvent) => void }): Promise<void> {
  const queue = [...entries];
  let started = 0;
  let finished = 0;
  const next = async (): Promise<void> => {
    const entry = queue.shift();
    if (!entry) return;
    opts.onEvent?.({ kind: "start", entry, n: ++started, of: entries.length });
    const sef = sefFile(entry.id);
    const compileSeconds = await exportSef(join(buildDir, entry.xslt), sef);
    writeAtomically(cacheKeyFile(sef), entry.cacheKey + "\n");
    entry.sef = sefOf(sef, compileSeconds);
    writeAtomically(indexPath, JSON.stringify(index, null, 2) + "\n");
    opts.onEvent?.({ kind: "done", entry, n: ++finished, of: entries.length });
    return next();
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.parallel) }, next));
}

interface SourceStylesheet {
  /** Absolute path of the XSLT before rewrites. */
  file: string;
  bytes: Buffer;
}

async function sourceStylesheet({ id, pin, patterns }: RuleEntry): Promise<SourceStylesheet | { skip: string }> {
  const pinned = pinnedFile(pin);
  if (!pin.path.endsWith(".sch")) return { file: pinned, bytes: readFileSync(pinned) };
  if (!existsSync(schematronModule)) {
    return { skip: `no Schematron compiler (src/schematron/compile.ts absent); ${id} not compiled` };
  }
  const { schematronToXslt } = (await import(schematronModule)) as {
    schematronToXslt(schPath: string, selection?: PatternSelection): Promise<string>;
  };
  const file = join(buildDir, "xslt", id + ".xsl");
  let xslt: string;
  try {
    xslt = await schematronToXslt(pinned, patterns);
  } catch (e) {
    throw new Error(`compiling ${id} to XSLT failed: ${(e as Error).message}`);
  }
  writeAtomically(file, xslt);
  return { file, bytes: readFileSync(file) };
}

/** The synced pinned file, re-verified: the build must never compile bytes other than the pin's. */
function pinnedFile(pin: Pin): string {
  const file = join(filesDir, pin.path);
  if (!existsSync(file)) throw new Error(`${pin.path} is not synced; run the sync step first`);
  const actual = sha256Hex(readFileSync(file));
  if (actual !== pin.sha256) {
    throw new Error(`${file}: SHA-256 expected ${pin.sha256}, got ${actual}; run the sync step again`);
  }
  return file;
}

const rel = (abs: string) => relative(buildDir, abs).split("\\").join("/");
/** Where the SEF of the rule entry `id` is written, with its cache key beside it. */
const sefFile = (id: string) => join(buildDir, "sef", id + ".sef.json");
const cacheKeyFile = (sef: string) => sef.replace(/\.sef\.json$/, ".cachekey");

function sefOf(sef: string, compileSeconds: number | null): Sef {
  const bytes = readFileSync(sef);
  return { path: rel(sef), sha256: sha256Hex(bytes), bytes: bytes.byteLength, compileSeconds };
}

function prepareOne({ id, pin, patterns }: RuleEntry, source: SourceStylesheet, previous: IndexEntry | undefined): IndexEntry {
  const cacheKey = sha256Hex(`rewrites-v${REWRITES_VERSION}\n${sha256Hex(source.bytes)}`);
  const sef = sefFile(id);
  const rewrittenFile = join(buildDir, "rewritten", pin.path.endsWith(".sch") ? id + ".xsl" : id);

  const text = source.bytes.toString("utf8");
  const { text: rewritten, counts } = rewriteStylesheet(text, pin.path);
  writeAtomically(rewrittenFile, rewritten);
  const codeLists = documentTargets(text, pin.path);
  // document() resolves against the stylesheet, and after -relocate:on against the SEF: keep
  // a copy of each code list beside both.
  for (const cl of codeLists) {
    for (const dir of [dirname(rewrittenFile), dirname(sef)]) {
      mkdirSync(dir, { recursive: true });
      copyFileSync(join(filesDir, cl), join(dir, posix.basename(cl)));
    }
  }
  const cached = existsSync(sef) && existsSync(cacheKeyFile(sef)) && readFileSync(cacheKeyFile(sef), "utf8").trim() === cacheKey;
  const seconds = previous?.cacheKey === cacheKey ? (previous.sef?.compileSeconds ?? null) : null;
  return {
    id,
    key: pin.key,
    version: pin.version,
    path: pin.path,
    ...(patterns && { patterns }),
    sha256: pin.sha256,
    sef: cached ? sefOf(sef, seconds) : null,
    xslt: rel(rewrittenFile),
    sourceXslt: rel(source.file),
    rewrites: counts,
    codeLists,
    cacheKey,
  };
}

/** Runs `xslt3 -export` into a temp file and renames it into place; resolves to the seconds taken. */
function exportSef(xsl: string, sef: string): Promise<number> {
  mkdirSync(dirname(sef), { recursive: true });
  const tmp = sef.replace(/\.sef\.json$/, `.tmp-${process.pid}.sef.json`);
  const started = performance.now();
  return new Promise((resolveSeconds, reject) => {
    const child = spawn("node", [xslt3, `-xsl:${xsl}`, `-export:${tmp}`, "-nogo", "-relocate:on", "-t"]);
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => reject(new Error(`cannot run xslt3 with node: ${error.message}`)));
    child.on("close", (status) => {
      if (status !== 0 || !existsSync(tmp)) return reject(new Error(`xslt3 failed on ${xsl} (exit ${status}):\n${output}`));
      renameSync(tmp, sef);
      resolveSeconds(Math.round((performance.now() - started) / 100) / 10);
    });
  });
}

/**
 * Pinned files a stylesheet reads through document('literal'), as rulesets-root relative paths.
 * Only literal arguments can be known at build time; a computed one (SchXslt's
 * document($initial-document-uri)) reads the input itself.
 */
export function documentTargets(xslt: string, entryPath: string): string[] {
  const found = new Set<string>();
  for (const m of xslt.matchAll(/document\(\s*(?:'([^']+)'|"([^"]+)"|&apos;([^&]+)&apos;|&quot;([^&]+)&quot;)\s*\)/g)) {
    const target = documentTarget(entryPath, m[1] ?? m[2] ?? m[3] ?? m[4]);
    if (!pinByPath(target)) throw new Error(`${entryPath} reads ${target} with document(), which is not pinned`);
    found.add(target);
  }
  return [...found].sort();
}
