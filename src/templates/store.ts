import type { Storage, TemplateRow } from "../db/storage";
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

export async function createTemplate(storage: Storage, clock: Clock, orgId: string, name: string, definition: TemplateDefinitionInput): Promise<StoredTemplate> {
  for (;;) {
    const row = { ref: newRef(), orgId, name, definition: JSON.stringify(definition), createdAt: clock().toISOString() };
    // Refs are short, so a collision is possible: draw again rather than fail.
    if (await storage.templates.insert(row)) return { ref: row.ref, name, createdAt: row.createdAt, definition };
  }
}

const toStored = (row: TemplateRow): StoredTemplate => {
  let definition: unknown;
  try {
    definition = JSON.parse(row.definition);
  } catch {
    definition = row.definition;
  }
  return { ref: row.ref, name: row.name, createdAt: row.createdAt, definition };
};

export async function listTemplates(storage: Storage, orgId: string): Promise<StoredTemplate[]> {
  return (await storage.templates.listFor(orgId)).map(toStored);
}

/** Another organization's ref is not found, exactly like a ref that never existed. */
export async function findTemplate(storage: Storage, orgId: string, ref: string): Promise<StoredTemplate | undefined> {
  const row = await storage.templates.find(orgId, ref.toUpperCase());
  return row ? toStored(row) : undefined;
}

export function deleteTemplate(storage: Storage, orgId: string, ref: string): Promise<boolean> {
  return storage.templates.delete(orgId, ref.toUpperCase());
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
