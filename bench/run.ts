/**
 * `bun run bench`: figures of the service on this machine, printed as a table. Targets live here,
 * never in unit tests. Runs the built executable (building it first when missing).
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load, rssMiB } from "./http";

const exe = join(import.meta.dir, "..", "dist", "einvoice");
if (!existsSync(exe) || process.env.BENCH_REBUILD) {
  const built = Bun.spawnSync([process.execPath, join(import.meta.dir, "..", "build.ts")], { stdout: "inherit", stderr: "inherit" });
  if (built.exitCode !== 0) throw new Error("build failed");
}
const dir = mkdtempSync(join(tmpdir(), "bench-"));
const db = join(dir, "bench.sqlite");
const cli = (...args: string[]) => {
  const r = Bun.spawnSync([exe, ...args, "--db", db]);
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return JSON.parse(r.stdout.toString());
};

// Burst allowances are per organization, so the load is spread over enough of them never to hit one.
const ORGS = 100;
const keys: string[] = [];
for (let i = 0; i < ORGS; i++) {
  cli("orgs", "create", "--name", `bench-${i}`, "--plan", "scale");
  keys.push(cli("keys", "create", "--org", `bench-${i}`, "--mode", "live").key);
}

const port = 18000 + Math.floor(Math.random() * 1000);
const coldStart = performance.now();
const server = Bun.spawn([exe, "serve", "--port", String(port), "--db", db], { stdout: "ignore", stderr: "inherit" });
const base = `http://127.0.0.1:${port}`;
let firstAnswerMs = NaN;
for (;;) {
  try {
    const res = await fetch(`${base}/v1/me`, { headers: { "x-api-key": keys[0] } });
    await res.arrayBuffer();
    firstAnswerMs = performance.now() - coldStart;
    break;
  } catch {
    if (performance.now() - coldStart > 30_000) throw new Error("the server did not answer within 30 s");
    await Bun.sleep(5);
  }
}
await Bun.sleep(500);
const idleRss = rssMiB(server.pid);

const result = await load((i) => fetch(`${base}/v1/me`, { headers: { "x-api-key": keys[i % ORGS] } }), 32, 5, ORGS * 490);
const loadedRss = rssMiB(server.pid);
server.kill();
await server.exited;
rmSync(dir, { recursive: true, force: true });

const rows: [string, string][] = [
  ["executable size", `${(statSync(exe).size / 1024 / 1024).toFixed(1)} MiB`],
  ["cold start to first answered request", `${firstAnswerMs.toFixed(0)} ms`],
  ["idle RSS", `${idleRss.toFixed(1)} MiB`],
  ["GET /v1/me requests/s (32 concurrent, 5 s)", result.perSecond.toFixed(0)],
  ["GET /v1/me p50 / p99", `${result.p50ms.toFixed(2)} ms / ${result.p99ms.toFixed(2)} ms`],
  ["GET /v1/me statuses", JSON.stringify(result.statuses)],
  ["RSS after load", `${loadedRss.toFixed(1)} MiB`],
];
const width = Math.max(...rows.map(([k]) => k.length));
console.log(`einvoice bench (${navigator.hardwareConcurrency} cores)\n`);
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
