import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import type { Storage } from "../storage";
import { keyRepository, orgRepository, quotaRepository } from "./accounts";
import { rollingCounters, throttleRecords } from "./limits";
import { driftRepository, templateRepository } from "./records";
import { holdingLock } from "./locks";
import { applyMigrations, migrationState } from "./migrate";
import { guarded, unavailableAsError } from "./unavailable";

interface PostgresOptions {
  /** Connections per instance. */
  poolSize?: number;
  /** PostgreSQL's `statement_timeout` on every connection; a statement past it is StorageUnavailable. */
  statementTimeoutMs?: number;
  /** Told each migration this instance applied at open. */
  log?: (line: string) => void;
}

/** The URL as `einvoice db check` may print it (a URL the WHATWG parser refuses, e.g. with a socket path, loses its userinfo). */
function withoutPassword(url: string): string {
  if (!URL.canParse(url)) return url.replace(/\/\/[^@/]*@/, "//");
  const parsed = new URL(url);
  parsed.password = "";
  return parsed.toString();
}

/**
 * Connects and applies pending migrations (under an advisory lock, so instances starting together
 * apply each once). The driver reconnects by itself, so a storage outlives a database restart.
 */
export async function openPostgresStorage(url: string, options: PostgresOptions = {}): Promise<Storage> {
  const statementTimeoutMs = options.statementTimeoutMs ?? 5000;
  const sql = postgres(url, {
    max: options.poolSize ?? 10,
    connection: { statement_timeout: statementTimeoutMs },
    // Waiting longer for a connection than for a statement would only hide an outage.
    connect_timeout: Math.max(1, Math.ceil(statementTimeoutMs / 1000)),
    onnotice: () => {},
  });
  try {
    for (const tag of await unavailableAsError(() => applyMigrations(sql))) options.log?.(`applied migration ${tag}`);
  } catch (error) {
    await sql.end();
    throw error;
  }
  const db = drizzle(sql);
  return {
    dialect: "postgres",
    orgs: guarded(orgRepository(db)),
    keys: guarded(keyRepository(db)),
    quota: guarded(quotaRepository(db)),
    counters: guarded(rollingCounters(db)),
    throttles: guarded(throttleRecords(db)),
    templates: guarded(templateRepository(db)),
    drift: guarded(driftRepository(db)),
    exclusively: (name, wait, work) => unavailableAsError(() => holdingLock(sql, name, wait, () => work())),
    check: () =>
      unavailableAsError(async () => ({ dialect: "postgres" as const, location: withoutPassword(url), migrations: await migrationState(sql) })),
    close: () => sql.end({ timeout: 5 }),
  };
}
