/**
 * Builds `dist/einvoice`: one executable with the runtime, the migrations and (once compiled) the
 * rulesets inside, so it runs with nothing beside it but its SQLite file.
 */
import { $ } from "bun";
import { mkdirSync, statSync } from "node:fs";

const outfile = process.argv[2] ?? "dist/einvoice";
mkdirSync("dist", { recursive: true });
const started = performance.now();
await $`bun build --compile --minify src/main.ts --outfile ${outfile}`.quiet();
const size = statSync(outfile).size;
console.log(`built ${outfile}: ${(size / 1024 / 1024).toFixed(1)} MiB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
