import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import postgres from "postgres";
import { readMigrationFiles } from "drizzle-orm/migrator";
import journal from "../../../src/db/postgres/migrations/meta/_journal.json";
import { embeddedMigrations, migrationSql } from "../../../src/db/postgres/migrations";
import { openPostgresStorage } from "../../../src/db/postgres/storage";
import { cannotRun } from "../../support/requirements";
import { freshDatabase, postgresMissing } from "../../support/postgres";

const folder = new URL("../../../src/db/postgres/migrations", import.meta.url).pathname;

test("every migration drizzle-kit generated is embedded, and only those", () => {
  const files = readdirSync(folder).filter((f) => f.endsWith(".sql")).map((f) => f.replace(/\.sql$/, ""));
  expect(Object.keys(migrationSql).sort()).toEqual(files.sort());
  expect(journal.entries.map((e) => e.tag).sort()).toEqual(files.sort());
});

test("the embedded migrations are the records drizzle's own migrator reads from the folder", () => {
  const drizzles = readMigrationFiles({ migrationsFolder: folder }).map((m) => ({ when: m.folderMillis, hash: m.hash }));
  expect(embeddedMigrations().map((m) => ({ when: m.when, hash: m.hash }))).toEqual(drizzles);
});

test.skipIf(cannotRun("PostgreSQL migrations", postgresMissing()))("four instances opening an empty database at once apply each migration once", async () => {
  const url = await freshDatabase();
  const applied: string[] = [];
  const instances = await Promise.all(Array.from({ length: 4 }, () => openPostgresStorage(url, { log: (line) => applied.push(line) })));
  try {
    expect(applied).toEqual(journal.entries.map((e) => `applied migration ${e.tag}`));
    const sql = postgres(url, { max: 1 });
    const rows = await sql`select hash, created_at::text as "when" from drizzle.__drizzle_migrations order by id`;
    await sql.end();
    expect(rows.map((r) => ({ hash: r.hash, when: Number(r.when) }))).toEqual(embeddedMigrations().map((m) => ({ hash: m.hash, when: m.when })));
    for (const [i, storage] of instances.entries()) {
      const org = { id: `org_${i}`, name: `Org ${i}`, plan: "free", billingDay: 1, rulesetChannel: "latest", createdAt: "2026-01-01T00:00:00.000Z" };
      expect(await storage.orgs.insert(org)).toBe(true);
      expect(await storage.check()).toMatchObject({ migrations: { applied: journal.entries.map((e) => e.tag), pending: [] } });
    }
  } finally {
    await Promise.all(instances.map((s) => s.close()));
  }
});

test.skipIf(cannotRun("PostgreSQL migrations", postgresMissing()))("reopening applies nothing; check names the database without its password", async () => {
  const url = new URL(await freshDatabase());
  await (await openPostgresStorage(url.toString())).close();
  const applied: string[] = [];
  // The test servers trust local connections, so any password is accepted (and must not be shown).
  if (!url.password) url.password = "s3cret";
  const storage = await openPostgresStorage(url.toString(), { log: (line) => applied.push(line) });
  try {
    expect(applied).toEqual([]);
    const { location } = await storage.check();
    expect(location).not.toContain(url.password);
    expect(location).toBe(Object.assign(new URL(url), { password: "" }).toString());
  } finally {
    await storage.close();
  }
});
