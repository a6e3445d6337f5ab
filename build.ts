/**
 * Builds `dist/einvoice`: one executable with the runtime, the migrations, the validation worker and
 * the ruleset bundle inside, so it runs with nothing beside it but its SQLite file.
 */
import { $ } from "bun";
import { mkdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const outfile = resolve(process.argv[2] ?? join(import.meta.dir, "dist", "einvoice"));
const bun = process.execPath;
// The build steps name files relative to the repository, wherever the build is started from.
process.chdir(import.meta.dir);
const started = performance.now();

// The executable embeds build/assets/rulesets.bundle with every rule file's SEF, so it runs
// VALIDATION_ENGINE=saxonjs and falls back to SaxonJS offline (docs/architecture.md, "Build pipeline
// for rules"). The step does nothing when the bundle is current; otherwise it compiles what is missing.
await $`${bun} scripts/rulesets.ts all --sef all`;

mkdirSync(dirname(outfile), { recursive: true });
// The worker is a second entrypoint, or the executable would not contain it. The pool loads it as
// `./worker-main.ts` next to its own module; inside the executable every module of the main
// entrypoint lives at /$bunfs/root/, so `[name].[ext]` puts the worker there too (as worker-main.js,
// which Bun resolves for worker-main.ts) instead of under workers/. Splitting keeps modules that
// only the worker or `validate` need (SaxonJS, libxml2-wasm, pdf-lib) out of what every command
// parses at start: `--help` takes 0.04 s and 46 MB RSS instead of 0.13 s and 55 MB. The modules go
// in as JavaScriptCore bytecode, which nothing parses at start either: `validate` of a missing file
// (start, modules, engine) 0.19 -> 0.08 s, of a typical invoice 0.51 -> 0.43 s; 15 MiB more file (119 -> 134 MiB).
await $`${bun} build --compile --minify --splitting --bytecode --format=esm src/main.ts src/workers/worker-main.ts --entry-naming ${"[name].[ext]"} --outfile ${outfile}`.quiet();
const size = statSync(outfile).size;
console.log(`built ${outfile}: ${(size / 1024 / 1024).toFixed(1)} MiB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
