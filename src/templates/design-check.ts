// What the schema cannot see in a PDF template: its logo must decode and be drawable. The logo is
// caller bytes, so this runs in an engine worker (or in the offline CLI), never on the HTTP thread.

import { Value } from "@sinclair/typebox/value";
import { TemplateDefinition, type TemplateDefinitionInput } from "./definition";
import type { StoredTemplate } from "./store";
import { decodeLogo } from "../pdf/logo";

export type UsableTemplate = { ok: true; definition: TemplateDefinitionInput } | { ok: false; problems: string[] };

/**
 * What the schema cannot see: a logo must decode and be drawable without transparency (PDF/A).
 * Checked when a template is stored, and again when it is used.
 */
export function designProblems(definition: TemplateDefinitionInput): { path: string; message: string }[] {
  if (!definition.logo) return [];
  const logo = decodeLogo(definition.logo);
  return logo.ok ? [] : [{ path: "/definition/logo", message: logo.problem }];
}

/** A stored definition is checked again when used: one written by an older version may no longer fit. */
export function usableDefinition(stored: StoredTemplate): UsableTemplate {
  if (Value.Check(TemplateDefinition, stored.definition)) {
    const problems = designProblems(stored.definition).map((p) => `${p.path} ${p.message}`);
    return problems.length ? { ok: false, problems } : { ok: true, definition: stored.definition };
  }
  const problems = [...Value.Errors(TemplateDefinition, stored.definition)].slice(0, 5).map((e) => `${e.path || "/"} ${e.message}`);
  return { ok: false, problems: problems.length ? problems : ["the stored definition is not a JSON object"] };
}
