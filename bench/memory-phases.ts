/**
 * Where the memory goes (diagnostic; `bun run bench` has the figures and targets): each load of the
 * bench on a fresh server, with its idle RSS, the peak (VmHWM), what it holds at the end and two
 * seconds later, and validations per second.
 *
 *   bun bench/memory-phases.ts [PHASE-SUBSTRING]
 *
 * Runs dist/einvoice (PROBE_SOURCE=1: src/main.ts instead); the environment passes through, so
 * `MEMORY_TARGET_MIB=off bun bench/memory-phases.ts "900 lines"` compares heap sizing.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load, peakRssMiB, rssMiB } from "./http";
import { cliOf, createKeys, startServer } from "./server";
import { multiplyLines } from "./lines";
import { LINES_SOURCE, PROFILE_DOCUMENTS, franceCtcDocument, validateLoads, validateOverHttp, type BenchDocument } from "./validation";
import { ratioDocuments } from "./ratios";
import { GENERATE_TARGETS, generateOverHttp, invoiceWithLines } from "./generate";

const exe = join(import.meta.dir, "..", "dist", "einvoice");
const command = process.env.PROBE_SOURCE ? [process.execPath, join(import.meta.dir, "..", "src", "main.ts")] : [exe];
const dir = mkdtempSync(join(tmpdir(), "memory-phases-"));
const db = join(dir, "bench.sqlite");
const cli = cliOf(command, db);
const keys = createKeys(cli, "m", 60);

async function withServer(label: string, run: (base: string) => Promise<unknown>) {
  const server = await startServer(command, db, keys[0]);
  await server.workersReady;
  await Bun.sleep(300);
  const pid = server.proc.pid;
  const idle = rssMiB(pid);
  const rate = await run(server.base);
  const end = rssMiB(pid);
  await Bun.sleep(2000);
  console.log(`${label.padEnd(44)} idle ${idle.toFixed(0)}  peak ${peakRssMiB(pid).toFixed(0)}  at end ${end.toFixed(0)}  2 s later ${rssMiB(pid).toFixed(0)} MiB${typeof rate === "number" ? `  ${rate.toFixed(0)}/s` : ""}`);
  server.proc.kill();
  await server.proc.exited;
}

const documents: BenchDocument[] = [...PROFILE_DOCUMENTS, franceCtcDocument(dir)];
const lines = (n: number): BenchDocument => {
  const file = join(dir, `lines-${n}.xml`);
  writeFileSync(file, multiplyLines(readFileSync(LINES_SOURCE, "utf8"), n));
  return { name: `${n} lines`, file, profile: "xrechnung" };
};
const only = process.argv[2];
const phases: [string, (base: string) => Promise<unknown>][] = [
  ...documents.map((d): [string, (base: string) => Promise<unknown>] => [`validate ${d.name}`, async (base) => (await validateOverHttp(base, keys, d, 4, 6, 12_000)).result.perSecond]),
  ["validate 900 lines, 1 client", async (base) => void (await validateOverHttp(base, keys, lines(900), 1, 10, 50))],
  ["validate 900 lines, 4 clients", async (base) => void (await validateOverHttp(base, keys, lines(900), 4, 10, 50))],
  ["generate (all targets, 2 and 500 lines)", async (base) => void (await generateOverHttp(base, keys, 2, 6))],
  ...GENERATE_TARGETS.map((t): [string, (base: string) => Promise<unknown>] => [`generate 500 lines ${t.name}`, async (base) => {
    const body = JSON.stringify({ ...t.request, output: "xml", invoice: invoiceWithLines(500, t.locale) });
    await load((i) => fetch(`${base}/v1/generate`, { method: "POST", headers: { "x-api-key": keys[i % keys.length], "content-type": "application/json" }, body }), 2, 6, 8);
  }]),
  ["mixed profiles, 2 clients (the bench's JIT comparison)", async (base) => {
    const mixed = documents.map((d) => ({ body: readFileSync(d.file), type: d.file.endsWith(".pdf") ? "application/pdf" : "application/xml" }));
    const post = (i: number) => fetch(`${base}/v1/validate`, { method: "POST", headers: { "x-api-key": keys[i % keys.length], "content-type": mixed[i % mixed.length].type }, body: mixed[i % mixed.length].body });
    return (await load(post, 2, 15)).perSecond;
  }],
  ["all validate phases in turn", async (base) => { for (const d of documents) await validateOverHttp(base, keys, d, 4, 6, 12_000); }],
  // The validate, latency and generate loads `bun run bench` puts on its first server, in its order
  // (its short GET /v1/me load aside): where the peak the bench reports comes from.
  ["the bench's first server (validate, latency, generate)", async (base) => {
    await validateLoads(base, keys, ratioDocuments(dir), documents, 4);
    await generateOverHttp(base, keys, 2, 6);
  }],
];
for (const [label, run] of phases) if (!only || label.includes(only)) await withServer(label, run);
