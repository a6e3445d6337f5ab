import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import * as schema from "./schema";
import { embeddedMigrations } from "./migrations";

export type Db = BunSQLiteDatabase<typeof schema>;

/** Opens (creating if needed) the SQLite file, switches to WAL and applies pending migrations. */
export function openSqlite(path: string, options = { migrate: true }): { db: Db; sqlite: Database; applied(): string[] } {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  // CLI commands and the server may write the same file at once; wait instead of failing.
  sqlite.exec("PRAGMA busy_timeout = 5000");
  const db = drizzle(sqlite, { schema });
  const migrations = embeddedMigrations();
  // drizzle's dialect migrator is what `migrate()` calls after reading files from disk.
  if (options.migrate) (db as any).dialect.migrate(migrations, (db as any).session, {});
  const applied = () => {
    const bookkept = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
    if (!bookkept) return [];
    const hashes = new Set(sqlite.query<{ hash: string }, []>("SELECT hash FROM __drizzle_migrations").all().map((r) => r.hash));
    return migrations.filter((m) => hashes.has(m.hash)).map((m) => m.tag);
  };
  return { db, sqlite, applied };
}
