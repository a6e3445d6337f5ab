// The severities layer: where the authority's validator re-levels rules per scenario (KoSIT's
// XRechnung configuration, `createReport/customLevel`), it picks the document's scenario from the
// pinned scenarios.xml and leaves its levels for the rule layers after it, which report each
// finding at its scenario's level. KoSIT accepts a document unless a finding's level is `error`; a
// verdict is valid unless a finding is fatal or error: re-levelled the same way, both agree. A
// document no scenario matches (the Extension UBL CreditNote, XRechnung 1.x/2.x ids) keeps the rule
// files' own levels; KoSIT would refuse it outright, we judge it by its rules.

import { artifactPin } from "../../rulesets/resolve";
import { resolveArtifact } from "../../rulesets/selection";
import type { Judgement } from "../../profiles/record";
import { readScenarios, scenarioFor, type Scenario } from "../kosit-scenarios";
import type { Layer } from "./layer";
import { sealRow, type JudgeState } from "./state";

/** Scenario tables by pinned path, read once per worker. */
const tables = new Map<string, Scenario[]>();

export function severitiesLayer(ref: NonNullable<Judgement["severities"]>): Layer<JudgeState> {
  return {
    kind: "severities",
    name: ref.file,
    key: ref.key,
    run(s) {
      const artifact = resolveArtifact(s.ruleset.lifecycle, ref.key, s.ruleset.request, s.ruleset.day);
      s.resolved.push(artifact);
      const pin = artifactPin(ref.key, artifact.version, ref.file);
      let scenarios = tables.get(pin.path);
      if (!scenarios) tables.set(pin.path, (scenarios = readScenarios(s.engine.pinned(pin.path))));
      // The scenario's match is an XPath on the document, evaluated natively on the tree the rules judge.
      const row = sealRow(s, pin, "native");
      const scenario = scenarioFor(scenarios, s.engine.schematron.document(s.text));
      if (scenario) s.levels = scenario.levels;
      return { status: "ran", row, engine: "native", findings: [] };
    },
  };
}
