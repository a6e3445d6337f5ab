// What the advisory tests share: our own documents from the fixtures, and the advisory findings
// a verdict on a document carries.

import { LOCALES, SCENARIOS } from "../../../fixtures/invoices.ts";
import { rulesetBundle } from "../../../src/assets/bundle.ts";
import { generateXml } from "../../../src/generate/generate.ts";
import type { RecordId } from "../../../src/profiles/ids.ts";
import { createEngine } from "../../../src/validation/engine.ts";
import type { ValidationResult } from "../../../src/validation/result.ts";
import { validateDocument } from "../../../src/validation/validate.ts";

const engine = createEngine(rulesetBundle());

const LOCALE = { fatturapa: LOCALES.it, facturae: LOCALES.es } as const;

/** Our document for a fixture scenario, as generate writes it; undefined when the standard refuses the scenario (credit notes). */
export function generated(standard: keyof typeof LOCALE, scenario: string): string | undefined {
  const invoice = SCENARIOS.find((s) => s.name === scenario)!.build(LOCALE[standard]);
  if (invoice.documentType === "creditnote") return undefined;
  return new TextDecoder().decode(generateXml({ standard, invoice }, { livemode: true }).bytes);
}

export async function judge(xml: string | Uint8Array, record?: RecordId): Promise<ValidationResult> {
  const outcome = await validateDocument(engine, { bytes: typeof xml === "string" ? new TextEncoder().encode(xml) : xml, ...(record && { record }) });
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.result;
}

const isAdvisory = (ruleId: string) => ruleId.endsWith("_NOT_ENFORCED");

/** The national advisories a verdict carries, by rule id, sorted and deduplicated. */
export const advisoryIds = (result: ValidationResult): string[] => [...new Set(result.warnings.map((w) => w.ruleId).filter(isAdvisory))].sort();

/** Replaces exactly one occurrence, so a mutation that no longer matches the writer's output fails loudly. */
export function mutate(xml: string, from: string, to: string): string {
  const at = xml.indexOf(from);
  if (at < 0 || xml.indexOf(from, at + 1) >= 0) throw new Error(`expected exactly one ${JSON.stringify(from)}`);
  return xml.slice(0, at) + to + xml.slice(at + from.length);
}
