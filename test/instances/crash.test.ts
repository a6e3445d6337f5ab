// A kill -9 of one instance under load: every answer a client received was paid for exactly once,
// and the only units not matched by an answer are those of requests whose answer died with the
// killed process (at most one per lost answer). The survivor keeps serving.

import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { openPostgresStorage } from "../../src/db/postgres/storage";
import type { Storage } from "../../src/db/storage";
import { createOrg } from "../../src/accounts/orgs";
import { createKey } from "../../src/accounts/keys";
import { windowOpening } from "../../src/accounts/quota";
import { startInstances, stopInstances, type Instance } from "../support/instances";
import { clusterMissing, freshDatabase, postgresMissing, startCluster } from "../support/postgres";
import { cannotRun } from "../support/requirements";
import { CORPUS_DIR, corpusMissing } from "../support/corpus";

const XRECHNUNG = "xrechnung-testsuite/src/test/business-cases/standard/01.01a-INVOICE_ubl.xml";
const REQUESTS = 240;

let instances: Instance[] = [];
let storage: Storage | undefined;
afterAll(async () => {
  await stopInstances(instances.filter((i) => i.process.exitCode === null && !i.process.killed));
  await storage?.close();
});

test.skipIf(cannotRun("kill -9 of an instance under load", postgresMissing() ?? corpusMissing))(
  "kill -9 of one of two instances under load loses no unit and counts none twice",
  async () => {
    const url = await freshDatabase();
    instances = await startInstances(2, { DATABASE_URL: url });
    storage = await openPostgresStorage(url);
    const clock = () => new Date();
    const org = await createOrg(storage, clock, { name: "crash", plan: "scale" });
    const key = (await createKey(storage, clock, org, "live")).key;
    const body = readFileSync(CORPUS_DIR + XRECHNUNG);
    const [victim, survivor] = instances;

    let answered = 0;
    const outcomes = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        const target = i % 2 === 0 ? victim : survivor;
        try {
          const res = await fetch(`${target.base}/v1/validate`, { method: "POST", body, headers: { authorization: `Bearer ${key}`, "content-type": "application/xml" } });
          await res.arrayBuffer();
          // The victim dies once a quarter of the answers are in: mid-load, with requests in flight on it.
          if (++answered === REQUESTS / 4) victim.process.kill(9);
          return res.status === 200 ? "answered" : `status ${res.status}`;
        } catch {
          return "lost";
        }
      }),
    );
    const count = (what: string) => outcomes.filter((o) => o === what).length;
    const { used } = (await storage.quota.read(windowOpening(clock(), org, true)))!;
    const report = { requests: REQUESTS, answered: count("answered"), lost: count("lost"), other: outcomes.filter((o) => o.startsWith("status")), unitsSpent: used, spentForLostAnswers: used - count("answered") };
    console.log(`kill -9 under load: ${JSON.stringify(report)}`);

    expect(report.other).toEqual([]);
    expect(report.lost).toBeGreaterThan(0);
    // No answered request went unpaid, and no request paid twice or paid without having been sent.
    expect(used).toBeGreaterThanOrEqual(report.answered);
    expect(used).toBeLessThanOrEqual(report.answered + report.lost);
    // The survivor still serves and still counts.
    const after = await fetch(`${survivor.base}/v1/validate`, { method: "POST", body, headers: { authorization: `Bearer ${key}`, "content-type": "application/xml" } });
    expect(after.status).toBe(200);
    expect((await storage.quota.read(windowOpening(clock(), org, true)))!.used).toBe(used + 1);
  },
  240_000,
);

test.skipIf(cannotRun("a database outage under a running instance", clusterMissing() ?? corpusMissing))(
  "while the database is down, metered routes answer 503 ENGINE_UNAVAILABLE and spend nothing; the instance recovers when it returns",
  async () => {
    const cluster = await startCluster();
    const url = await freshDatabase(cluster);
    const [server] = await startInstances(1, { DATABASE_URL: url, DATABASE_STATEMENT_TIMEOUT_MS: "1000" });
    instances.push(server);
    const own = await openPostgresStorage(url);
    try {
      const clock = () => new Date();
      const org = await createOrg(own, clock, { name: "outage", plan: "scale" });
      const key = (await createKey(own, clock, org, "live")).key;
      const body = readFileSync(CORPUS_DIR + XRECHNUNG);
      const validate = () => fetch(`${server.base}/v1/validate`, { method: "POST", body, headers: { authorization: `Bearer ${key}`, "content-type": "application/xml" } });
      expect((await validate()).status).toBe(200);

      // The test cluster commits asynchronously and stops as a crash would: write everything out first.
      await checkpoint(url);
      await cluster.stop();
      const down = await validate();
      expect(down.status).toBe(503);
      expect(down.headers.get("retry-after")).toMatch(/^\d+$/);
      const { error } = await down.json();
      expect(error.code).toBe("ENGINE_UNAVAILABLE");
      expect(error.message).toContain("no quota unit was spent");

      await cluster.start();
      let back: Response | undefined;
      for (let i = 0; i < 20 && back?.status !== 200; i++) {
        back = await validate();
        if (back.status !== 200) await Bun.sleep(250);
      }
      expect(back!.status).toBe(200);
      // The answer before the outage and the one after: the refused request took nothing.
      expect((await own.quota.read(windowOpening(clock(), org, true)))!.used).toBe(2);
    } finally {
      await own.close();
    }
  },
  240_000,
);

async function checkpoint(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`checkpoint`;
  } finally {
    await sql.end();
  }
}
