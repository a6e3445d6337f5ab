import { bundledEntry } from "../assets/bundled-entries";
import type { Bundle } from "../assets/bundle-format";
import type { Plan } from "../native/engine";
import { runPlan } from "../native/engine";
import { planOf } from "../native/plans";
import { XPathError } from "../native/xpath/errors";
import type { XDocument } from "../native/xpath/document";
import { readXml } from "../native/xml-reader";
import { RuleFileStopped, ruleIdOf, type Finding } from "../schematron/finding";
import { FindingCaps } from "./finding-caps";
import { omittedFindings } from "./svrl";

/**
 * Runs rule files on the native engine from the plans built into the bundle. A plan is compiled
 * once per worker, on first use or when warmed.
 */
export class NativeSchematron {
  private readonly plans = new Map<string, Plan>();
  /**
   * The document the last run parsed: the layers of one validation share one tree. `ahead` holds
   * the findings of rule files run on it before their layer asked (see {@link runAhead}).
   */
  private last: { xml: string; document: XDocument; ahead: Map<string, Finding[]> } | undefined;

  constructor(private readonly bundle: Bundle) {}

  /** Whether the bundle carries a native plan for this entry (else SaxonJS runs it). */
  has(entryId: string): boolean {
    return "model" in bundledEntry(this.bundle, entryId).native;
  }

  /** The tree of `xml`, parsed once for every native layer of a validation and its facts. */
  document(xml: string): XDocument {
    if (this.last?.xml !== xml) this.last = { xml, document: readXml(xml), ahead: new Map() };
    return this.last.document;
  }

  /**
   * Runs a rule file on `xml` before its layer asks (while another worker checks the schema,
   * validate.ts); its layer's {@link run} then returns these findings. A run that fails keeps
   * nothing: the layer runs the file again and fails as it would have.
   */
  runAhead(entryId: string, xml: string): void {
    try {
      const findings = this.run(entryId, xml);
      this.last!.ahead.set(entryId, findings);
    } catch {
      // Judged again, in order, by the layer.
    }
  }

  release(): void {
    this.last = undefined;
  }

  warm(entryId: string): void {
    this.plan(entryId);
  }

  /** The findings up to the verdict's caps, then the count of the rest (see {@link Finding.omitted}). */
  run(entryId: string, xml: string): Finding[] {
    const ahead = this.last?.xml === xml ? this.last.ahead.get(entryId) : undefined;
    if (ahead) {
      this.last!.ahead.delete(entryId);
      return ahead;
    }
    const plan = this.plan(entryId);
    const caps = new FindingCaps();
    try {
      const kept = runPlan(plan, this.document(xml), undefined, (finding) => caps.keep(ruleIdOf(finding), finding.flag));
      return [...kept, ...omittedFindings(caps)];
    } catch (error) {
      if (error instanceof XPathError) throw new RuleFileStopped(entryId, error.message);
      throw error;
    }
  }

  private plan(entryId: string): Plan {
    let plan = this.plans.get(entryId);
    if (!plan) {
      const entry = bundledEntry(this.bundle, entryId);
      if (!("model" in entry.native)) throw new Error(`${entryId} has no native plan: ${entry.native.refused}`);
      plan = planOf(this.bundle.text(entry.native.model), entry, (path) => this.bundle.read(`files/${path}`));
      this.plans.set(entryId, plan);
    }
    return plan;
  }
}
