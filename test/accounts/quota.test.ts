import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStorage } from "../../src/db/sqlite/storage";
import type { Storage } from "../../src/db/storage";
import { createOrg, setPlan } from "../../src/accounts/orgs";
import { COMPUTED_REFUNDS_PER_HOUR, quotaStatus, refundUnit, spendUnit, type Spend } from "../../src/accounts/quota";

const stores: Storage[] = [];
const open = (path = ":memory:") => {
  const s = openSqliteStorage(path);
  stores.push(s);
  return s;
};
afterEach(async () => void (await Promise.all(stores.splice(0).map((s) => s.close()))));

const at = (iso: string) => () => new Date(iso);

describe("monthly quota", () => {
  test("spends up to the plan cap, then refuses with the usage and window end", async () => {
    const db = open();
    const org = await createOrg(db, at("2026-03-01T00:00:00Z"), { name: "a", plan: "free", billingDay: 10 });
    const now = new Date("2026-03-12T00:00:00Z");
    for (let i = 0; i < 20; i++) expect((await spendUnit(db, now, org, true)).ok).toBe(true);
    const refused = await spendUnit(db, now, org, true);
    expect(refused).toEqual({ ok: false, status: { limit: 20, used: 20, remaining: 0, resetsAt: "2026-04-10T00:00:00.000Z" } });
    // The next billing window starts fresh.
    expect((await spendUnit(db, new Date("2026-04-10T00:00:00Z"), org, true)).ok).toBe(true);
  });

  test("test keys have 400 calls per UTC month whatever the plan, counted apart from live", async () => {
    const db = open();
    const org = await createOrg(db, at("2026-03-01T00:00:00Z"), { name: "a", plan: "scale", billingDay: 20 });
    const now = new Date("2026-03-31T23:00:00Z");
    for (let i = 0; i < 400; i++) await spendUnit(db, now, org, false);
    expect(await spendUnit(db, now, org, false)).toMatchObject({ ok: false, status: { limit: 400, used: 400, resetsAt: "2026-04-01T00:00:00.000Z" } });
    expect(await quotaStatus(db, now, org, true)).toEqual({ limit: 50000, used: 0, remaining: 50000, resetsAt: "2026-04-20T00:00:00.000Z" });
    expect((await spendUnit(db, new Date("2026-04-01T00:00:00Z"), org, false)).ok).toBe(true);
  });

  test("concurrent spenders on one database file never overspend or lose a unit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "quota-"));
    try {
      const path = join(dir, "q.sqlite");
      const first = open(path);
      const org = await createOrg(first, at("2026-03-01T00:00:00Z"), { name: "a", plan: "free", billingDay: 1 });
      const now = new Date("2026-03-05T00:00:00Z");
      for (let i = 0; i < 10; i++) await spendUnit(first, now, org, true);
      // Four connections stand for four processes sharing the file (the server and CLI runs).
      const connections = [first, open(path), open(path), open(path)];
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => Promise.resolve().then(async () => (await spendUnit(connections[i % 4], now, org, true)).ok)),
      );
      expect(results.filter(Boolean).length).toBe(10);
      expect(await quotaStatus(first, now, org, true)).toMatchObject({ used: 20, remaining: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("an upgrade raises the running window at once; a downgrade waits for the next window", async () => {
    const db = open();
    const clock = at("2026-03-05T00:00:00Z");
    let org = await createOrg(db, clock, { name: "a", plan: "free", billingDay: 1 });
    const now = clock();
    for (let i = 0; i < 20; i++) await spendUnit(db, now, org, true);
    expect((await spendUnit(db, now, org, true)).ok).toBe(false);
    org = await setPlan(db, clock, org, "starter");
    expect(await quotaStatus(db, now, org, true)).toMatchObject({ limit: 2000, used: 20 });
    expect((await spendUnit(db, now, org, true)).ok).toBe(true);
    org = await setPlan(db, clock, org, "free");
    expect(await quotaStatus(db, now, org, true)).toMatchObject({ limit: 2000, used: 21 });
    expect((await spendUnit(db, now, org, true)).ok).toBe(true);
    expect(await quotaStatus(db, new Date("2026-04-02T00:00:00Z"), org, true)).toMatchObject({ limit: 20, used: 0 });
  });

  test("a downgrade before any use in the window still keeps the window's cap", async () => {
    const db = open();
    const clock = at("2026-03-05T00:00:00Z");
    let org = await createOrg(db, clock, { name: "a", plan: "growth", billingDay: 1 });
    org = await setPlan(db, clock, org, "free");
    expect((await quotaStatus(db, clock(), org, true)).limit).toBe(10000);
  });
});

describe("refunds", () => {
  async function spent(db: Storage, now: Date, n: number) {
    const org = await createOrg(db, () => now, { name: `o${Math.random()}`, plan: "scale", billingDay: 1 });
    const spends: Spend[] = [];
    for (let i = 0; i < n; i++) {
      const r = await spendUnit(db, now, org, true);
      if (r.ok) spends.push(r.spend);
    }
    return { org, spends };
  }

  test("a refund where nothing was computed is unconditional", async () => {
    const db = open();
    const now = new Date("2026-03-05T10:15:00Z");
    const { org, spends } = await spent(db, now, 60);
    for (const s of spends) expect(await refundUnit(db, now, s, false)).toBe(true);
    expect((await quotaStatus(db, now, org, true)).used).toBe(0);
  });

  test("refunds after compute are capped at 50 per organization and clock hour", async () => {
    const db = open();
    const now = new Date("2026-03-05T10:15:00Z");
    const { org, spends } = await spent(db, now, 60);
    const outcomes: boolean[] = [];
    for (const s of spends) outcomes.push(await refundUnit(db, now, s, true));
    expect(outcomes.filter(Boolean).length).toBe(COMPUTED_REFUNDS_PER_HOUR);
    expect(outcomes[50]).toBe(false);
    expect((await quotaStatus(db, now, org, true)).used).toBe(10);
    // The next clock hour has a fresh cap; another organization never shared this one.
    expect(await refundUnit(db, new Date("2026-03-05T11:00:00Z"), spends[0], true)).toBe(true);
    const other = await spent(db, now, 1);
    expect(await refundUnit(db, now, other.spends[0], true)).toBe(true);
  });
});
