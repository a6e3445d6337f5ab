import { bundledEntries, bundledEntry } from "../assets/bundled-entries";
import type { BundledEntry } from "../assets/build-bundle";
import type { Bundle } from "../assets/bundle-format";
import type { JudgingEngine } from "../rulesets/seal";
import { ruleEngineChoice, type RuleEngineChoice } from "../config";
import { NativeSchematron } from "./schematron-native";
import { SaxonJsSchematron } from "./schematron-saxonjs";
import { RuleFileStopped, type Finding } from "../schematron/finding";
import type { XDocument } from "../native/xpath/document";

export type { RuleEngineChoice };
type RuleEngineName = Extract<JudgingEngine, "native" | "saxonjs">;

/**
 * Runs each rule file on the engine chosen for it: native where the bundle carries a plan (unless
 * forced to SaxonJS), SaxonJS otherwise. The choice is per file, made from data built with the
 * rulesets, and every run reports the engine that judged.
 */
export class RuleEngines {
  private readonly native: NativeSchematron;
  private readonly saxonjs: SaxonJsSchematron;

  constructor(
    private readonly bundle: Bundle,
    readonly choice: RuleEngineChoice = ruleEngineChoice(),
  ) {
    this.native = new NativeSchematron(bundle);
    this.saxonjs = new SaxonJsSchematron(bundle);
  }

  has(entryId: string): boolean {
    return bundledEntries(this.bundle).has(entryId);
  }

  entry(entryId: string): BundledEntry {
    return bundledEntry(this.bundle, entryId);
  }

  /** The parsed tree the native layers of this document share (the facts are read from it too). */
  document(xml: string): XDocument {
    return this.native.document(xml);
  }

  /** Lets go of the shared tree once a validation is over. */
  release(): void {
    this.native.release();
  }

  engineOf(entryId: string): RuleEngineName {
    return this.choice === "native" && this.native.has(entryId) ? "native" : "saxonjs";
  }

  warm(entryId: string): void {
    if (this.engineOf(entryId) === "native") this.native.warm(entryId);
    // Without its stylesheet the file cannot run; its first document says so (503), not the worker's start.
    else if (this.saxonjs.has(entryId)) this.saxonjs.warm(entryId);
  }

  /** Runs a native rule file before its layer asks, which then takes its findings (see `NativeSchematron.runAhead`). */
  runAhead(entryId: string, xml: string): void {
    if (this.engineOf(entryId) === "native") this.native.runAhead(entryId, xml);
  }

  /** Findings of one rule file, and the engine that produced them. Throws {@link RuleFileStopped}. */
  run(entryId: string, xml: string): { findings: Finding[]; engine: RuleEngineName } {
    if (this.engineOf(entryId) === "saxonjs") return { findings: this.saxonjs.run(entryId, xml), engine: "saxonjs" };
    try {
      return { findings: this.native.run(entryId, xml), engine: "native" };
    } catch (error) {
      if (error instanceof RuleFileStopped) throw error;
      // A defect of the native engine (not a verdict on the document) must not cost the caller a
      // verdict: the reference-checked SaxonJS path judges this document instead, and says so.
      console.error(`native engine failed on ${entryId}; judged on SaxonJS instead: ${(error as Error).stack ?? error}`);
      return { findings: this.saxonjs.run(entryId, xml), engine: "saxonjs" };
    }
  }
}
