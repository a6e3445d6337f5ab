/**
 * `bun run bench`: figures of the service on this machine, printed as tables. Targets live here,
 * never in unit tests. Runs the built executable (building it first when missing); the SaxonJS
 * per-stylesheet timings run in-process from source, next to Saxon-HE when Java has it.
 * Heavy steps run one after another: the machine may be shared.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { load, peakRssMiB, rssMiB, type LoadResult } from "./http";
import { cliOf, createKeys, startServer as startBenchServer, type Server } from "./server";
import { multiplyLines } from "./lines";
import { franceCtcDocument, LINES_SOURCE, PROFILE_DOCUMENTS, median, PACED_PER_SECOND, PACED_SECONDS, PACED_SETTLE_SECONDS, ruleFileOf, timeInProcess, VALIDATE_SECONDS, validateLoads, xslPath, type BenchDocument, type TimedFigure } from "./validation";
import { jobKey, saxonHeMissing, saxonHeVersion, timeOnSaxonHe, type SaxonJob } from "./saxon-he";
import { ratioDocuments } from "./ratios";
import { timeOffline } from "./offline";
import { TARGETS } from "./targets";
import type { TimedLayer } from "./timed-validate";
import { generateOverHttp, hybridPdfTimings } from "./generate";
import { convertTimings } from "./convert";
import { Bundle } from "../src/assets/bundle-format";
import { bundledEntries } from "../src/assets/bundled-entries";

const exe = join(import.meta.dir, "..", "dist", "einvoice");
if (!existsSync(exe) || process.env.BENCH_REBUILD) {
  const built = Bun.spawnSync([process.execPath, join(import.meta.dir, "..", "build.ts")], { stdout: "inherit", stderr: "inherit" });
  if (built.exitCode !== 0) throw new Error("build failed");
}
const dir = mkdtempSync(join(tmpdir(), "bench-"));
const db = join(dir, "bench.sqlite");
const cli = cliOf([exe], db);
const cores = navigator.hardwareConcurrency;
const memoryTargetNote = process.env.MEMORY_TARGET_MIB ? `MEMORY_TARGET_MIB=${process.env.MEMORY_TARGET_MIB}` : "default memory target";
// Other work on the machine moves every figure; the load average before and after says how much.
const loadBefore = loadavg()[0];
const hasCorpus = existsSync(LINES_SOURCE);
const LINE_COUNTS = [100, 1000, 5000] as const;
/** Twice as many clients as workers (4 on 2 cores), so a worker never waits for the next request's round trip. */
const CLIENTS = cores * 2;
/** The profile documents, the France CTC one derived from them, and the synthetic many-line invoices. */
const documents: BenchDocument[] = hasCorpus ? [...PROFILE_DOCUMENTS, franceCtcDocument(dir)] : [];
const linesDocuments: (BenchDocument & { lines: number })[] = [];
if (hasCorpus) {
  const source = readFileSync(LINES_SOURCE, "utf8");
  for (const lines of LINE_COUNTS) {
    const file = join(dir, `lines-${lines}.xml`);
    writeFileSync(file, multiplyLines(source, lines));
    linesDocuments.push({ name: `${lines}-line XRechnung UBL (${(statSync(file).size / 1024).toFixed(0)} KiB)`, file, profile: "xrechnung", lines });
  }
}
/** Issue 23's ratio documents: typical XRechnung UBL, 900-line UBL, XRechnung CII and Factur-X EXTENDED, each under the 1 MiB cap. */
const ratioDocs = hasCorpus ? ratioDocuments(dir) : [];
/** The 5,000-line document may take minutes on SaxonJS; this bounds it (seconds). */
const LINES_BOUND_S = Number(process.env.BENCH_LINES_BOUND_S ?? 240);

// Burst allowances are per organization, so the load is spread over enough of them never to hit
// one; /v1/me and validation use separate organizations because they run within the same minute.
const ORGS = 100;
const VALIDATION_ORGS = 120;
const keys = createKeys(cli, "bench", ORGS);
const validationKeys = createKeys(cli, "bench-validation", VALIDATION_ORGS);

const startServer = (env: Record<string, string> = {}) => startBenchServer([exe], db, keys[0], env);

/** The highest RSS each server of this run reached (its VmHWM, read before it stops): a true peak, not a sample. */
const serverPeaks: [string, number][] = [];
let peakRss = 0;

