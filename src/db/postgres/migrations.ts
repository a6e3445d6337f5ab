import journal from "./migrations/meta/_journal.json";
import init from "./migrations/0000_init.sql" with { type: "text" };
import transmissions from "./migrations/0001_transmissions.sql" with { type: "text" };
import dashboard from "./migrations/0002_dashboard.sql" with { type: "text" };
import { embedMigrations, type EmbeddedMigration } from "../embedded-migrations";

/**
 * The SQL of every PostgreSQL migration, imported as text so the compiled executable carries them.
 * Add each file `bunx drizzle-kit generate --config drizzle.postgres.config.ts` writes here; a test
 * checks this list against the journal.
 */
export const migrationSql: Record<string, string> = {
  "0000_init": init,
  "0001_transmissions": transmissions,
  "0002_dashboard": dashboard,
};

export type Migration = EmbeddedMigration;

export function embeddedMigrations(): Migration[] {
  // drizzle-kit ends a file with a breakpoint; PostgreSQL refuses an empty statement.
  return embedMigrations(journal, migrationSql, "src/db/postgres/migrations.ts").map((m) => ({ ...m, statements: m.statements.filter((s) => s.trim() !== "") }));
}
