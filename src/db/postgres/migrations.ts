import journal from "./migrations/meta/_journal.json";
import init from "./migrations/0000_init.sql" with { type: "text" };

/**
 * The SQL of every PostgreSQL migration, imported as text so the compiled executable carries them.
 * Add each file `bunx drizzle-kit generate --config drizzle.postgres.config.ts` writes here; a test
 * checks this list against the journal.
 */
export const migrationSql: Record<string, string> = {
  "0000_init": init,
};

export interface Migration {
  tag: string;
  /** The journal's `when`: drizzle's bookkeeping orders and recognises migrations by it. */
  when: number;
  /** What drizzle records: the SHA-256 of the file as written. */
  hash: string;
  statements: string[];
}

export function embeddedMigrations(): Migration[] {
  return journal.entries.map((entry) => {
    const text = migrationSql[entry.tag];
    if (text === undefined) throw new Error(`migration ${entry.tag} is in the journal but not embedded in src/db/postgres/migrations.ts`);
    return {
      tag: entry.tag,
      when: entry.when,
      hash: new Bun.CryptoHasher("sha256").update(text).digest("hex"),
      statements: text.split("--> statement-breakpoint").filter((s) => s.trim() !== ""),
    };
  });
}
