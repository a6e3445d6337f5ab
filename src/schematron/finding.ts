// What a rule engine reports, whichever engine it is (the native one, or SaxonJS through SVRL):
// defined here, below both engines, so neither reaches into the other for it.

export interface Finding {
  /** `@id` of the failed-assert / successful-report: the rule id (e.g. BR-CO-10); null if absent. */
  ruleId: string | null;
  /** `@flag` (`fatal`, `warning`, ...), or null when the rule sets none. */
  flag: string | null;
  /** `@location`: an XPath to the node the rule fired on. */
  location: string | null;
  /** `svrl:text` with whitespace normalized as XPath normalize-space() does. */
  message: string;
  /**
   * Only on the entries an engine appends after the findings it kept under its caps
   * (`validation/finding-caps.ts`): this many more findings of `ruleId` and `flag`, neither
   * located nor listed; `location` is null and `message` empty.
   */
  omitted?: number;
}

/** A finding's rule id: its `@id`; Factur-X EXTENDED names its rules only in the message text, `[BR-CO-25]-...`. */
export function ruleIdOf(finding: Pick<Finding, "ruleId" | "message">): string {
  return finding.ruleId ?? finding.message.match(/^\[([A-Za-z][\w.-]*)\]/)?.[1] ?? "UNIDENTIFIED_RULE";
}

/** A rule file that stopped with an XPath error on this document (the same bytes always stop the same way). */
export class RuleFileStopped extends Error {
  constructor(
    readonly entryPath: string,
    readonly xpathError: string,
  ) {
    super(`the rule file ${entryPath} stopped on this document: ${xpathError}`);
  }
}
