// Build step for the pinned rulesets: what `npm start`, `npm test` and `bun build.ts` run first.
//
//   bun scripts/rulesets.ts all [--sef needed|all] [--force]    sync, prepare, SEFs, bundle
//   bun scripts/rulesets.ts sync                                 copy (or download) and verify every pinned file
//   bun scripts/rulesets.ts compile [--sef needed|all] [--force] [--only <substr>]...   all but the sync
//
// `--sef needed` (the default) compiles a SaxonJS SEF only for the rule files the native engine has
// no plan for; `--sef all` (the default when VALIDATION_ENGINE=saxonjs) for every rule file, which
// SaxonJS needs to judge them all. `all` does nothing when the bundle was built from the same inputs
// with the SEFs asked for (build/assets/rulesets.bundle.inputs); `--force` rebuilds and recompiles.
//
// Environment: RULESETS_MIRROR = directory laid out like the pins (default ../shared/rulesets
// when present; otherwise files are downloaded from their upstream URLs).

import { availableParallelism, totalmem } from "node:os";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { buildBundle, bundleFile, bundleSummary, nativeModels, planless } from "../src/assets/build-bundle";
import { compileSefs, prepareRulesets } from "../src/rulesets/compile";
import { mirrorDir, repoRoot, syncRulesets, writeAtomically } from "../src/rulesets/sync";
import { sha256Hex } from "../src/rulesets/seal";
import { pins } from "../src/rulesets/pins";
import { ruleEngineChoice } from "../src/config";

type SefScope = "needed" | "all";

/** What the bundle is made from besides the pinned bytes (which pins.json's hashes stand for). */
const INPUT_FILES = ["rulesets/pins.json"];
const INPUT_DIRS = ["src/rulesets", "src/schematron", "src/native", "src/assets"];
const stampFile = `${bundleFile}.inputs`;

function inputsHash(): string {
  const inDirs = INPUT_DIRS.flatMap((dir) =>
    readdirSync(join(repoRoot, dir), { withFileTypes: true, recursive: true })
      .filter((d) => d.isFile())
      .map((d) => relative(repoRoot, join(d.parentPath, d.name))),
  );
  const files = [...INPUT_FILES, ...inDirs].sort();
  return sha256Hex(files.map((p) => `${p}\n${sha256Hex(readFileSync(join(repoRoot, p)))}`).join("\n"));
}

/** True when the bundle on disk was made from these inputs and holds the SEFs this scope needs. */
function upToDate(inputs: string, scope: SefScope): boolean {
  if (!existsSync(bundleFile) || !existsSync(stampFile)) return false;
  const stamp = JSON.parse(readFileSync(stampFile, "utf8")) as { inputs: string; sef: SefScope };
  return stamp.inputs === inputs && (scope === "needed" || stamp.sef === "all");
}

/** One progress line of a step that works through `of` items. */
const progress = (n: number, of: number, text: string) => console.log(`  [${n}/${of}] ${text}`);

async function sync(): Promise<void> {
  const mirror = mirrorDir();
  console.log(mirror ? `sync: ${pins.length} pinned files from mirror ${mirror}` : `sync: no mirror, downloading ${pins.length} pinned files from upstream`);
  let n = 0;
  const r = await syncRulesets({
    mirror,
    onFile: (pin, action) => {
      n++;
      // Downloads are slow enough to show each; copies are shown every 50 so the count moves.
      if (action === "downloaded" || (action === "copied" && n % 50 === 0)) progress(n, pins.length, `${action} ${pin.path}`);
    },
  });
  console.log(`sync: ${r.present} already present, ${r.copied} copied, ${r.downloaded} downloaded; all hashes verified`);
}

/**
 * Exports run side by side, one per core, as long as each can have the ~0.7 GB an xslt3 export
 * takes (with room to spare for the rest of the machine).
 */
const parallelExports = () => Math.max(1, Math.min(availableParallelism(), Math.floor(totalmem() / 1.5e9)));

async function compile(args: string[], scope: SefScope): Promise<void> {
  const only = args.flatMap((a, i) => (args[i - 1] === "--only" ? [a] : []));
  const started = performance.now();
  console.log("prepare: XSLT, rewrites and code lists of every rule file, then the native engine's models");
  const { index, skipped } = await prepareRulesets({ only, onEvent: (e) => console.warn(`  SKIPPED  ${e.reason}`) });
  const models = nativeModels(index.entries);
  const withoutPlan = index.entries.filter((e) => planless(e, models));
  const wanted = (scope === "all" ? index.entries : withoutPlan).filter((e) => !only.length || only.some((s) => e.id.includes(s)));
  const toCompile = args.includes("--force") ? wanted : wanted.filter((e) => !e.sef);
  const parallel = parallelExports();
  console.log(
    `prepare: ${index.entries.length} rule files, ${index.entries.length - withoutPlan.length} with a native plan; ` +
      `SaxonJS SEFs wanted for ${scope === "all" ? "all" : "the planless"} ${wanted.length}: ${wanted.length - toCompile.length} cached, ` +
      `${toCompile.length} to compile${toCompile.length ? ` (${parallel} at a time, up to half a minute each)` : ""}`,
  );
  await compileSefs(index, toCompile, {
    parallel,
    onEvent: (e) =>
      e.kind === "start"
        ? progress(e.n, e.of, `compiling ${e.entry.id}`)
        : progress(e.n, e.of, `done ${e.entry.id}: ${e.entry.sef!.compileSeconds} s, ${(e.entry.sef!.bytes / 1e6).toFixed(1)} MB`),
  });
  const bundle = buildBundle(index, models);
  const secs = ((performance.now() - started) / 1000).toFixed(0);
  console.log(`${bundleSummary(bundle)} (${secs} s)`);
  if (skipped.length) console.warn(`compile: ${skipped.length} Schematron entries NOT prepared (no Schematron compiler yet)`);
}

const [command, ...rest] = process.argv.slice(2);
const sefArg = rest[rest.indexOf("--sef") + 1];
try {
  if (rest.includes("--sef") && sefArg !== "needed" && sefArg !== "all") throw new Error("--sef takes needed or all");
  // SaxonJS judges every rule file when VALIDATION_ENGINE=saxonjs, so the start it precedes needs every SEF.
  const scope: SefScope = rest.includes("--sef") ? (sefArg as SefScope) : ruleEngineChoice() === "saxonjs" ? "all" : "needed";
  if (command === "sync") await sync();
  else if (command === "compile") await compile(rest, scope);
  else if (command === "all") {
    const inputs = inputsHash();
    if (!rest.includes("--force") && upToDate(inputs, scope)) {
      console.log(`rulesets: up to date (${bundleFile}; --force rebuilds)`);
    } else {
      await sync();
      await compile(rest, scope);
      writeAtomically(stampFile, JSON.stringify({ inputs, sef: scope }) + "\n");
    }
  } else {
    console.error("usage: bun scripts/rulesets.ts all [--sef needed|all] [--force] | sync | compile [--sef needed|all] [--force] [--only <substr>]...");
    process.exit(2);
  }
} catch (e) {
  console.error(`rulesets ${command}: ${(e as Error).message}`);
  process.exit(1);
}
