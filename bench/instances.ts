/**
 * Several instances on one PostgreSQL beside the embedded default: typical XRechnung UBL validations
 * per second over HTTP with one, two and four instances of the executable on one database, and one
 * instance on SQLite, in one run. Two cores bound every figure (four instances share them), so the
 * point is the price of exact shared limits, not more throughput: no target.
 *   bun bench/instances.ts [EXECUTABLE]     (run by `bun run bench`, after the executable is built)
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load } from "./http";
import { cliOf, createKeys, startServer, type Server } from "./server";
import { LINES_SOURCE } from "./validation";
import { clusterMissing, freshDatabase } from "../test/support/postgres";

const exe = process.argv[2] ?? join(import.meta.dir, "..", "dist", "einvoice");
const cores = navigator.hardwareConcurrency;
const SECONDS = 8;
const CLIENTS = cores * 4;
// Burst allowances are per organization: enough of them that the load never meets one.
const ORGS = 60;
const body = readFileSync(LINES_SOURCE);

async function measure(label: string, location: string, instances: number): Promise<[string, string]> {
  const cli = cliOf([exe], location);
  const keys = createKeys(cli, "instances", ORGS);
  const servers: Server[] = [];
  try {
    for (let i = 0; i < instances; i++) servers.push(await startServer([exe], location, keys[0]!, { MEMORY_TARGET_MIB: "off" }));
    await Promise.all(servers.map((s) => s.workersReady));
    const run = () =>
      load((i) => fetch(`${servers[i % instances]!.base}/v1/validate`, { method: "POST", body, headers: { "x-api-key": keys[i % ORGS]!, "content-type": "application/xml" } }), CLIENTS, SECONDS);
    await run(); // warm: every worker has judged the document before the measured run
    const result = await run();
    return [label, `${result.perSecond.toFixed(0)}/s, p50 ${result.p50ms.toFixed(1)} ms, p99 ${result.p99ms.toFixed(1)} ms (${result.requests} requests, statuses ${JSON.stringify(result.statuses)})`];
  } finally {
    for (const server of servers) server.proc.kill();
    await Promise.all(servers.map((s) => s.proc.exited));
  }
}

const rows: [string, string][] = [];
rows.push(await measure("SQLite, one instance (the default)", join(mkdtempSync(join(tmpdir(), "bench-instances-")), "einvoice.sqlite"), 1));
const missing = clusterMissing();
if (missing) rows.push(["PostgreSQL", `skipped: ${missing}`]);
else for (const n of [1, 2, 4]) rows.push(await measure(`PostgreSQL, ${n} instance${n > 1 ? "s" : ""} on one database`, await freshDatabase(), n));

console.log(`\nPOST /v1/validate, typical XRechnung UBL, ${CLIENTS} clients spread over the instances, ${SECONDS} s after a warm-up run (${cores} cores; no target: exactness is the point)`);
const width = Math.max(...rows.map(([k]) => k.length));
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
