// The one bag of state the layers of a verdict share (KoSIT's check runs its steps over one such
// bag): what prepare and detection found, what the ruleset choice resolves, and what earlier layers
// leave for later ones (the decoded text, the business facts, the rule ids that ran).

import type { Detection } from "../../syntax/detect";
import type { PdfExtraction } from "../../pdf/attachments";
import type { Judgement } from "../../profiles/record";
import type { XsdSchemaId } from "../../profiles/schemas";
import type { RulesetLifecycle } from "../../rulesets/lifecycle";
import type { ResolvedArtifact, RulesetRequest } from "../../rulesets/selection";
import type { JudgedArtifactRow, JudgingEngine } from "../../rulesets/seal";
import type { Pin } from "../../rulesets/pins";
import { isEn16931Syntax, type En16931Syntax } from "../../profiles/ids";
import type { CappedXsdEngine, CappedXsdOutcome } from "../xsd";
import type { RuleEngines } from "../rule-engines";
import { readFacts } from "../facts";
import type { Severity } from "../result";
import type { DocumentFacts } from "../../syntax/binding";

export interface Engine {
  xsd: CappedXsdEngine;
  schematron: RuleEngines;
  /** Named in the result of XSD-only formats: the schema engine that judged. */
  xsdRuntime: string;
  /** A pinned data file the bundle carries (KoSIT's scenarios), by rulesets-root relative path. */
  pinned(path: string): Uint8Array;
}

export interface JudgeState {
  engine: Engine;
  /** The invoice XML: the body, or what a hybrid PDF embeds. */
  xml: Uint8Array;
  extraction?: Extract<PdfExtraction, { ok: true }>;
  detection: Detection;
  /** What the judged record runs: its schema bundle, rule files, overlays and advisories. */
  judge: Judgement;
  schema: XsdSchemaId;
  /** The schema check's outcome when another worker ran it (validate.ts); the schema layer runs it otherwise. */
  xsdElsewhere?: CappedXsdOutcome;
  ruleset: { request: RulesetRequest; day: string; lifecycle: RulesetLifecycle };
  /** Set by the schema layer when the document cannot be read further: why the later layers are skipped. */
  unreadable?: string;
  /** The text the rule engines read, decoded by the schema layer when rule layers follow (or already, when they ran ahead of it: validate.ts). */
  text: string;
  /** Seal rows and the resolutions behind them, in the order the layers ran. */
  rows: JudgedArtifactRow[];
  resolved: ResolvedArtifact[];
  /** Result fields naming the version of each artifact family, first layer wins. */
  versions: Record<string, string>;
  /** The rule ids of every rule file that ran (the advisories look for the rules they stand in for). */
  ruleIdsRan: (readonly string[])[];
  /** Rule ids the France CTC rule files reported. */
  franceCtcRuleIds: Set<string>;
  /** Rule id -> the severity the authority's scenario gives its findings (set by the severities layer). */
  levels?: ReadonlyMap<string, Severity>;
  facts?: DocumentFacts;
}

/** The EN 16931 syntax of the document, when it is in one (facts and advisories read it). */
export function syntaxOf(state: Pick<JudgeState, "detection">): En16931Syntax | undefined {
  return isEn16931Syntax(state.detection.format) ? state.detection.format : undefined;
}

/** BT-23, BT-40 and the payment facts, read once from the tree the native rule engine judges. */
export function factsOf(state: JudgeState): DocumentFacts {
  if (state.facts) return state.facts;
  const syntax = syntaxOf(state);
  return (state.facts = syntax && state.text ? readFacts(state.engine.schematron.document(state.text), syntax) : {});
}

/** Adds the seal row of a pinned file that judges the document, in layer order, and returns it. */
export function sealRow(state: JudgeState, pin: Pin, engine: JudgingEngine): JudgedArtifactRow {
  const row = { key: pin.key, version: pin.version, fileSha256: pin.sha256, engine };
  state.rows.push(row);
  return row;
}
