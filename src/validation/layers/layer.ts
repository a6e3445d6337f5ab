// Validation as a list of layers, as the KoSIT validator runs a scenario and phive reports one
// result per artifact. A layer is a value: what it is, the artifact row it seals, and `run`, which
// reads and extends the one bag of state the layers share. Its result is a value too: ran, skipped
// (with why) or stopped (the rule file could not finish on this document), the findings it
// reported, the engine that ran it and how long it took. Deciding the verdict from the results is
// the job of validate.ts's summarise, not a layer's.

import { Type, type Static } from "@sinclair/typebox";
import type { JudgedArtifactRow } from "../../rulesets/seal";
import type { Severity, ValidationFinding } from "../result";
import type { VerdictFindings } from "../finding-caps";

const LAYER_KINDS = ["source", "xsd", "severities", "rules", "overlay", "advisory", "container"] as const;
const LAYER_STATUSES = ["ran", "skipped", "stopped"] as const;
type LayerKind = (typeof LAYER_KINDS)[number];
type LayerStatus = (typeof LAYER_STATUSES)[number];

/** What a layer's run reports: its findings (and those an engine only counted), or why it did not run. */
export interface LayerRun {
  status: LayerStatus;
  /** The artifact that judged, as the seal names it (a layer that was skipped seals nothing). */
  row?: JudgedArtifactRow;
  findings?: readonly ValidationFinding[];
  /** Findings an engine counted past the caps instead of listing them. */
  omitted?: readonly { ruleId: string; severity: Severity; count: number }[];
  engine?: string;
  /** Why the layer was skipped or stopped. */
  reason?: string;
}

export interface Layer<State> {
  kind: LayerKind;
  /** The artifact or check: a schema id, a rule file, an advisory or rule family. */
  name: string;
  /** The artifact key whose version the layer's run resolves and seals. */
  key?: string;
  run(state: State): LayerRun;
}

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

/** One layer's result, as `einvoice validate --json` and `POST /v1/validate?layers=true` show it. */
export const LayerResultSchema = Type.Object(
  {
    layer: literals(LAYER_KINDS),
    name: Type.String({ description: "the artifact or check: the source file name, a schema id, a rule file, an advisory, BR-HYBRID" }),
    status: literals(LAYER_STATUSES),
    artifact: Type.Optional(
      Type.Object({ key: Type.String(), version: Type.Optional(Type.String({ description: "absent when the layer was skipped before resolving a version" })) }, { description: "the pinned artifact the layer runs" }),
    ),
    engine: Type.Optional(Type.String({ description: "what ran it: pdf-lib, libxml2-wasm, native, saxonjs" })),
    errors: Type.Integer({ minimum: 0, description: "fatal and error findings it reported, including those past the caps" }),
    warnings: Type.Integer({ minimum: 0, description: "warning and info findings it reported, including those past the caps" }),
    durationMs: Type.Number({ minimum: 0 }),
    reason: Type.Optional(Type.String({ description: "why it was skipped or stopped" })),
  },
  { additionalProperties: false, title: "ValidationLayer", description: "ran: judged the document; skipped: did not apply or an earlier layer could not read the document; stopped: could not finish on this document" },
);
export type LayerResult = Static<typeof LayerResultSchema>;

const isError = (severity: Severity) => severity === "fatal" || severity === "error";

/** Milliseconds since `started` (a `performance.now()` reading), to a tenth, as a layer result reports them. */
export const elapsedMs = (started: number): number => Math.round((performance.now() - started) * 10) / 10;

/** The result of a layer that never ran because an earlier one stopped the judging. */
export function skipped(layer: Pick<Layer<unknown>, "kind" | "name" | "key">, reason: string): LayerResult {
  return { layer: layer.kind, name: layer.name, status: "skipped", ...(layer.key && { artifact: { key: layer.key } }), errors: 0, warnings: 0, durationMs: 0, reason };
}

/** Runs one layer, adds its findings to the verdict's (in report order) and returns its result. */
export function runLayer<State>(layer: Layer<State>, state: State, findings: VerdictFindings): LayerResult {
  const started = performance.now();
  const run = layer.run(state);
  let errors = 0;
  let warnings = 0;
  for (const finding of run.findings ?? []) {
    findings.add(finding);
    if (isError(finding.severity)) errors++;
    else warnings++;
  }
  for (const { ruleId, severity, count } of run.omitted ?? []) {
    findings.omit(ruleId, severity, count);
    if (isError(severity)) errors += count;
    else warnings += count;
  }
  return {
    layer: layer.kind,
    name: layer.name,
    status: run.status,
    ...(run.row ? { artifact: { key: run.row.key, version: run.row.version } } : layer.key && { artifact: { key: layer.key } }),
    ...(run.engine && { engine: run.engine }),
    errors,
    warnings,
    durationMs: elapsedMs(started),
    ...(run.reason && { reason: run.reason }),
  };
}
