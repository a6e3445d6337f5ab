import { and, eq } from "drizzle-orm";
import type { Db } from "../db/connection";
import { pdfTemplates } from "../db/schema";
import type { Clock } from "../clock";
import { Value } from "@sinclair/typebox/value";
import { TemplateDefinition, type TemplateDefinitionInput } from "../pdf/design";
import type { Result } from "../errors/result";

/** No 0/O, 1/I/L: a ref is read aloud and typed by people. */
const REF_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

function newRef(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  const chars = Array.from(bytes, (b) => REF_ALPHABET[b % REF_ALPHABET.length]);
  return `${chars.slice(0, 3).join("")}-${chars.slice(3).join("")}`;
}

export interface StoredTemplate {
  ref: string;
  name: string;
  createdAt: string;
  definition: unknown;
}

export function createTemplate(db: Db, clock: Clock, orgId: string, name: string, definition: TemplateDefinitionInput): StoredTemplate {
  for (;;) {
    const row = { ref: newRef(), orgId, name, definition: JSON.stringify(definition), createdAt: clock().toISOString() };
    // Refs are short, so a collision is possible: draw again rather than fail.
    const inserted = db.insert(pdfTemplates).values(row).onConflictDoNothing().returning().get();
    if (inserted) return { ref: row.ref, name, createdAt: row.createdAt, definition };
  }
}

const toStored = (row: typeof pdfTemplates.$inferSelect): StoredTemplate => {
  let definition: unknown;
  try {
    definition = JSON.parse(row.definition);
  } catch {
    definition = row.definition;
  }
  return { ref: row.ref, name: row.name, createdAt: row.createdAt, definition };
};

export function listTemplates(db: Db, orgId: string): StoredTemplate[] {
  return db.select().from(pdfTemplates).where(eq(pdfTemplates.orgId, orgId)).orderBy(pdfTemplates.createdAt).all().map(toStored);
}

/** Another organization's ref is not found, exactly like a ref that never existed. */
export function findTemplate(db: Db, orgId: string, ref: string): StoredTemplate | undefined {
  const row = db
    .select()
    .from(pdfTemplates)
    .where(and(eq(pdfTemplates.ref, ref.toUpperCase()), eq(pdfTemplates.orgId, orgId)))
    .get();
  return row ? toStored(row) : undefined;
}

export function deleteTemplate(db: Db, orgId: string, ref: string): boolean {
  return db.delete(pdfTemplates).where(and(eq(pdfTemplates.ref, ref.toUpperCase()), eq(pdfTemplates.orgId, orgId))).returning().get() !== undefined;
}

/**
 * A stored definition is checked again when used: one written by an older version may no longer
 * fit the schema. Its logo is checked apart, in a worker (src/pdf/design-check.ts).
 */
export function storedDefinition(stored: StoredTemplate): Result<{ definition: TemplateDefinitionInput }, { problems: string[] }> {
  if (Value.Check(TemplateDefinition, stored.definition)) return { ok: true, definition: stored.definition };
  const problems = [...Value.Errors(TemplateDefinition, stored.definition)].slice(0, 5).map((e) => `${e.path || "/"} ${e.message}`);
  return { ok: false, problems: problems.length ? problems : ["the stored definition is not a JSON object"] };
}