async function stopServer(server: Server, label: string): Promise<void> {
  const peak = peakRssMiB(server.proc.pid);
  serverPeaks.push([label, peak]);
  peakRss = Math.max(peakRss, peak);
  server.proc.kill();
  await server.proc.exited;
}

const ms = (v: number) => (v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${v.toFixed(v < 10 ? 2 : 0)} ms`);
const percentiles = (r: LoadResult) => `p50 ${ms(r.p50ms)}, p95 ${ms(r.p95ms)}, p99 ${ms(r.p99ms)}`;
const latency = (r: LoadResult) => `${r.perSecond.toFixed(1)}/s, ${percentiles(r)}`;

// 1. Start, idle, GET /v1/me (workers loaded first, so their warm-up does not share the CPU).
const server = await startServer();
const workersReadyMs = await server.workersReady;
await Bun.sleep(500);
const idleRss = rssMiB(server.proc.pid);
const me = await load((i) => fetch(`${server.base}/v1/me`, { headers: { "x-api-key": keys[i % ORGS] } }), 32, 5, ORGS * 490);
const meRss = rssMiB(server.proc.pid);

// 2. POST /v1/validate: issue 23's ratio documents sequentially (one client, one keep-alive
// connection, service warm), each profile with `CLIENTS` concurrent clients, the typical invoice paced.
const { sequentialFigures, throughputFigures: httpFigures, pacedFigure, settledFigures } = await validateLoads(server.base, validationKeys, ratioDocs, documents, CLIENTS);
// 2a. POST /v1/generate with verify, per standard: typical and 500-line invoices.
const generateFigures = await generateOverHttp(server.base, validationKeys, cores, VALIDATE_SECONDS);
await stopServer(server, "the server of the GET, validate and generate loads");

// 3. Does turning off JSC's concurrent JIT help when the workers already use every core? One run
// each way on a freshly started server: the first pass over all profiles (stylesheets still being
// loaded and compiled, where background JIT threads compete with the workers), then the same mixed
// load once warm.
const jit: { label: string; firstPassMs: number; result: LoadResult }[] = [];
if (hasCorpus) {
  const mixed = documents.map((d) => ({ body: readFileSync(d.file), type: d.file.endsWith(".pdf") ? "application/pdf" : "application/xml" }));
  for (const [label, env] of [["default (concurrent JIT on)", {}], ["BUN_JSC_useConcurrentJIT=0", { BUN_JSC_useConcurrentJIT: "0" }]] as const) {
    const s = await startServer(env);
    await s.workersReady;
    const post = async (i: number) => {
      const res = await fetch(`${s.base}/v1/validate`, {
        method: "POST",
        headers: { "x-api-key": validationKeys[i % VALIDATION_ORGS], "content-type": mixed[i % mixed.length].type },
        body: mixed[i % mixed.length].body,
      });
      if (res.status !== 200) throw new Error(`POST /v1/validate answered ${res.status}: ${await res.text()}`);
      return res;
    };
    const firstPass = performance.now();
    await load(post, cores, Infinity, mixed.length * cores * 2);
    const firstPassMs = performance.now() - firstPass;
    jit.push({ label, firstPassMs, result: await load(post, cores, 15) });
    await stopServer(s, `the mixed-profile server, ${label}`);
  }
}

// 4. In-process timings on the native engine and on SaxonJS: each profile document, then
// synthetic many-line invoices. SaxonJS on the largest document can take minutes: bounded.
interface TimedRow {
  name: string;
  xml: string;
  expectValid: boolean;
  native: TimedFigure;
  saxonjs: TimedFigure;
  saxonRuns: number;
}
const timed: TimedRow[] = [];
if (hasCorpus) {
  for (const [i, document] of documents.entries()) {
    const xml = join(dir, `profile-${i}.xml`);
    const job = { file: document.file, warmups: 2, runs: 5, dumpXml: xml };
    timed.push({
      name: document.name,
      xml,
      expectValid: document.valid ?? true,
      native: await timeInProcess({ ...job, engine: "native", runs: 50 }, 120),
      saxonjs: await timeInProcess({ ...job, engine: "saxonjs" }, 120),
      saxonRuns: 20,
    });
  }
  for (const document of linesDocuments) {
    const runs = document.lines >= 1000 ? 1 : 3;
    // Small enough documents warm up on themselves; the large ones on their one-page source.
    const job = { file: document.file, warmWith: document.lines > 100 ? LINES_SOURCE : undefined, warmups: 1, runs };
    timed.push({
      name: document.name,
      xml: document.file,
      expectValid: true,
      native: await timeInProcess({ ...job, engine: "native", runs: runs * 5, warmWith: undefined }, LINES_BOUND_S),
      saxonjs: await timeInProcess({ ...job, engine: "saxonjs" }, document.lines >= 5000 ? LINES_BOUND_S : 180),
      saxonRuns: document.lines >= 5000 ? 3 : 10,
    });
  }
}

// 4a. Which rule files the service ran on each ratio document (and the XML they saw), in-process
// on the native engine as its workers run it; the HTTP answer's rule files are checked against them.
const ratioRuns: (TimedFigure & { xml: string })[] = [];
for (const [i, document] of ratioDocs.entries()) {
  const xml = join(dir, `ratio-seen-${i}.xml`);
  ratioRuns.push({ xml, ...(await timeInProcess({ file: document.file, engine: "native", warmups: 1, runs: 1, dumpXml: xml }, 120)) });
}

// 4b. 5,000 lines judged offline by the executable, whole process.
const offlineDocument = linesDocuments.find((d) => d.lines === 5000);
const offline = offlineDocument && (await timeOffline(exe, offlineDocument.file, 5, 60));

// 5. The same stylesheets on Saxon-HE, one warm JVM; the ratio documents last, when the JVM is warmest.
const saxonMissing = saxonHeMissing();
const saxonJobs: SaxonJob[] = [
  ...timed.flatMap((row) => row.saxonjs.layers.map((layer) => ({ xsl: xslPath(layer), xml: row.xml, warmups: 3, runs: row.saxonRuns }))),
  ...ratioRuns.flatMap((run, i) => run.layers.map((layer) => ({ xsl: xslPath(layer), xml: run.xml, ...(ratioDocs[i].lines > 100 ? { warmups: 10, runs: 15 } : { warmups: 200, runs: 100 }) }))),
];
const saxon = saxonMissing || !saxonJobs.length ? undefined : await timeOnSaxonHe(saxonJobs, 600);
// The bundle build.ts embedded (with every SEF) unless `npm start` has rebuilt build/ since (without them).
const rulesetBundle = readFileSync(join(import.meta.dir, "..", "build", "assets", "rulesets.bundle"));
const bundleEntries = [...bundledEntries(new Bundle(rulesetBundle)).values()];
const bundleSefs = `${bundleEntries.filter((e) => e.sef).length} of ${bundleEntries.length} rule files with a SaxonJS SEF`;
rmSync(dir, { recursive: true, force: true });

// Report.
const table = (rows: [string, string][]) => {
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
};
console.log(`einvoice bench (${cores} cores, 1-minute load average ${loadBefore.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at end)\n`);
table([
  ["executable size", `${(statSync(exe).size / 1024 / 1024).toFixed(1)} MiB (ruleset bundle in build/: ${(rulesetBundle.byteLength / 1024 / 1024).toFixed(1)} MiB, ${bundleSefs})`],
  ["cold start to first answered request", `${server.firstAnswerMs.toFixed(0)} ms`],
  [`cold start to ${cores} validation workers ready`, `${workersReadyMs.toFixed(0)} ms`],
  ["idle RSS (workers loaded)", `${idleRss.toFixed(1)} MiB`],
  ["GET /v1/me requests/s (32 concurrent, 5 s)", me.perSecond.toFixed(0)],
  ["GET /v1/me p50 / p99", `${me.p50ms.toFixed(2)} ms / ${me.p99ms.toFixed(2)} ms`],
  ["GET /v1/me statuses", JSON.stringify(me.statuses)],
  ["RSS after GET load", `${meRss.toFixed(1)} MiB`],
  [`peak RSS (VmHWM) of any server under the loads below, ${memoryTargetNote}`, `${peakRss.toFixed(1)} MiB`],
  ...serverPeaks.map(([label, peak]): [string, string] => [`  ${label}`, `${peak.toFixed(1)} MiB`]),
]);

if (!hasCorpus) {
  console.log(`\nvalidation figures skipped: no corpus at ${LINES_SOURCE}`);
  process.exit(0);
}

console.log(`\nPOST /v1/validate over HTTP, executable, ${cores} workers warm, ${CLIENTS} concurrent clients, ${VALIDATE_SECONDS} s each`);
table(
  httpFigures.map(({ document, result, mismatch }): [string, string] => [
    document.name,
    `${latency(result)}  (${result.requests} requests, statuses ${JSON.stringify(result.statuses)})${mismatch ? `  UNEXPECTED: ${mismatch}` : ""}`,
  ]),
);

/** A rule file by its file name. */
const fileName = (layer: TimedLayer) => layer.entry.split("/").pop()!;
/** Why ratio document i's figures do not compare, if they do not: an unexpected answer, or other rule files over HTTP than in-process. */
function ratioProblem(i: number): string | undefined {
  const [figure, run, document] = [sequentialFigures[i], ratioRuns[i], ratioDocs[i]];
  if (figure.mismatch) return figure.mismatch;
  if (run.valid !== (document.valid ?? true)) return `in-process valid ${run.valid}`;
  const [http, inProcess] = [figure.ruleFiles, run.layers.map(ruleFileOf)].map((files) => [...files].sort().join(", "));
  if (http !== inProcess) return `rule files over HTTP ${http || "none"}, in-process ${inProcess || "none"}`;
}
console.log("\nPOST /v1/validate over HTTP, sequential: one client, one keep-alive connection, service warm");
table(
  sequentialFigures.map(({ document, result }, i): [string, string] => {
    const expected = `expected ${document.valid ?? true ? "valid" : `invalid (${ratioDocs[i].note})`}, ${document.profile}`;
    const problem = ratioProblem(i);
    return [document.name, `${latency(result)}  (${result.requests} requests, statuses ${JSON.stringify(result.statuses)}; ${expected}; rule files ${ratioRuns[i].layers.map(fileName).join(" + ")})${problem ? `  UNEXPECTED: ${problem}` : ""}`];
  }),
);
if (settledFigures.length) {
  console.log("\nthe large documents again, after the 4-client loads of every profile and the paced load (every profile's rules loaded; no target: the ratios above are measured before them)");
  table(settledFigures.map(({ document, result, mismatch }): [string, string] => [document.name, `${latency(result)}  (${result.requests} requests${mismatch ? `; UNEXPECTED: ${mismatch}` : ""})`]));
}
if (pacedFigure) {
  console.log(`\nPOST /v1/validate over HTTP, ${documents[0].name} paced at ${PACED_PER_SECOND}/s (open loop, latency from when each request was due), ${PACED_SECONDS} s after ${PACED_SETTLE_SECONDS} s untimed`);
  table([[documents[0].name, `${latency(pacedFigure)}  (${pacedFigure.requests} requests, statuses ${JSON.stringify(pacedFigure.statuses)})`]]);
}

console.log(`\nPOST /v1/generate with verify over HTTP, ${cores} concurrent clients (500-line runs bounded to ${cores * 4} requests)`);
table(
  generateFigures.map(({ name, lines, result }): [string, string] => [
    `${name}, ${lines === 2 ? "typical (2 lines)" : `${lines} lines`}`,
    `${latency(result)}  (${result.requests} requests, statuses ${JSON.stringify(result.statuses)})`,
  ]),
);

console.log("\nhybrid PDF/A-3 generation (Factur-X EN16931, standard template), in-process, 20 runs");
table(
  (await hybridPdfTimings()).map((f): [string, string] => [
    `${f.lines} line${f.lines === 1 ? "" : "s"}`,
    `p50 ${ms(f.p50ms)}, p95 ${ms(f.p95ms)}, ${(f.bytes / 1024).toFixed(0)} KiB, ${f.pages} page${f.pages === 1 ? "" : "s"}`,
  ]),
);

const convertFigures = await convertTimings();
console.log("\nconvert XRechnung CII -> UBL, in-process with the target's validation (read, write, read back, XSD, both rule files)");
table(convertFigures.map((f): [string, string] => [f.lines === 2 ? "typical (2 lines)" : `${f.lines} lines`, `p50 ${ms(f.p50ms)}, p95 ${ms(f.p95ms)}`]));

console.log(`\nconcurrent JIT, fresh server: first ${documents.length * cores * 2} requests (all profiles in turn), then the same mix warm for 15 s, ${cores} concurrent clients`);
table(jit.map(({ label, firstPassMs, result }): [string, string] => [label, `first pass ${ms(firstPassMs)}; warm ${latency(result)}  (${result.requests} requests)`]));

const saxonMedian = (xml: string, xsl: string): number | string => {
  const t = saxon?.get(jobKey(xsl, xml));
  return t === undefined ? "not run" : typeof t === "string" ? t : median(t);
};
console.log(
  `\nin-process, per document (median): validateDocument (XSD + every rule file) on the native engine and on SaxonJS, and each rule file on native / SaxonJS / Saxon-HE${saxonMissing ? ` (Saxon-HE: ${saxonMissing})` : " (Saxon-HE, one warm JVM)"}`,
);
const figureMs = (f: TimedFigure) => (f.totalMs.length ? `${ms(median(f.totalMs))} (${f.totalMs.length} run${f.totalMs.length === 1 ? "" : "s"})` : `not finished: stopped at the ${f.stopped ? "bound" : "end"}`);
for (const row of timed) {
  const unexpected = [row.native, row.saxonjs].some((f) => f.valid !== undefined && f.valid !== row.expectValid) ? `  UNEXPECTED: not ${row.expectValid ? "valid" : "invalid"}` : "";
  console.log(`${row.name}: native ${figureMs(row.native)}, SaxonJS ${figureMs(row.saxonjs)}${unexpected}`);
  let heTotal = 0;
  for (const layer of row.saxonjs.layers) {
    const layerMedian = (f: TimedFigure) => (f.layerMs[layer.entry]?.length ? median(f.layerMs[layer.entry]) : NaN);
    const native = layerMedian(row.native);
    const js = layerMedian(row.saxonjs);
    const he = saxonMedian(row.xml, xslPath(layer));
    if (typeof he === "number") heTotal += he;
    const engine = row.native.layers.find((l) => l.entry === layer.entry)?.engine ?? "?";
    const vs = typeof he === "number" && Number.isFinite(native) ? `  native/Saxon-HE ${(native / he).toFixed(2)}` : "";
    console.log(
      `  ${layer.entry.split("/").pop()}: ${engine === "native" ? "native" : "native engine n/a (SaxonJS)"} ${Number.isFinite(native) ? ms(native) : "-"}, SaxonJS ${Number.isFinite(js) ? ms(js) : "not finished"}, Saxon-HE ${typeof he === "number" ? ms(he) : he}${vs}`,
    );
  }
  if (row.native.totalMs.length && heTotal > 0) console.log(`  whole validation on native ${ms(median(row.native.totalMs))} vs Saxon-HE's rule files alone ${ms(heTotal)}`);
}

// Issue 23's targets, from the figures above, as a Markdown table the README's takes whole.
const saxonRuleFilesMs = (layers: TimedLayer[], xml: string): number | undefined => {
  const each = layers.map((layer) => saxonMedian(xml, xslPath(layer)));
  return each.length && each.every((he) => typeof he === "number") ? (each as number[]).reduce((a, b) => a + b, 0) : undefined;
};
const verdict = (ok: boolean | undefined) => (ok === undefined ? "not measured" : ok ? "met" : "NOT MET");
/** Only 200s: a refused request would make the figure meaningless. */
const answered = (r: LoadResult) => Object.keys(r.statuses).every((status) => status === "200");
const orDash = (v: number | undefined, show: (v: number) => string) => (v === undefined ? "-" : show(v));
/** figure, einvoice, Saxon-HE, ratio / target, met? */
const targets: [string, string, string, string, string][] = [];
for (const [i, document] of ratioDocs.entries()) {
  const { result } = sequentialFigures[i];
  const { layers, xml } = ratioRuns[i];
  const he = saxonRuleFilesMs(layers, xml);
  const ratio = he === undefined ? undefined : result.p50ms / he;
  const problem = ratioProblem(i) ?? (answered(result) ? undefined : `statuses ${JSON.stringify(result.statuses)}`);
  targets.push([
    `${document.name}, expected ${document.valid ?? true ? "valid" : "invalid"} ${document.profile}: ${layers.map(fileName).join(" + ")}`,
    `${ms(result.p50ms)} (p95 ${ms(result.p95ms)}, p99 ${ms(result.p99ms)})`,
    orDash(he, ms),
    `${orDash(ratio, (r) => r.toFixed(2))} / <= ${TARGETS.ratio}`,
    problem ? `NOT MET (UNEXPECTED: ${problem})` : verdict(ratio === undefined ? undefined : ratio <= TARGETS.ratio),
  ]);
}
const typical = httpFigures.find((f) => f.document.name === documents[0].name);
targets.push([
  `typical ${documents[0].name} validations/s, ${cores} workers, ${CLIENTS} clients`,
  typical ? `${typical.result.perSecond.toFixed(0)}/s (${percentiles(typical.result)})` : "-",
  "",
  `>= ${TARGETS.perSecond}/s`,
  verdict(typical && !typical.mismatch && answered(typical.result) && typical.result.perSecond >= TARGETS.perSecond),
]);
targets.push([
  `typical ${documents[0].name} p99 at half that load (${PACED_PER_SECOND}/s paced, open loop, ${PACED_SECONDS} s after ${PACED_SETTLE_SECONDS} s untimed)`,
  pacedFigure ? `p99 ${ms(pacedFigure.p99ms)} (p50 ${ms(pacedFigure.p50ms)}, p95 ${ms(pacedFigure.p95ms)}; ${pacedFigure.perSecond.toFixed(0)} answered/s)` : "-",
  "",
  `< ${TARGETS.pacedP99Ms} ms`,
  verdict(pacedFigure && answered(pacedFigure) && pacedFigure.p99ms < TARGETS.pacedP99Ms),
]);
const offlineRow = timed.find((row) => row.name === offlineDocument?.name);
const offlineHe = offlineRow && saxonRuleFilesMs(offlineRow.saxonjs.layers, offlineRow.xml);
const offlineMs = offline?.ms.length ? median(offline.ms) : undefined;
targets.push([
  `${offlineDocument?.name ?? "5,000-line XRechnung UBL"} judged offline: \`dist/einvoice validate FILE\`, whole process${offline?.ms.length ? `, median of ${offline.ms.length}` : ""}`,
  offline && !offline.ms.length ? `not judged: exit ${offline.exitCode}, ${offline.firstLine}` : orDash(offlineMs, ms),
  orDash(offlineHe, (he) => `${ms(he)} (rule files alone, not a target)`),
  `< ${TARGETS.offline5000Ms / 1000} s`,
  verdict(offline && (offlineMs === undefined ? false : offlineMs < TARGETS.offline5000Ms)),
]);
const peakBytes = peakRss * 1024 * 1024;
targets.push([
  "peak RSS (VmHWM) of any server under the loads above",
  `${peakRss.toFixed(1)} MiB = ${(peakBytes / 1e6).toFixed(1)} MB`,
  "",
  `< ${TARGETS.peakRssBytes / 1e6} MB (${(TARGETS.peakRssBytes / 1024 / 1024).toFixed(0)} MiB)`,
  verdict(peakBytes < TARGETS.peakRssBytes),
]);
const commit = Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: import.meta.dir }).stdout.toString().trim() || "unknown";
console.log(`\ntargets (issue 23), ${new Date().toISOString().slice(0, 10)}, commit ${commit}, ${cores} cores (${cpus()[0]?.model ?? "unknown CPU"}), 1-minute load average ${loadBefore.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} now`);
console.log(
  `einvoice: over HTTP, sequential requests on one keep-alive connection, service warm, XSD included; Saxon-HE (${saxonMissing ?? saxonHeVersion()}): the same rule files alone on the same XML, one warm JVM; medians`,
);
for (const row of [["figure", "einvoice", "Saxon-HE", "ratio / target", "met?"], ["---", "---", "---", "---", "---"], ...targets]) console.log(`| ${row.join(" | ")} |`);

// 6. Several instances on one PostgreSQL beside SQLite (its own process: it starts a throwaway cluster).
const instances = Bun.spawnSync([process.execPath, join(import.meta.dir, "instances.ts"), exe], { stdout: "inherit", stderr: "inherit" });
if (instances.exitCode !== 0) console.log(`\nseveral-instances figures failed (exit ${instances.exitCode})`);

// 7. Sends accepted and delivered through the sandbox network (its own process, like 6).
const transmission = Bun.spawnSync([process.execPath, join(import.meta.dir, "transmission.ts"), exe], { stdout: "inherit", stderr: "inherit" });
if (transmission.exitCode !== 0) console.log(`\ntransmission figures failed (exit ${transmission.exitCode})`);
