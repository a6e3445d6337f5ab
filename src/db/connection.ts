import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import * as schema from "./schema";
import { embeddedMigrations } from "./migrations";

export type Db = BunSQLiteDatabase<typeof schema>;

export interface Store {
  db: Db;
  sqlite: Database;
  close(): void;
}

/** Opens (creating if needed) the SQLite file, switches to WAL and applies pending migrations. */
export function openStore(path: string): Store {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  // CLI commands and the server may write the same file at once; wait instead of failing.
  sqlite.exec("PRAGMA busy_timeout = 5000");
  const db = drizzle(sqlite, { schema });
  // drizzle's dialect migrator is what `migrate()` calls after reading files from disk.
  (db as any).dialect.migrate(embeddedMigrations(), (db as any).session, {});
  return { db, sqlite, close: () => sqlite.close() };
}
