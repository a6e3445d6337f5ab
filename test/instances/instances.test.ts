// Every limit exact across processes: several server processes on one PostgreSQL database, and the
// same suite against the embedded default (one process on SQLite) giving the same numbers. The
// servers are real (`bun src/main.ts serve`), started at once on an empty database; the clients are
// concurrent fetches spread over the instances.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { openPostgresStorage } from "../../src/db/postgres/storage";
import { openSqliteStorage } from "../../src/db/sqlite/storage";
import type { Storage } from "../../src/db/storage";
import { createOrg, listOrgs, type Organization } from "../../src/accounts/orgs";
import { createKey, revokeKey } from "../../src/accounts/keys";
import { spendUnit, windowOpening } from "../../src/accounts/quota";
import { PLANS } from "../../src/accounts/plans";
import { startInstances, stopInstances, type Instance } from "../support/instances";
import { freshDatabase, postgresMissing } from "../support/postgres";
import { cannotRun } from "../support/requirements";
import { CORPUS_DIR, corpusMissing } from "../support/corpus";

interface Database {
  env: Record<string, string>;
  /** Where spender processes open it. */
  location: string;
  /** The test's own connection, opened after the servers so that they meet the database empty. */
  open(): Promise<void>;
  readonly storage: Storage;
  /** Sets the organization's running live window by hand (the quota test's starting point). */
  setWindow(orgId: string, limit: number, used: number): Promise<void>;
  migrationRuns(): Promise<number>;
  close(): Promise<void>;
}

async function postgresDatabase(): Promise<Database> {
  const url = await freshDatabase();
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  let storage: Storage | undefined;
  return {
    env: { DATABASE_URL: url },
    location: url,
    get storage() {
      return storage!;
    },
    async setWindow(orgId, limit, used) {
      await sql`update quota_windows set quota_limit = ${limit}, used = ${used} where org_id = ${orgId} and mode = 'live'`;
    },
    async migrationRuns() {
      return Number((await sql`select count(*)::int as n from drizzle.__drizzle_migrations`)[0].n);
    },
    async close() {
      await storage?.close();
      await sql.end();
    },
    async open() {
      storage = await openPostgresStorage(url);
    },
  };
}

async function sqliteDatabase(): Promise<Database> {
  const path = join(mkdtempSync(join(tmpdir(), "instances-sqlite-")), "einvoice.sqlite");
  let storage: ReturnType<typeof openSqliteStorage> | undefined;
  return {
    env: { DATABASE_PATH: path },
    location: path,
    get storage() {
      return storage!;
    },
    async setWindow(orgId, limit, used) {
      storage!.sqlite.run("update quota_windows set quota_limit = ?, used = ? where org_id = ? and mode = 'live'", [limit, used, orgId]);
    },
    async migrationRuns() {
      return storage!.sqlite.query<{ n: number }, []>("select count(*) as n from __drizzle_migrations").get()!.n;
    },
    async close() {
      await storage?.close();
    },
    async open() {
      storage = openSqliteStorage(path);
    },
  };
}

const SETUPS = [
  { name: "four instances on one PostgreSQL", instances: 4, missing: postgresMissing(), database: postgresDatabase },
  { name: "one instance on SQLite (the embedded default)", instances: 1, missing: null, database: sqliteDatabase },
];

const XRECHNUNG = "xrechnung-testsuite/src/test/business-cases/standard/01.01a-INVOICE_ubl.xml";

