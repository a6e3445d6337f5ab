import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import type { Storage } from "../storage";
import { DEFAULT_POSTGRES_OPTIONS, type OpenOptions } from "../open";
import { redactedLocation } from "../location";
import { keyRepository, orgRepository, quotaRepository } from "./accounts";
import { rollingCounters, throttleRecords } from "./limits";
import { driftRepository, templateRepository } from "./records";
import { inboxProviderRepository, participantRepository, transmissionRepository } from "./transmissions";
import { webhookRepository } from "./webhooks";
import { dashboardRepository } from "./dashboard";
import { deliveryRecords, sandboxRecords } from "./delivery";
import { holdingLock } from "./locks";
import { applyMigrations, migrationState } from "./migrate";
import { guarded, unavailableAsError } from "./unavailable";

type Options = Partial<OpenOptions> & {
  /** Told each migration this instance applied at open. */
  log?: (line: string) => void;
};

/**
 * Connects and applies pending migrations (under an advisory lock, so instances starting together
 * apply each once). The driver reconnects by itself, so a storage outlives a database restart.
 */
export async function openPostgresStorage(url: string, options: Options = {}): Promise<Storage> {
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_POSTGRES_OPTIONS.statementTimeoutMs;
  const sql = postgres(url, {
    max: options.poolSize ?? DEFAULT_POSTGRES_OPTIONS.poolSize,
    connection: { statement_timeout: statementTimeoutMs },
    // Waiting longer for a connection than for a statement would only hide an outage.
    connect_timeout: Math.max(1, Math.ceil(statementTimeoutMs / 1000)),
    onnotice: () => {},
  });
  try {
    if (options.migrate !== false) for (const tag of await unavailableAsError(() => applyMigrations(sql))) options.log?.(`applied migration ${tag}`);
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
    participants: guarded(participantRepository(db)),
    transmissions: guarded(transmissionRepository(db)),
    inboxProviders: guarded(inboxProviderRepository(db)),
    webhooks: guarded(webhookRepository(db)),
    dashboard: guarded(dashboardRepository(db)),
    delivery: guarded(deliveryRecords(db)),
    sandbox: guarded(sandboxRecords(db)),
    exclusively: (name, wait, work) => unavailableAsError(() => holdingLock(sql, name, wait, () => work())),
    check: () =>
      unavailableAsError(async () => ({ dialect: "postgres" as const, location: redactedLocation(url), migrations: await migrationState(sql) })),
    close: () => sql.end({ timeout: 5 }),
  };
}
