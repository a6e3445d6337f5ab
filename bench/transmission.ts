/**
 * Transmission through the sandbox network: POST /v1/transmissions accepted (202) per second, and
 * end to end, from the first send to the last `delivered`, per second, with the server's own
 * delivery worker doing the delivering while the sends arrive (one instance, SQLite, every document
 * judged again before it is queued). No target: the figures say what one machine does.
 *   bun bench/transmission.ts [EXECUTABLE]     (run by `bun run bench`, after the executable is built)
 *   bun bench/transmission.ts bun src/main.ts  (from source)
 */
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load } from "./http";
import { cliOf, createKeys, startServer } from "./server";
import { LOCALES, SCENARIOS } from "../fixtures/invoices.ts";

const command = process.argv.length > 2 ? process.argv.slice(2) : [join(import.meta.dir, "..", "dist", "einvoice")];
const cores = navigator.hardwareConcurrency;
const SECONDS = 8;
const CLIENTS = cores * 2;
const SELLER = { scheme: "0088", id: "4000001000005" };
const PLACEHOLDER = "bench-recipient";

const db = join(mkdtempSync(join(tmpdir(), "bench-transmission-")), "einvoice.sqlite");
const cli = cliOf(command, db);
// Burst allowances are per organization (500 a minute on scale): enough of them that the load never meets one.
const ORGS = 12;
const keys = createKeys(cli, "bench-transmission", ORGS);
for (let i = 0; i < ORGS; i++) {
  Bun.spawnSync([...command, "participants", "add", "--org", `bench-transmission-${i}`, "--scheme", SELLER.scheme, "--id", SELLER.id, "--country", "DE", "--confirmed", "--db", db]);
}
const key = keys[0];

const server = await startServer(command, db, key, { TRANSMISSION: "sandbox", MEMORY_TARGET_MIB: "off" });
try {
  await server.workersReady;
  const invoice = SCENARIOS[0].build(LOCALES.de);
  const generated = await fetch(`${server.base}/v1/generate`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({
      standard: "peppol-bis",
      output: "xml",
      invoice: { ...invoice, seller: { ...invoice.seller, peppol: { schemeId: SELLER.scheme, id: SELLER.id } }, buyer: { ...invoice.buyer, peppol: { schemeId: "0060", id: PLACEHOLDER } } },
    }),
  });
  if (generated.status !== 200) throw new Error(`generate answered ${generated.status}: ${await generated.text()}`);
  const xml = await generated.text();
  // One recipient per send (the sandbox's default scenario: delivered at once), so no send repeats another.
  const send = (i: number) =>
    fetch(`${server.base}/v1/transmissions`, {
      method: "POST",
      headers: { "x-api-key": keys[i % ORGS], "content-type": "application/json" },
      body: JSON.stringify({ network: "peppol", sender: SELLER, recipient: { scheme: "0060", id: `bench-${i}` }, format: "ubl", xml: xml.replace(PLACEHOLDER, `bench-${i}`) }),
    });
  await load(send, CLIENTS, 2); // warm: every worker has judged the document before the measured run
  const read = new Database(db, { readonly: true });
  const count = (status: string) => (read.query("SELECT count(*) AS n FROM transmissions WHERE status = ?").get(status) as { n: number }).n;
  const undelivered = () => (read.query("SELECT count(*) AS n FROM transmissions WHERE status <> 'delivered'").get() as { n: number }).n;
  // The warm-up's own sends are delivered before the measured run starts counting.
  while (undelivered() > 0) await Bun.sleep(50);
  const deliveredBefore = count("delivered");
  const firstSend = performance.now();
  const sends = await load((i) => send(100_000 + i), CLIENTS, SECONDS);
  const accepted = sends.statuses["202"] ?? 0;
  let delivered = count("delivered") - deliveredBefore;
  const bound = performance.now() + 120_000;
  while (delivered < accepted && performance.now() < bound) {
    await Bun.sleep(50);
    delivered = count("delivered") - deliveredBefore;
  }
  const endToEnd = (performance.now() - firstSend) / 1000;
  read.close();

  console.log(`\ntransmission through the sandbox network, one instance on SQLite, ${CLIENTS} clients for ${SECONDS} s, the instance's own delivery worker running (${cores} cores; no target)`);
  const rows: [string, string][] = [
    ["POST /v1/transmissions accepted (202)", `${(accepted / sends.seconds).toFixed(0)}/s, p50 ${sends.p50ms.toFixed(1)} ms, p99 ${sends.p99ms.toFixed(1)} ms (${sends.requests} requests, statuses ${JSON.stringify(sends.statuses)})`],
    ["end to end, first send to last delivered", `${(delivered / endToEnd).toFixed(0)}/s (${delivered} of ${accepted} delivered in ${endToEnd.toFixed(1)} s)`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
} finally {
  server.proc.kill();
  await server.proc.exited;
}
