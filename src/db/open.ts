import type { Storage } from "./storage";
import { openSqliteStorage } from "./sqlite/storage";
import { isPostgresUrl } from "./location";

/** How a PostgreSQL database is used; SQLite takes none of these. */
export interface PostgresOptions {
  /** Connections per instance. */
  poolSize: number;
  /** Longest a statement may run before the database cancels it (and the request answers 503). */
  statementTimeoutMs: number;
}

/** `migrate: false` opens without applying migrations (`db check` only looks). */
export type OpenOptions = PostgresOptions & { migrate?: boolean };

export const DEFAULT_POSTGRES_OPTIONS: PostgresOptions = { poolSize: 10, statementTimeoutMs: 5_000 };


/** Opens the database and applies pending migrations (under an advisory lock on PostgreSQL). */
export async function openStorage(location: string, options: OpenOptions = DEFAULT_POSTGRES_OPTIONS): Promise<Storage> {
  if (!isPostgresUrl(location)) return openSqliteStorage(location, { migrate: options.migrate ?? true });
  // Loaded only when asked for: a SQLite start-up never pays for the driver.
  const { openPostgresStorage } = await import("./postgres/storage");
  return openPostgresStorage(location, options);
}

