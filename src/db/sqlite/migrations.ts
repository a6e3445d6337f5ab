import journal from "./migrations/meta/_journal.json";
import init from "./migrations/0000_init.sql" with { type: "text" };
import driftChecks from "./migrations/0001_drift_checks.sql" with { type: "text" };
import pdfTemplates from "./migrations/0002_pdf_templates.sql" with { type: "text" };

/**
 * The SQL of every migration, imported as text so the compiled executable carries them (drizzle's
 * own migrator reads a folder from disk, which the executable does not have). Add each new file
 * drizzle-kit generates here; a test checks this list against the journal.
 */
export const migrationSql: Record<string, string> = {
  "0000_init": init,
  "0001_drift_checks": driftChecks,
  "0002_pdf_templates": pdfTemplates,
};

interface MigrationMeta {
  tag: string;
  sql: string[];
  bps: boolean;
  folderMillis: number;
  hash: string;
}

/** The same records drizzle's `readMigrationFiles` builds, made from the embedded text. */
export function embeddedMigrations(): MigrationMeta[] {
  return journal.entries.map((entry) => {
    const text = migrationSql[entry.tag];
    if (text === undefined) throw new Error(`migration ${entry.tag} is in the journal but not embedded in src/db/sqlite/migrations.ts`);
    return {
      tag: entry.tag,
      sql: text.split("--> statement-breakpoint"),
      bps: entry.breakpoints,
      folderMillis: entry.when,
      hash: new Bun.CryptoHasher("sha256").update(text).digest("hex"),
    };
  });
}
