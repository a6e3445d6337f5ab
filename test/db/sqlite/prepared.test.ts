import { afterAll, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { openSqlite } from "../../../src/db/sqlite/connection";
import { organizations } from "../../../src/db/sqlite/schema";
import { preparedOn } from "../../../src/db/sqlite/prepared";

const stores = [openSqlite(":memory:"), openSqlite(":memory:")];
afterAll(() => stores.forEach((s) => s.sqlite.close()));
const org = (name: string) => ({ id: crypto.randomUUID(), name, plan: "free", billingDay: 1, rulesetChannel: "latest", createdAt: "2026-11-22T10:00:00Z" });

test("a statement is prepared once per database and reads that database", () => {
  let prepared = 0;
  const byName = preparedOn((db) => {
    prepared++;
    return db.select().from(organizations).where(eq(organizations.name, sql.placeholder("name"))).prepare();
  });
  const [a, b] = stores.map((s) => s.db);
  a.insert(organizations).values(org("only-in-a")).run();
  expect(byName(a)).toBe(byName(a));
  expect(prepared).toBe(1);
  expect(byName(a).get({ name: "only-in-a" })?.name).toBe("only-in-a");
  expect(byName(b).get({ name: "only-in-a" })).toBeUndefined();
  expect(prepared).toBe(2);
});

test("a prepared statement run inside a transaction is part of it", () => {
  const db = stores[0].db;
  const rename = preparedOn((d) => d.update(organizations).set({ name: sql`${sql.placeholder("to")}` }).where(eq(organizations.name, sql.placeholder("from"))).prepare());
  db.insert(organizations).values(org("before")).run();
  expect(() =>
    db.transaction(() => {
      rename(db).run({ from: "before", to: "after" });
      throw new Error("roll back");
    }),
  ).toThrow("roll back");
  expect(db.select().from(organizations).where(eq(organizations.name, "before")).get()).toBeDefined();
  expect(db.select().from(organizations).where(eq(organizations.name, "after")).get()).toBeUndefined();
});
