// How many findings one verdict lists. A 1 MB document can fail one rule a quarter of a million
// times (an empty element each), and a 30 KB one can nest invoice lines 250 deep so that each of
// thousands of findings carries a 20 KB location: listing them all cost more than judging the
// document and answered megabytes. A verdict lists findings in the order the layers report them as
// long as they fit: FINDINGS_PER_RULE per rule id, FINDINGS_TOTAL and FINDINGS_TEXT characters of
// location and message in all. The rest are counted and end in one FINDINGS_TRUNCATED finding, an
// error when an omitted finding is one, so `valid` never changes. The engines apply the count caps
// while they run, so what is omitted is counted, never located.

import { severityOfFlag, type ValidationFinding } from "./result";

export const FINDINGS_PER_RULE = 100;
export const FINDINGS_TOTAL = 1000;
export const FINDINGS_TEXT = 512 * 1024;
export const FINDINGS_TRUNCATED = "FINDINGS_TRUNCATED";

/** Omitted findings of one rule id and grade (an engine's flag, or a verdict's severity). */
interface Tally {
  ruleId: string;
  grade: string | null;
  count: number;
}

/** Keeps findings up to the caps and counts the rest, per rule id and grade. */
export class FindingCaps {
  private readonly keptPerRule = new Map<string, number>();
  private kept = 0;
  private keptText = 0;
  /** By rule id, then grade; `tallies` keeps them in the order they were first omitted. */
  private readonly omitted = new Map<string, Map<string | null, Tally>>();
  private readonly order: Tally[] = [];

  /**
   * Whether the next finding of `ruleId` is kept; if not, it is counted as omitted. `text` is its
   * location and message length, where known (an engine asks before it locates a finding).
   */
  keep(ruleId: string, grade: string | null, text = 0): boolean {
    const ofRule = this.keptPerRule.get(ruleId) ?? 0;
    if (ofRule >= FINDINGS_PER_RULE || this.kept >= FINDINGS_TOTAL || this.keptText + text > FINDINGS_TEXT) {
      this.omit(ruleId, grade, 1);
      return false;
    }
    this.keptPerRule.set(ruleId, ofRule + 1);
    this.kept++;
    this.keptText += text;
    return true;
  }

  /** Counts findings an engine already left out under the same caps. */
  omit(ruleId: string, grade: string | null, count: number): void {
    let grades = this.omitted.get(ruleId);
    if (!grades) this.omitted.set(ruleId, (grades = new Map()));
    const tally = grades.get(grade);
    if (tally) tally.count += count;
    else {
      const added = { ruleId, grade, count };
      grades.set(grade, added);
      this.order.push(added);
    }
  }

  /** The omitted findings, one tally per rule id and grade, in the order they were first omitted. */
  tallies(): readonly Tally[] {
    return this.order;
  }
}

/**
 * The findings of one verdict, kept up to the caps in the order they are reported; the rest are
 * counted and end in one FINDINGS_TRUNCATED finding.
 */
export class VerdictFindings {
  private readonly kept: ValidationFinding[] = [];
  private readonly caps = new FindingCaps();

  add(...findings: ValidationFinding[]): void {
    for (const finding of findings) {
      if (this.caps.keep(finding.ruleId, finding.severity, (finding.location?.length ?? 0) + finding.message.length)) this.kept.push(finding);
    }
  }

  /** Findings an engine counted past the same caps instead of listing them. */
  omit(ruleId: string, severity: ValidationFinding["severity"], count: number): void {
    this.caps.omit(ruleId, severity, count);
  }

  list(): ValidationFinding[] {
    const truncated = truncationFinding(this.caps.tallies());
    return truncated ? [...this.kept, truncated] : this.kept;
  }
}

/** Rule ids named one by one in the FINDINGS_TRUNCATED message; the rest are counted. */
const NAMED_RULES = 20;

/** The finding that closes a truncated verdict, or undefined when nothing was omitted. */
function truncationFinding(tallies: readonly Tally[]): ValidationFinding | undefined {
  if (!tallies.length) return undefined;
  const count = (severities: string[]) => tallies.reduce((n, t) => n + (severities.includes(severityOfFlag(t.grade)) ? t.count : 0), 0);
  const errors = count(["fatal", "error"]);
  const warnings = count(["warning", "info"]);
  const byRule = new Map<string, number>();
  for (const t of tallies) byRule.set(t.ruleId, (byRule.get(t.ruleId) ?? 0) + t.count);
  const ranked = [...byRule].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  let named = ranked.slice(0, NAMED_RULES).map(([ruleId, n]) => `${ruleId} ${n}`).join(", ");
  if (ranked.length > NAMED_RULES) named += `; ${ranked.length - NAMED_RULES} other rule ids ${ranked.slice(NAMED_RULES).reduce((n, [, c]) => n + c, 0)}`;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return {
    ruleId: FINDINGS_TRUNCATED,
    // Omitted errors keep the verdict invalid even when none of them was kept; omitted warnings never add an error.
    severity: errors ? "error" : "info",
    message:
      `${plural(errors + warnings, "more finding")} not listed (${plural(errors, "error")}, ${plural(warnings, "warning")}): ` +
      `a verdict lists at most ${FINDINGS_PER_RULE} findings per rule id, ${FINDINGS_TOTAL} in all and ${FINDINGS_TEXT} characters of locations and messages. ` +
      `Not listed, by rule id: ${named}.`,
  };
}
