// Rule layers: one pinned rule file each, at the version the request's channel or pins resolve,
// on the engine chosen for that file. An overlay is a rule layer that runs only when the document
// meets its condition. A rule file that stops on the document is a `stopped` layer whose
// RULE_FILE_STOPPED finding keeps the verdict invalid (the spec's result needs a finding).

import { ruleIdOf, RuleFileStopped, type Finding } from "../../schematron/finding";
import { artifactPin } from "../../rulesets/resolve";
import { ruleEntryId } from "../../rulesets/rule-entries";
import { resolveArtifact } from "../../rulesets/selection";
import { VERSION_FIELDS } from "../../profiles/catalogue";
import type { ConditionalLayer, RuleLayerRef } from "../../profiles/record";
import { FRENCH_PROCESS } from "../../standards/france-ctc";
import { severityOfFlag, type Severity, type ValidationFinding } from "../result";
import type { Layer, LayerRun } from "./layer";
import { factsOf, sealRow, type JudgeState } from "./state";

export function ruleLayer(ref: RuleLayerRef): Layer<JudgeState> {
  return { kind: "rules", name: ruleEntryId(ref.file, ref.part?.patterns), key: ref.key, run: (s) => runRules(ref, s) };
}

/** Why an overlay's condition does not hold for this document; undefined when it does. */
const CONDITIONS: Record<ConditionalLayer["when"], (s: JudgeState) => string | undefined> = {
  "french-invoice": (s) => {
    const { businessProcess, sellerCountry } = factsOf(s);
    if (!(businessProcess !== undefined && FRENCH_PROCESS.test(businessProcess))) return "not a French invoice: BT-23 names no French billing framework";
    return sellerCountry === "FR" ? undefined : "not a French invoice: the seller (BT-40) is not in France";
  },
};

export function overlayLayer({ when, layer: ref }: ConditionalLayer): Layer<JudgeState> {
  return {
    kind: "overlay",
    name: ref.file,
    key: ref.key,
    run(s) {
      const unmet = CONDITIONS[when](s);
      return unmet ? { status: "skipped", reason: unmet } : runRules(ref, s);
    },
  };
}

/** One engine finding as the service reports it, at the level `levels` gives its rule (KoSIT's scenario) or its flag's. */
export function findingOf(f: Finding, levels?: ReadonlyMap<string, Severity>): ValidationFinding {
  const ruleId = ruleIdOf(f);
  return { ruleId, severity: levels?.get(ruleId) ?? severityOfFlag(f.flag), ...(f.location ? { location: f.location } : {}), message: f.message };
}

/** The rule file a layer runs: its file at the version the request's channel or pins resolve. */
export function ruleFileOf(ref: RuleLayerRef, s: Pick<JudgeState, "ruleset">) {
  const artifact = resolveArtifact(s.ruleset.lifecycle, ref.key, s.ruleset.request, s.ruleset.day);
  const pin = artifactPin(ref.key, artifact.version, ref.file);
  return { artifact, pin, entry: ruleEntryId(pin.path, ref.part?.patterns) };
}

function runRules(ref: RuleLayerRef, s: JudgeState): LayerRun {
  const { artifact, pin, entry } = ruleFileOf(ref, s);
  s.resolved.push(artifact);
  const sealed = ref.part?.sealed ? artifactPin(ref.key, artifact.version, ref.part.sealed) : pin;
  const row = sealRow(s, sealed, s.engine.schematron.engineOf(entry));
  s.ruleIdsRan.push(s.engine.schematron.entry(entry).ruleIds ?? []);
  const field = VERSION_FIELDS[ref.family];
  if (field && !(field in s.versions)) s.versions[field] = artifact.version;
  // The EN 16931 version is that of the first rule file, which carries the core rules: the CEN file,
  // or the national bundle that embeds them.
  s.versions.schematronVersion ??= artifact.version;
  try {
    const run = s.engine.schematron.run(entry, s.text);
    row.engine = run.engine;
    const findings: ValidationFinding[] = [];
    const omitted: { ruleId: string; severity: Severity; count: number }[] = [];
    for (const f of run.findings) {
      const ruleId = ruleIdOf(f);
      if (f.omitted) omitted.push({ ruleId, severity: s.levels?.get(ruleId) ?? severityOfFlag(f.flag), count: f.omitted });
      else findings.push(findingOf(f, s.levels));
      if (ref.family === "france-ctc") s.franceCtcRuleIds.add(ruleId);
    }
    return { status: "ran", row, engine: run.engine, findings, omitted };
  } catch (error) {
    if (!(error instanceof RuleFileStopped)) throw error;
    return {
      status: "stopped",
      row,
      engine: row.engine,
      reason: error.xpathError,
      findings: [{ ruleId: "RULE_FILE_STOPPED", severity: "fatal", message: `${error.message}. The same document always stops this rule file the same way; it cannot be judged valid.` }],
    };
  }
}
