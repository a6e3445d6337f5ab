/**
 * A dialect's migrations as the compiled executable carries them: drizzle-kit's journal plus the
 * text of each file it generated, imported as text (drizzle's own migrator reads a folder from
 * disk, which the executable does not have). Each dialect's `migrations.ts` lists its files; a test
 * per dialect keeps that list equal to the journal.
 */
export interface EmbeddedMigration {
  tag: string;
  /** The journal's `when`: drizzle's bookkeeping orders and recognises migrations by it. */
  when: number;
  /** What drizzle records: the SHA-256 of the file as written. */
  hash: string;
  /** The file split at drizzle-kit's breakpoints. */
  statements: string[];
  breakpoints: boolean;
}

interface Journal {
  entries: { tag: string; when: number; breakpoints: boolean }[];
}

export function embedMigrations(journal: Journal, migrationSql: Record<string, string>, listedIn: string): EmbeddedMigration[] {
  return journal.entries.map((entry) => {
    const text = migrationSql[entry.tag];
    if (text === undefined) throw new Error(`migration ${entry.tag} is in the journal but not embedded in ${listedIn}`);
    return {
      tag: entry.tag,
      when: entry.when,
      hash: new Bun.CryptoHasher("sha256").update(text).digest("hex"),
      statements: text.split("--> statement-breakpoint"),
      breakpoints: entry.breakpoints,
    };
  });
}
