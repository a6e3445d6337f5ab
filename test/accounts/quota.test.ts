import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "../../src/db/connection";
import { createOrg, setPlan } from "../../src/accounts/orgs";
import { COMPUTED_REFUNDS_PER_HOUR, quotaStatus, refundUnit, spendUnit, type Spend } from "../../src/accounts/quota";

const stores: Store[] = [];
const open = (path = ":memory:") => {
  const s = openStore(path);
  stores.push(s);
  return s;
};
afterEach(() => stores.splice(0).forEach((s) => s.close()));

const at = (iso: string) => () => new Date(iso);

describe("monthly quota", () => {
  test("spends up to the plan cap, then refuses with the usage and window end", () => {
    const { db } = open();
    const org = createOrg(db, at("2026-03-01T00:00:00Z"), { name: "a", plan: "free", billingDay: 10 });
    const now = new Date("2026-03-12T00:00:00Z");
    for (let i = 0; i < 20; i++) expect(spendUnit(db, now, org, true).ok).toBe(true);
    const refused = spendUnit(db, now, org, true);
    expect(refused).toEqual({ ok: false, status: { limit: 20, used: 20, remaining: 0, resetsAt: "2026-04-10T00:00:00.000Z" } });
    // The next billing window starts fresh.
    expect(spendUnit(db, new Date("2026-04-10T00:00:00Z"), org, true).ok).toBe(true);
  });

  test("test keys have 400 calls per UTC month whatever the plan, counted apart from live", () => {
    const { db } = open();
    const org = createOrg(db, at("2026-03-01T00:00:00Z"), { name: "a", plan: "scale", billingDay: 20 });
    const now = new Date("2026-03-31T23:00:00Z");
    for (let i = 0; i < 400; i++) spendUnit(db, now, org, false);
    expect(spendUnit(db, now, org, false)).toMatchObject({ ok: false, status: { limit: 400, used: 400, resetsAt: "2026-04-01T00:00:00.000Z" } });
    expect(quotaStatus(db, now, org, true)).toEqual({ limit: 50000, used: 0, remaining: 50000, resetsAt: "2026-04-20T00:00:00.000Z" });
    expect(spendUnit(db, new Date("2026-04-01T00:00:00Z"), org, false).ok).toBe(true);
  });

  test("concurrent spenders on one database file never overspend or lose a unit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "quota-"));
    try {
      const path = join(dir, "q.sqlite");
      const first = open(path);
      const org = createOrg(first.db, at("2026-03-01T00:00:00Z"), { name: "a", plan: "free", billingDay: 1 });
      const now = new Date("2026-03-05T00:00:00Z");
      for (let i = 0; i < 10; i++) spendUnit(first.db, now, org, true);
      // Four connections stand for four processes sharing the file (the server and CLI runs).
      const connections = [first, open(path), open(path), open(path)];
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => Promise.resolve().then(() => spendUnit(connections[i % 4].db, now, org, true).ok)),
      );
      expect(results.filter(Boolean).length).toBe(10);
      expect(quotaStatus(first.db, now, org, true)).toMatchObject({ used: 20, remaining: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("an upgrade raises the running window at once; a downgrade waits for the next window", () => {
    const { db } = open();
    const clock = at("2026-03-05T00:00:00Z");
    let org = createOrg(db, clock, { name: "a", plan: "free", billingDay: 1 });
    const now = clock();
    for (let i = 0; i < 20; i++) spendUnit(db, now, org, true);
    expect(spendUnit(db, now, org, true).ok).toBe(false);
    org = setPlan(db, clock, org, "starter");
    expect(quotaStatus(db, now, org, true)).toMatchObject({ limit: 2000, used: 20 });
    expect(spendUnit(db, now, org, true).ok).toBe(true);
    org = setPlan(db, clock, org, "free");
    expect(quotaStatus(db, now, org, true)).toMatchObject({ limit: 2000, used: 21 });
    expect(spendUnit(db, now, org, true).ok).toBe(true);
    expect(quotaStatus(db, new Date("2026-04-02T00:00:00Z"), org, true)).toMatchObject({ limit: 20, used: 0 });
  });

  test("a downgrade before any use in the window still keeps the window's cap", () => {
    const { db } = open();
    const clock = at("2026-03-05T00:00:00Z");
    let org = createOrg(db, clock, { name: "a", plan: "growth", billingDay: 1 });
    org = setPlan(db, clock, org, "free");
    expect(quotaStatus(db, clock(), org, true).limit).toBe(10000);
  });
});

describe("refunds", () => {
  function spent(db: Store["db"], now: Date, n: number) {
    const org = createOrg(db, () => now, { name: `o${Math.random()}`, plan: "scale", billingDay: 1 });
    const spends: Spend[] = [];
    for (let i = 0; i < n; i++) {
      const r = spendUnit(db, now, org, true);
      if (r.ok) spends.push(r.spend);
    }
    return { org, spends };
  }

  test("a refund where nothing was computed is unconditional", () => {
    const { db } = open();
    const now = new Date("2026-03-05T10:15:00Z");
    const { org, spends } = spent(db, now, 60);
    for (const s of spends) expect(refundUnit(db, now, s, false)).toBe(true);
    expect(quotaStatus(db, now, org, true).used).toBe(0);
  });

  test("refunds after compute are capped at 50 per organization and clock hour", () => {
    const { db } = open();
    const now = new Date("2026-03-05T10:15:00Z");
    const { org, spends } = spent(db, now, 60);
    const outcomes = spends.map((s) => refundUnit(db, now, s, true));
    expect(outcomes.filter(Boolean).length).toBe(COMPUTED_REFUNDS_PER_HOUR);
    expect(outcomes[50]).toBe(false);
    expect(quotaStatus(db, now, org, true).used).toBe(10);
    // The next clock hour has a fresh cap; another organization never shared this one.
    expect(refundUnit(db, new Date("2026-03-05T11:00:00Z"), spends[0], true)).toBe(true);
    const other = spent(db, now, 1);
    expect(refundUnit(db, now, other.spends[0], true)).toBe(true);
  });
});
