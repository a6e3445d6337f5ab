// The embedded default: one SQLite file (or memory) served by one process.

import { openSqlite } from "./connection";
import { sqliteKeys, sqliteOrgs, sqliteQuota } from "./accounts";
import { sqliteDrift, sqliteTemplates } from "./records";
import { sqliteInboxProviders, sqliteParticipants, sqliteTransmissions } from "./transmissions";
import { sqliteWebhooks } from "./webhooks";
import { sqliteDashboard } from "./dashboard";
import { sqliteDelivery, sqliteSandbox } from "./delivery";
import { memoryCounters, memoryThrottles } from "../memory-limits";
import { embeddedMigrations } from "./migrations";
import type { Database } from "bun:sqlite";
import type { Storage } from "../storage";

/** The SQLite adapter, with its connection for tests that set a row by hand. */
export type SqliteStorage = Storage & { sqlite: Database };

export function openSqliteStorage(path: string, options: { migrate: boolean } = { migrate: true }): SqliteStorage {
  const { db, sqlite, applied } = openSqlite(path, options);
  // One process owns the file's limits, so an in-process queue is the whole lock.
  const held = new Map<string, Promise<unknown>>();
  return {
    dialect: "sqlite",
    sqlite,
    orgs: sqliteOrgs(db),
    keys: sqliteKeys(db),
    quota: sqliteQuota(db),
    counters: memoryCounters(),
    throttles: memoryThrottles(),
    templates: sqliteTemplates(db),
    drift: sqliteDrift(db),
    participants: sqliteParticipants(db),
    transmissions: sqliteTransmissions(db),
    inboxProviders: sqliteInboxProviders(db),
    webhooks: sqliteWebhooks(db),
    dashboard: sqliteDashboard(db),
    delivery: sqliteDelivery(db),
    sandbox: sqliteSandbox(db),
    async exclusively(name, wait, work) {
      const previous = held.get(name);
      if (previous && !wait) return { ran: false };
      const run = (previous ?? Promise.resolve()).catch(() => {}).then(work);
      held.set(name, run);
      try {
        return { ran: true, value: await run };
      } finally {
        if (held.get(name) === run) held.delete(name);
      }
    },
    async check() {
      const done = new Set(applied());
      const tags = embeddedMigrations().map((m) => m.tag);
      return { dialect: "sqlite", location: path, migrations: { applied: tags.filter((t) => done.has(t)), pending: tags.filter((t) => !done.has(t)) } };
    },
    async close() {
      sqlite.close();
    },
  };
}
