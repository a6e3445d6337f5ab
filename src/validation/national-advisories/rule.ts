// What a national advisory is: a check an authority (Italy's SDI, Spain's FACe) applies past the
// schema and refuses a document for, decided from the document alone. Each format keeps its rules
// as a table (one row: id, the authority's text it follows, severity, check); this file runs a
// table over a document. The document is the caller's: a value that is not a plain decimal of
// reasonable length is passed over, never thrown on, and a rule locates only the findings the
// verdict can list, so a document failing one rule on every line costs a count, not a path each.

import { add, compare, isDecimal, negate, normalize } from "../../model/decimal";
import { parseXml, pathOf, type Element } from "../../syntax/xml-reader";
import { FINDINGS_PER_RULE } from "../finding-caps";
import type { LayerRun } from "../layers/layer";
import type { Severity, ValidationFinding } from "../result";

/** A check reports each element the authority would refuse, with what it would say. */
export type Report = (at: Element, message: string) => void;

export interface NationalRule {
  /** `<STANDARD>_<RULE>_NOT_ENFORCED`, RULE being the authority's own code where it has one. */
  id: string;
  /** The authority's text the check follows, as docs/national-advisories.md cites it. */
  source: string;
  severity: Extract<Severity, "warning" | "info">;
  check(root: Element, report: Report): void;
}

/** Longer than any amount, rate or quantity the schemas allow (FatturaPA 15 digits, Facturae double). */
const MAX_DECIMAL_LENGTH = 40;

/** The value as a decimal, or undefined when it is absent, not a plain decimal or unreasonably long. */
export function decimalOf(text: string | undefined): string | undefined {
  if (text === undefined || text.length > MAX_DECIMAL_LENGTH || !isDecimal(text)) return undefined;
  return normalize(text);
}

/** Whether `a` and `b` differ by more than `tolerance`. */
export function differ(a: string, b: string, tolerance: string): boolean {
  const gap = add(a, negate(b));
  return compare(gap.startsWith("-") ? negate(gap) : gap, tolerance) > 0;
}

/** Runs a format's rules over the document; a document the DOM reader refuses is not judged. */
export function runRules(rules: readonly NationalRule[], xml: Uint8Array): LayerRun {
  let root: Element | null;
  try {
    root = parseXml(xml).documentElement;
  } catch (error) {
    return { status: "skipped", reason: `the advisories' reader cannot read the document: ${(error as Error).message}` };
  }
  if (!root) return { status: "skipped", reason: "the document has no root element" };
  const findings: ValidationFinding[] = [];
  const omitted: NonNullable<LayerRun["omitted"]>[number][] = [];
  for (const rule of rules) {
    let count = 0;
    rule.check(root, (at, message) => {
      if (++count <= FINDINGS_PER_RULE) findings.push({ ruleId: rule.id, severity: rule.severity, location: pathOf(at), message });
    });
    if (count > FINDINGS_PER_RULE) omitted.push({ ruleId: rule.id, severity: rule.severity, count: count - FINDINGS_PER_RULE });
  }
  return { status: "ran", findings, omitted };
}
