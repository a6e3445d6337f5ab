import journal from "./migrations/meta/_journal.json";
import init from "./migrations/0000_init.sql" with { type: "text" };
import driftChecks from "./migrations/0001_drift_checks.sql" with { type: "text" };
import pdfTemplates from "./migrations/0002_pdf_templates.sql" with { type: "text" };
import transmissions from "./migrations/0003_transmissions.sql" with { type: "text" };
import dashboard from "./migrations/0004_dashboard.sql" with { type: "text" };
import { embedMigrations } from "../embedded-migrations";

/**
 * The SQL of every migration, imported as text so the compiled executable carries them (drizzle's
 * own migrator reads a folder from disk, which the executable does not have). Add each new file
 * drizzle-kit generates here; a test checks this list against the journal.
 */
export const migrationSql: Record<string, string> = {
  "0000_init": init,
  "0001_drift_checks": driftChecks,
  "0002_pdf_templates": pdfTemplates,
  "0003_transmissions": transmissions,
  "0004_dashboard": dashboard,
};

/** The records drizzle's `readMigrationFiles` builds, which its SQLite migrator takes. */
export function embeddedMigrations() {
  return embedMigrations(journal, migrationSql, "src/db/sqlite/migrations.ts").map((m) => ({
    tag: m.tag,
    sql: m.statements,
    bps: m.breakpoints,
    folderMillis: m.when,
    hash: m.hash,
  }));
}
