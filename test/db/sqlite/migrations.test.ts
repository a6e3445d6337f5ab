import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import journal from "../../../src/db/sqlite/migrations/meta/_journal.json";
import { migrationSql } from "../../../src/db/sqlite/migrations";
import { openSqlite } from "../../../src/db/sqlite/connection";

test("every migration drizzle-kit generated is embedded, and only those", () => {
  const files = readdirSync(new URL("../../../src/db/sqlite/migrations", import.meta.url)).filter((f) => f.endsWith(".sql")).map((f) => f.replace(/\.sql$/, ""));
  expect(Object.keys(migrationSql).sort()).toEqual(files.sort());
  expect(journal.entries.map((e) => e.tag).sort()).toEqual(files.sort());
});

test("migrations apply on open, once, in WAL mode", () => {
  const dir = `${require("node:os").tmpdir()}/mig-${crypto.randomUUID()}`;
  const first = openSqlite(`${dir}/db.sqlite`);
  first.sqlite.close();
  const again = openSqlite(`${dir}/db.sqlite`);
  expect(again.sqlite.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
  expect(again.sqlite.query("select count(*) as n from __drizzle_migrations").get()).toEqual({ n: journal.entries.length });
  expect(again.applied()).toEqual(journal.entries.map((e) => e.tag));
  again.sqlite.close();
});
