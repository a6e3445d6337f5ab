// The per-minute counters' rows: stale ones are swept, and a sweep racing takes (deleting the row a
// take has just made sure of) changes no count.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import type { Storage } from "../../../src/db/storage";
import { openPostgresStorage } from "../../../src/db/postgres/storage";
import { drizzle } from "drizzle-orm/postgres-js";
import { rollingCounters } from "../../../src/db/postgres/limits";
import { cannotRun } from "../../support/requirements";
import { freshDatabase, postgresMissing } from "../../support/postgres";

const t0 = 1_800_000_000_000;

describe.skipIf(cannotRun("PostgreSQL rolling counters", postgresMissing()))("rate_windows rows", () => {
  let url: string;
  let storage: Storage;
  const rows = async () => {
    const sql = postgres(url, { max: 1 });
    const [row] = await sql`select count(*)::int as n from rate_windows`;
    await sql.end();
    return row!.n as number;
  };

  beforeAll(async () => {
    url = await freshDatabase();
    storage = await openPostgresStorage(url);
  });
  afterAll(() => storage.close());

  test("counters idle for a window do not pile up", async () => {
    for (let i = 0; i < 300; i++) await storage.counters.take(`idle:${i}`, 5, t0);
    expect(await rows()).toBe(300);
    for (let i = 0; i < 300; i++) await storage.counters.take("busy", 1000, t0 + 120_000);
    expect(await rows()).toBe(1);
  });

  test("a take stamped earlier than one counted (another instance's clock) leaves the window first", async () => {
    await storage.counters.take("skewed", 3, t0 + 2000);
    await storage.counters.take("skewed", 3, t0);
    expect(await storage.counters.take("skewed", 3, t0 + 60_500)).toEqual({ allowed: true, limit: 3, remaining: 1, resetSeconds: 2 });
  });

  test("takes racing sweeps (one per take) are all admitted up to the allowance", async () => {
    const clients = [postgres(url, { max: 10 }), postgres(url, { max: 10 })];
    const sweeping = clients.map((client) => rollingCounters(drizzle(client), 1));
    try {
      const counters = Array.from({ length: 300 }, (_, i) => `race:${i}`);
      for (const counter of counters) await sweeping[0]!.take(counter, 2, t0);
      const nowMs = t0 + 600_000;
      const verdicts = await Promise.all(
        Array.from({ length: 600 }, (_, i) => sweeping[i % 2]!.take(counters[i % counters.length]!, 2, nowMs).then((v) => ({ counter: i % counters.length, ...v }))),
      );
      for (const [i] of counters.entries()) expect(verdicts.filter((v) => v.counter === i && v.allowed).length).toBe(2);
      expect(verdicts.every((v) => v.allowed)).toBe(true);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });
});
