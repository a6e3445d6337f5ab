import type { Storage } from "./storage";
import { openSqliteStorage } from "./sqlite/storage";

/** How a PostgreSQL database is used; SQLite takes none of these. */
export interface PostgresOptions {
  /** Connections per instance. */
  poolSize: number;
  /** Longest a statement may run before the database cancels it (and the request answers 503). */
  statementTimeoutMs: number;
}

/** False opens without applying migrations (`db check` only looks). */
type OpenOptions = PostgresOptions & { migrate?: boolean };

export const DEFAULT_POSTGRES_OPTIONS: PostgresOptions = { poolSize: 10, statementTimeoutMs: 5_000 };

/** A `postgres://` or `postgresql://` URL selects PostgreSQL; anything else is a SQLite file path (or `:memory:`). */
export const isPostgresUrl = (location: string) => /^postgres(?:ql)?:\/\//i.test(location);

/** Opens the database and applies pending migrations (under an advisory lock on PostgreSQL). */
export async function openStorage(location: string, options: OpenOptions = DEFAULT_POSTGRES_OPTIONS): Promise<Storage> {
  if (!isPostgresUrl(location)) return openSqliteStorage(location, { migrate: options.migrate ?? true });
  // Loaded only when asked for: a SQLite start-up never pays for the driver.
  const { openPostgresStorage } = await import("./postgres/storage");
  return openPostgresStorage(location, options);
}

/** The location as logs and `db check` show it: a URL without its password. */
export function redactedLocation(location: string): string {
  if (!isPostgresUrl(location)) return location;
  try {
    const url = new URL(location);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "(a PostgreSQL URL that does not parse)";
  }
}
