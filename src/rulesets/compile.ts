// Compiles every pinned rule entry (XSLT, or Schematron via our own .sch -> XSLT compiler) to a
// SaxonJS SEF at build time, and writes build/rulesets/index.json describing what was built.
//
// Layout under build/rulesets/:
//   files/<path>               pinned bytes (sync.ts)
//   xslt/<path>.xsl            XSLT generated from a pinned .sch
//   rewritten/<path>[.xsl]     the copy actually compiled (rewrites.ts applied)
//   sef/<path>.sef.json        the SEF, with <name>.cachekey beside it and the code lists it reads

import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import { documentTarget, isRuleEntry, pinByPath, pins, type Pin } from "./pins";
import { REWRITES_VERSION, rewriteStylesheet } from "./rewrites";
import { buildDir, filesDir, repoRoot, sha256, writeAtomically } from "./sync";

export const indexPath = join(buildDir, "index.json");
const schematronModule = join(repoRoot, "src/schematron/compile.ts");
const xslt3 = join(repoRoot, "node_modules/xslt3/xslt3.js");

export interface IndexEntry {
  key: string;
  version: string;
  /** The pinned entry file, relative to the rulesets root. */
  path: string;
  /** SHA-256 of the pinned entry file. */
  sha256: string;
  /** Relative to build/rulesets. */
  sef: string;
  sefSha256: string;
  sefBytes: number;
  /** The stylesheet the SEF was compiled from (after rewrites), relative to build/rulesets. */
  xslt: string;
  /** The stylesheet before rewrites: the pinned file, or the XSLT our compiler generated from the .sch. */
  sourceXslt: string;
  rewrites: Record<string, number>;
  /** Pinned files (rulesets-root relative) the stylesheet reads with document(); copied beside the SEF. */
  codeLists: string[];
  engine: "saxonjs";
  cacheKey: string;
  compileSeconds: number | null;
}

export interface BuildIndex {
  rewritesVersion: number;
  entries: IndexEntry[];
}

type CompileEvent =
  | { kind: "cached"; pin: Pin }
  | { kind: "start"; pin: Pin }
  | { kind: "done"; pin: Pin; entry: IndexEntry }
  | { kind: "skipped"; pin: Pin; reason: string };

export interface CompileOptions {
  /** Compile only entries whose path contains one of these substrings. */
  only?: string[];
  /** Recompile even on a cache hit. */
  force?: boolean;
  onEvent?: (e: CompileEvent) => void;
}

export function readIndex(): BuildIndex | null {
  return existsSync(indexPath) ? (JSON.parse(readFileSync(indexPath, "utf8")) as BuildIndex) : null;
}

/**
 * Compiles the rule entries one at a time (each xslt3 export takes up to a minute and ~0.7 GB).
 * The index is rewritten after every stylesheet so an interrupted build keeps what it finished.
 * Returns the entries that could not be compiled because the Schematron compiler is absent.
 */
export async function compileRulesets(opts: CompileOptions = {}): Promise<{ index: BuildIndex; skipped: Pin[] }> {
  const index: BuildIndex = readIndex() ?? { rewritesVersion: REWRITES_VERSION, entries: [] };
  index.rewritesVersion = REWRITES_VERSION;
  const skipped: Pin[] = [];
  const selected = pins
    .filter(isRuleEntry)
    .filter((p) => !opts.only?.length || opts.only.some((s) => p.path.includes(s)))
    // Published XSLT first: a problem in our own .sch compiler must not hold those back.
    .sort((a, b) => Number(a.path.endsWith(".sch")) - Number(b.path.endsWith(".sch")));
  for (const pin of selected) {
    const source = await sourceStylesheet(pin);
    if ("skip" in source) {
      skipped.push(pin);
      opts.onEvent?.({ kind: "skipped", pin, reason: source.skip });
      continue;
    }
    const entry = compileOne(pin, source, opts);
    index.entries = index.entries.filter((e) => e.path !== pin.path).concat(entry);
    index.entries.sort((a, b) => a.path.localeCompare(b.path));
    writeAtomically(indexPath, JSON.stringify(index, null, 2) + "\n");
  }
  return { index, skipped };
}

