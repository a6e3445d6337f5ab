// A database that cannot answer is StorageUnavailable (the API's 503), every other error passes
// through, and a storage opened before an outage works again once the server is back.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { StorageUnavailable, type Storage, type WindowOpening } from "../../../src/db/storage";
import { openPostgresStorage } from "../../../src/db/postgres/storage";
import { cannotRun } from "../../support/requirements";
import { clusterMissing, freshDatabase, startCluster, type Cluster } from "../../support/postgres";

const org = { id: "org_down", name: "Down", plan: "free", billingDay: 1, rulesetChannel: "latest", createdAt: "2026-01-01T00:00:00.000Z" };
const window: WindowOpening = { orgId: org.id, mode: "live", windowStart: "2026-01-01T00:00:00.000Z", windowEnd: "2026-02-01T00:00:00.000Z", quotaLimit: 10 };

async function elapsed(work: () => Promise<unknown>): Promise<{ ms: number; outcome: unknown }> {
  const start = performance.now();
  const outcome = await work().catch((error: unknown) => error);
  return { ms: performance.now() - start, outcome };
}

// Stopping a server needs one of our own, even when the other tests use EINVOICE_TEST_POSTGRES_URL.
describe.skipIf(cannotRun("PostgreSQL outages", clusterMissing()))("an unavailable database", () => {
  let cluster: Cluster;
  let url: string;
  let storage: Storage;

  beforeAll(async () => {
    cluster = await startCluster();
    url = await freshDatabase(cluster);
    storage = await openPostgresStorage(url, { statementTimeoutMs: 1000, poolSize: 2 });
    await storage.orgs.insert(org);
  });
  afterAll(() => storage?.close());

  test("a statement past the timeout is StorageUnavailable", async () => {
    await storage.quota.spend(window);
    const blocker = postgres(url, { max: 1 });
    try {
      await blocker.begin(async (tx) => {
        await tx`select 1 from quota_windows where org_id = ${org.id} for update`;
        const { ms, outcome } = await elapsed(() => storage.quota.spend(window));
        expect(outcome).toBeInstanceOf(StorageUnavailable);
        expect((outcome as StorageUnavailable).reason).toBe("57014");
        expect(ms).toBeLessThan(3000);
      });
    } finally {
      await blocker.end();
    }
    expect(await storage.quota.read(window)).toEqual({ quotaLimit: 10, used: 1 });
  });

  test("other errors pass through", async () => {
    const key = { id: "key_1", orgId: org.id, keyHash: "h1", label: null, livemode: true, createdAt: org.createdAt, revokedAt: null };
    await storage.keys.insert(key);
    const { outcome } = await elapsed(() => storage.keys.insert({ ...key, id: "key_2" }));
    expect(outcome).toBeInstanceOf(Error);
    expect(outcome).not.toBeInstanceOf(StorageUnavailable);
  });

  test("a stopped server is StorageUnavailable at once; restarted, the same storage works", async () => {
    await cluster.stop();
    try {
      for (const call of [() => storage.orgs.byId(org.id), () => storage.quota.spend(window), () => storage.counters.take("c", 5, 0), () => storage.exclusively("job", false, async () => 1)]) {
        const { ms, outcome } = await elapsed(call);
        expect(outcome).toBeInstanceOf(StorageUnavailable);
        expect(ms).toBeLessThan(3000);
      }
    } finally {
      await cluster.start();
    }
    expect(await storage.orgs.byId(org.id)).toEqual(org);
    expect((await storage.quota.spend(window)).ok).toBe(true);
  });

  test("opening on a closed port is StorageUnavailable", async () => {
    const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const closed = `postgres://postgres@127.0.0.1:${probe.port}/none`;
    probe.stop(true);
    expect(await elapsed(() => openPostgresStorage(closed))).toMatchObject({ outcome: expect.any(StorageUnavailable) });
  });
});