for (const setup of SETUPS) {
  describe.skipIf(cannotRun(`limits across instances: ${setup.name}`, setup.missing ?? corpusMissing))(`limits across instances: ${setup.name}`, () => {
    let db: Database;
    let instances: Instance[] = [];
    const clock = () => new Date();
    const invoice = () => readFileSync(CORPUS_DIR + XRECHNUNG);

    beforeAll(async () => {
      db = await setup.database();
      instances = await startInstances(setup.instances, db.env);
      await db.open();
    }, 240_000);
    afterAll(async () => {
      await stopInstances(instances);
      await db.close();
    });

    /** Sends `count` requests at once, spread round-robin over the instances; returns each answer's status and code. */
    async function burst(count: number, request: (base: string) => Promise<Response>): Promise<string[]> {
      return Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const res = await request(instances[i % instances.length].base);
          const body = await res.json().catch(() => null);
          return res.status === 200 ? "200" : `${res.status} ${body?.error?.code}`;
        }),
      );
    }
    const tally = (answers: string[]) => Object.fromEntries([...new Set(answers)].sort().map((a) => [a, answers.filter((b) => b === a).length]));
    const me = (key: string) => (base: string) => fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    const validate = (key: string) => (base: string) =>
      fetch(`${base}/v1/validate`, { method: "POST", body: invoice(), headers: { authorization: `Bearer ${key}`, "content-type": "application/xml" } });

    async function account(name: string, plan: string): Promise<{ org: Organization; key: string }> {
      const org = await createOrg(db.storage, clock, { name, plan });
      return { org, key: (await createKey(db.storage, clock, org, "live")).key };
    }

    test("started at once on an empty database: migrated once, one first-start organization, every instance serving", async () => {
      expect(await db.migrationRuns()).toBe((await db.storage.check()).migrations.applied.length);
      expect((await db.storage.check()).migrations.pending).toEqual([]);
      expect((await listOrgs(db.storage)).filter((o) => o.name === "default")).toHaveLength(1);
      expect(instances.filter((i) => i.output().includes("First start:"))).toHaveLength(1);
    });


    test("monthly quota: 200 concurrent clients on the last 100 units of a 1,000 quota get exactly 100 answers", async () => {
      const { org, key } = await account("quota", "scale");
      await spendUnit(db.storage, clock(), org, true);
      await db.setWindow(org.id, 1000, 900);
      const answers = await burst(200, validate(key));
      expect(tally(answers)).toEqual({ "200": 100, "429 QUOTA_EXCEEDED": 100 });
      expect(await db.storage.quota.read(windowOpening(clock(), org, true))).toEqual({ quotaLimit: 1000, used: 1000 });
    });

    test("monthly quota, across processes: four processes of 300 concurrent spenders (1,200 attempts) on a quota of 1,000 spend exactly 1,000", async () => {
      const { org } = await account("quota-processes", "scale");
      await spendUnit(db.storage, clock(), org, true);
      await db.setWindow(org.id, 1000, 0);
      const results = await spenders(db.location, org, "spend", 4, 300);
      expect(results.reduce((a, b) => a + b, 0)).toBe(1000);
      expect((await db.storage.quota.read(windowOpening(clock(), org, true)))!.used).toBe(1000);
    });

    test("refund cap, across processes: 4 × 30 computed refunds in one hour return exactly 50 units", async () => {
      const { org } = await account("refunds", "scale");
      await spendUnit(db.storage, clock(), org, true);
      await db.setWindow(org.id, 50_000, 200);
      const results = await spenders(db.location, org, "refund", 4, 30);
      expect(results.reduce((a, b) => a + b, 0)).toBe(50);
      expect((await db.storage.quota.read(windowOpening(clock(), org, true)))!.used).toBe(150);
    });

    test("per-minute burst: exactly the plan's allowance is admitted across the instances", async () => {
      const { key } = await account("burst", "growth");
      const allowance = PLANS.growth.burstPerMinute;
      const answers = await burst(allowance + 60, me(key));
      expect(answers.filter((a) => a === "200")).toHaveLength(allowance);
      expect(answers.every((a) => a === "200" || a === "429 RATE_LIMITED" || a === "429 ACCOUNT_THROTTLED")).toBe(true);
    });

    test("abuse throttle: entered once, it holds on every instance", async () => {
      const { key } = await account("throttled", "free");
      const allowance = PLANS.free.burstPerMinute;
      // The allowance, then as many rejections as the allowance: the throttle's threshold.
      const answers = await burst(allowance * 3, me(key));
      expect(answers.filter((a) => a === "200")).toHaveLength(allowance);
      for (const instance of instances) expect(await burst(1, () => me(key)(instance.base))).toEqual(["429 ACCOUNT_THROTTLED"]);
    });

    test("revocation: every instance refuses the key on its next request", async () => {
      const { org } = await account("revoked", "scale");
      const created = await createKey(db.storage, clock, org, "live");
      for (const instance of instances) expect(await burst(1, () => me(created.key)(instance.base))).toEqual(["200"]);
      await revokeKey(db.storage, clock, created.keyId);
      for (const instance of instances) expect(await burst(1, () => me(created.key)(instance.base))).toEqual(["403 INVALID_API_KEY"]);
    });

    // Last: this test process is one client address for every test here, and a refused key (the
    // revocation test) counts against its address too.
    test("keyless per-address limit: exactly 120 GET /v1/rulesets per minute across the instances", async () => {
      const answers = await burst(150, (base) => fetch(`${base}/v1/rulesets`));
      const counted = setup.instances; // the revocation test's refusals, one per instance
      expect(tally(answers)).toEqual({ "200": 120 - counted, "429 RATE_LIMITED": 30 + counted });
    });
  });
}

/** Runs `processes` spender processes at once, each with `count` concurrent operations; returns each one's successes. */
async function spenders(location: string, org: Organization, operation: "spend" | "refund", processes: number, count: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: processes }, async () => {
      const child = Bun.spawn([process.execPath, join(import.meta.dir, "spender.ts"), location, JSON.stringify(org), operation, String(count)], { stdout: "pipe", stderr: "pipe" });
      const [code, out, err] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
      if (code !== 0) throw new Error(`spender exited ${code}: ${err}`);
      return JSON.parse(out.trim().split("\n").pop()!).succeeded as number;
    }),
  );
}
