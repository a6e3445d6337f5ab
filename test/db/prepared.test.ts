import { afterAll, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { openStore } from "../../src/db/connection";
import { organizations } from "../../src/db/schema";
import { preparedOn } from "../../src/db/prepared";
import { createOrg } from "../../src/accounts/orgs";

const stores = [openStore(":memory:"), openStore(":memory:")];
afterAll(() => stores.forEach((s) => s.close()));
const clock = () => new Date("2026-11-22T10:00:00Z");

test("a statement is prepared once per database and reads that database", () => {
  let prepared = 0;
  const byName = preparedOn((db) => {
    prepared++;
    return db.select().from(organizations).where(eq(organizations.name, sql.placeholder("name"))).prepare();
  });
  const [a, b] = stores.map((s) => s.db);
  createOrg(a, clock, { name: "only-in-a" });
  expect(byName(a)).toBe(byName(a));
  expect(prepared).toBe(1);
  expect(byName(a).get({ name: "only-in-a" })?.name).toBe("only-in-a");
  expect(byName(b).get({ name: "only-in-a" })).toBeUndefined();
  expect(prepared).toBe(2);
});

test("a prepared statement run inside a transaction is part of it", () => {
  const db = stores[0].db;
  const rename = preparedOn((d) => d.update(organizations).set({ name: sql`${sql.placeholder("to")}` }).where(eq(organizations.name, sql.placeholder("from"))).prepare());
  createOrg(db, clock, { name: "before" });
  expect(() =>
    db.transaction(() => {
      rename(db).run({ from: "before", to: "after" });
      throw new Error("roll back");
    }),
  ).toThrow("roll back");
  expect(db.select().from(organizations).where(eq(organizations.name, "before")).get()).toBeDefined();
  expect(db.select().from(organizations).where(eq(organizations.name, "after")).get()).toBeUndefined();
});