interface SourceStylesheet {
  /** Absolute path of the XSLT before rewrites. */
  file: string;
  bytes: Buffer;
}

async function sourceStylesheet(pin: Pin): Promise<SourceStylesheet | { skip: string }> {
  const pinned = pinnedFile(pin);
  if (!pin.path.endsWith(".sch")) return { file: pinned, bytes: readFileSync(pinned) };
  if (!existsSync(schematronModule)) {
    return { skip: `no Schematron compiler (src/schematron/compile.ts absent); ${pin.path} not compiled` };
  }
  const { schematronToXslt } = (await import(schematronModule)) as {
    schematronToXslt(schPath: string): Promise<string>;
  };
  const file = join(buildDir, "xslt", pin.path + ".xsl");
  let xslt: string;
  try {
    xslt = await schematronToXslt(pinned);
  } catch (e) {
    throw new Error(`compiling ${pin.path} to XSLT failed: ${(e as Error).message}`);
  }
  writeAtomically(file, xslt);
  return { file, bytes: readFileSync(file) };
}

/** The synced pinned file, re-verified: the build must never compile bytes other than the pin's. */
function pinnedFile(pin: Pin): string {
  const file = join(filesDir, pin.path);
  if (!existsSync(file)) throw new Error(`${pin.path} is not synced; run the sync step first`);
  const actual = sha256(readFileSync(file));
  if (actual !== pin.sha256) {
    throw new Error(`${file}: SHA-256 expected ${pin.sha256}, got ${actual}; run the sync step again`);
  }
  return file;
}

function compileOne(pin: Pin, source: SourceStylesheet, opts: CompileOptions): IndexEntry {
  const rel = (abs: string) => relative(buildDir, abs).split("\\").join("/");
  const cacheKey = sha256(`rewrites-v${REWRITES_VERSION}\n${sha256(source.bytes)}`);
  const sef = join(buildDir, "sef", pin.path + ".sef.json");
  const keyFile = sef.replace(/\.sef\.json$/, ".cachekey");
  const rewrittenFile = join(buildDir, "rewritten", pin.path.endsWith(".sch") ? pin.path + ".xsl" : pin.path);

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

  let compileSeconds: number | null = null;
  const cached = existsSync(sef) && existsSync(keyFile) && readFileSync(keyFile, "utf8").trim() === cacheKey;
  if (cached && !opts.force) {
    opts.onEvent?.({ kind: "cached", pin });
  } else {
    opts.onEvent?.({ kind: "start", pin });
    compileSeconds = exportSef(rewrittenFile, sef);
    writeAtomically(keyFile, cacheKey + "\n");
  }
  const sefBytes = readFileSync(sef);
  const previous = readIndex()?.entries.find((e) => e.path === pin.path && e.cacheKey === cacheKey);
  const entry: IndexEntry = {
    key: pin.key,
    version: pin.version,
    path: pin.path,
    sha256: pin.sha256,
    sef: rel(sef),
    sefSha256: sha256(sefBytes),
    sefBytes: statSync(sef).size,
    xslt: rel(rewrittenFile),
    sourceXslt: rel(source.file),
    rewrites: counts,
    codeLists,
    engine: "saxonjs",
    cacheKey,
    compileSeconds: compileSeconds ?? previous?.compileSeconds ?? null,
  };
  if (compileSeconds !== null) opts.onEvent?.({ kind: "done", pin, entry });
  return entry;
}

/** Runs `xslt3 -export` into a temp file and renames it into place; returns the seconds taken. */
function exportSef(xsl: string, sef: string): number {
  mkdirSync(dirname(sef), { recursive: true });
  const tmp = sef.replace(/\.sef\.json$/, `.tmp-${process.pid}.sef.json`);
  const started = performance.now();
  const run = spawnSync("node", [xslt3, `-xsl:${xsl}`, `-export:${tmp}`, "-nogo", "-relocate:on", "-t"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) throw new Error(`cannot run xslt3 with node: ${run.error.message}`);
  if (run.status !== 0 || !existsSync(tmp)) {
    throw new Error(`xslt3 failed on ${xsl} (exit ${run.status}):\n${run.stderr}${run.stdout}`);
  }
  renameSync(tmp, sef);
  return Math.round((performance.now() - started) / 100) / 10;
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
