// What the schema cannot see in a PDF template: its logo must decode and be drawable. The logo is
// caller bytes, so this runs in an engine worker (or in the offline CLI), never on the HTTP thread.

import type { TemplateDefinitionInput } from "./design";
import { decodeLogo } from "./logo";

/**
 * What the schema cannot see: a logo must decode and be drawable without transparency (PDF/A).
 * Checked when a template is stored, and again when it is used.
 */
export function designProblems(definition: TemplateDefinitionInput): { path: string; message: string }[] {
  if (!definition.logo) return [];
  const logo = decodeLogo(definition.logo);
  return logo.ok ? [] : [{ path: "/definition/logo", message: logo.message }];
}
