/**
 * Builds `dist/einvoice`: one executable with the runtime, the migrations, the validation worker and
 * the ruleset bundle inside, so it runs with nothing beside it but its SQLite file.
 */
import { $ } from "bun";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { bundleFile } from "./src/assets/build-bundle";
import { indexPath } from "./src/rulesets/compile";

const outfile = resolve(process.argv[2] ?? join(import.meta.dir, "dist", "einvoice"));
const bun = process.execPath;
// The build steps name files relative to the repository, wherever the build is started from.
process.chdir(import.meta.dir);
const started = performance.now();

// The executable embeds build/assets/rulesets.bundle; a missing or stale one is remade first
// (sync and compile are cached, so this costs seconds unless the pins changed).
if (!existsSync(bundleFile) || !existsSync(indexPath) || statSync(bundleFile).mtimeMs < statSync(indexPath).mtimeMs) {
  await $`${bun} scripts/rulesets.ts all`;
  await $`${bun} scripts/bundle-assets.ts`;
}

mkdirSync(dirname(outfile), { recursive: true });
// The worker is a second entrypoint, or the executable would not contain it. The pool loads it as
// `./worker-main.ts` next to its own module; inside the executable every module of the main
// entrypoint lives at /$bunfs/root/, so `[name].[ext]` puts the worker there too (as worker-main.js,
// which Bun resolves for worker-main.ts) instead of under workers/. Splitting keeps modules that
// only the worker or `validate` need (SaxonJS, libxml2-wasm, pdf-lib) out of what every command
// parses at start: `--help` takes 0.04 s and 46 MB RSS instead of 0.13 s and 55 MB.
await $`${bun} build --compile --minify --splitting src/main.ts src/workers/worker-main.ts --entry-naming ${"[name].[ext]"} --outfile ${outfile}`.quiet();
const size = statSync(outfile).size;
console.log(`built ${outfile}: ${(size / 1024 / 1024).toFixed(1)} MiB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
