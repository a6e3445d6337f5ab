import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import journal from "../../src/db/migrations/meta/_journal.json";
import { migrationSql } from "../../src/db/migrations";
import { openStore } from "../../src/db/connection";

test("every migration drizzle-kit generated is embedded, and only those", () => {
  const files = readdirSync(new URL("../../src/db/migrations", import.meta.url)).filter((f) => f.endsWith(".sql")).map((f) => f.replace(/\.sql$/, ""));
  expect(Object.keys(migrationSql).sort()).toEqual(files.sort());
  expect(journal.entries.map((e) => e.tag).sort()).toEqual(files.sort());
});

test("migrations apply on open, once, in WAL mode", () => {
  const dir = `${require("node:os").tmpdir()}/mig-${crypto.randomUUID()}`;
  const first = openStore(`${dir}/db.sqlite`);
  first.close();
  const again = openStore(`${dir}/db.sqlite`);
  expect(again.sqlite.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
  expect(again.sqlite.query("select count(*) as n from __drizzle_migrations").get()).toEqual({ n: journal.entries.length });
  again.close();
});
