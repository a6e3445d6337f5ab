// Exactness across instances: two storages (as two processes would have) over one database, each
// with a pool of 10 and 200 callers at once, so every conditional update races.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Storage, WindowOpening } from "../../../src/db/storage";
import { openPostgresStorage } from "../../../src/db/postgres/storage";
import { cannotRun } from "../../support/requirements";
import { freshDatabase, postgresMissing } from "../../support/postgres";

const CALLERS = 200;

describe.skipIf(cannotRun("PostgreSQL concurrency", postgresMissing()))("two instances, 200 concurrent callers", () => {
  let instances: Storage[];
  const org = { id: "org_race", name: "Race", plan: "free", billingDay: 1, rulesetChannel: "latest", createdAt: "2026-01-01T00:00:00.000Z" };
  const window = (quotaLimit: number): WindowOpening => ({ orgId: org.id, mode: "live", windowStart: "2026-01-01T00:00:00.000Z", windowEnd: "2026-02-01T00:00:00.000Z", quotaLimit });
  const callers = <T>(call: (storage: Storage) => Promise<T>) => Promise.all(Array.from({ length: CALLERS }, (_, i) => call(instances[i % 2]!)));

  beforeAll(async () => {
    const url = await freshDatabase();
    instances = [await openPostgresStorage(url, { poolSize: 10 }), await openPostgresStorage(url, { poolSize: 10 })];
    await instances[0]!.orgs.insert(org);
  });
  afterAll(() => Promise.all(instances.map((s) => s.close())));

  test("spends on a quota of 100: exactly 100 taken", async () => {
    const outcomes = await callers((s) => s.quota.spend(window(100)));
    expect(outcomes.filter((o) => o.ok).length).toBe(100);
    expect(await instances[1]!.quota.read(window(100))).toEqual({ quotaLimit: 100, used: 100 });
  });

  test("refunds under an hourly cap of 5: exactly 5 returned", async () => {
    const returned = await callers((s) => s.quota.refund(window(100), { hourStart: "2026-01-01T10:00:00.000Z", cap: 5 }));
    expect(returned.filter(Boolean).length).toBe(5);
    expect(await instances[0]!.quota.read(window(100))).toEqual({ quotaLimit: 100, used: 95 });
  });

  test("takes on a per-minute allowance of 50: exactly 50 allowed", async () => {
    const nowMs = 1_800_000_000_000;
    const verdicts = await callers((s) => s.counters.take("burst:race", 50, nowMs));
    expect(verdicts.filter((v) => v.allowed).length).toBe(50);
    expect(verdicts.filter((v) => v.allowed).map((v) => v.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(await instances[0]!.counters.take("burst:race", 50, nowMs + 59_999)).toEqual({ allowed: false, limit: 50, remaining: 0, resetSeconds: 1 });
  });
});
