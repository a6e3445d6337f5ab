// Compares the engine's outcome for a corpus row with the row's upstream expectations.

import type { ValidationFinding } from "../../src/validation/result";
import type { CorpusRow } from "./corpus";
import type { PassRecord } from "./engine-pass";

/**
 * SimplerInvoicing names a rule in its file names without the suffix some NLCIUS asserts carry
 * (`BR-NL-27` for asserts `BR-NL-27-1` … `-4`), so for that source a suffixed id counts too.
 */
const SUFFIXED_IDS: Record<string, RegExp> = { "SimplerInvoicing/testset": /^(.*)-\d+$/ };

/** Whether the row states anything the engine can be held to. */
export function isJudged(row: CorpusRow): boolean {
  return row.expectedValid !== null || row.expectedRuleIds.length + row.expectedWarningRuleIds.length + row.expectedAbsentRuleIds.length > 0;
}

/** What contradicts the row's expectations; empty when the engine agrees. */
export function differences(row: CorpusRow, record: PassRecord): string[] {
  const { outcome } = record;
  if (!outcome.ok && "failed" in outcome) return [`engine failed: ${outcome.message}`];
  // A request the service refuses to judge (a PDF without invoice XML) is not an acceptance.
  const result = outcome.ok ? outcome.result : { valid: false, errors: [], warnings: [] };
  const suffixed = SUFFIXED_IDS[row.source.replace(/@.*$/, "")];
  const ids = (findings: ValidationFinding[]) => {
    const set = new Set<string>();
    for (const f of findings) {
      set.add(f.ruleId);
      const base = suffixed?.exec(f.ruleId)?.[1];
      if (base) set.add(base);
    }
    return set;
  };
  const errors = ids(result.errors);
  const warnings = ids(result.warnings.filter((f) => f.severity === "warning"));
  const fired = new Set([...errors, ...ids(result.warnings)]);
  const out: string[] = [];
  if (row.expectedValid === true && !result.valid) {
    const why = !outcome.ok ? `rejected: ${outcome.message}` : `errors ${summarize(result.errors)}`;
    out.push(`expected valid, got invalid (${why})`);
  }
  if (row.expectedValid === false && result.valid) out.push("expected invalid, got valid");
  for (const id of row.expectedRuleIds) if (!errors.has(id)) out.push(`${id} did not fire as an error${fired.has(id) ? " (fired as a warning)" : ""}`);
  for (const id of row.expectedWarningRuleIds) if (!warnings.has(id)) out.push(`${id} did not fire as a warning${errors.has(id) ? " (fired as an error)" : ""}`);
  for (const id of row.expectedAbsentRuleIds) if (fired.has(id)) out.push(`${id} fired`);
  return out;
}

/** Distinct rule ids with counts, e.g. `XSD x3, BR-CO-15`. */
function summarize(findings: ValidationFinding[]): string {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.ruleId, (counts.get(f.ruleId) ?? 0) + 1);
  return [...counts].map(([id, n]) => (n > 1 ? `${id} x${n}` : id)).join(", ");
}
