// One document to one sealed verdict: prepare the source (a hybrid PDF gives up its XML), detect
// the profile, look up its catalogue record, build the record's layers, run them, summarise. What
// judges which profile is the catalogue's business (src/profiles/catalogue.ts); what each layer
// does is in layers/; the verdict's shape is the spec's Validation result.

import { detect, type FormatHint } from "../syntax/detect";
import { extractInvoiceXml, INVOICE_XML_NAMES } from "../pdf/attachments";
import { isPdf } from "../pdf/sniff";
import { RulesetLifecycle, type VersionFacts } from "../rulesets/lifecycle";
import { DEFAULT_REQUEST, selectionReport, type RulesetRequest } from "../rulesets/selection";
import { rulesetSha256, sha256Hex } from "../rulesets/seal";
import { systemClock, today } from "../clock";
import { fallbackRecord, judgedProfileName, recordById } from "../profiles/lookup";
import type { RecordId } from "../profiles/ids";
import { schemaFor } from "./xsd-schemas";
import type { ValidationFinding, ValidationResult } from "./result";
import { VerdictFindings } from "./finding-caps";
import type { Result } from "../errors/result";
import { elapsedMs, runLayer, skipped, type Layer, type LayerResult } from "./layers/layer";
import type { Engine, JudgeState } from "./layers/state";
import { schemaLayer } from "./layers/schema";
import { overlayLayer, ruleFileOf, ruleLayer } from "./layers/rules";
import { decodeXml } from "../syntax/decode";
import type { XsdSchemaId } from "../profiles/schemas";
import type { CappedXsdOutcome } from "./xsd";
import { severitiesLayer } from "./layers/severities";
import { advisoryLayer } from "./layers/advisory";
import { containerLayer } from "./layers/container";

export type { Engine } from "./layers/state";
export type { LayerResult } from "./layers/layer";

export interface ValidateRequest {
  bytes: Uint8Array;
  hint?: FormatHint;
  /** Judge under this record instead of the detected one (generate knows what it wrote). */
  record?: RecordId;
  /** Which ruleset versions serve: channel and pins, for `day` (YYYY-MM-DD; default today, UTC). */
  ruleset?: { request: RulesetRequest; day: string; versions?: VersionFacts[] };
}

/**
 * Asks another worker to check a document's schema (worker-main.ts); null when none can, and the
 * schema layer then checks it here.
 */
export type SchemaCheckElsewhere = (schema: XsdSchemaId, xml: Uint8Array) => Promise<CappedXsdOutcome | null>;

/** A verdict, or why the request cannot be judged at all (a PDF without invoice XML: a 400, not a verdict). */
export type ValidateOutcome = Result<{
  result: ValidationResult;
  /** What each layer did, in the order it ran; the HTTP result shows it only when asked (`?layers=true`). */
  layers: LayerResult[];
  /** `Service-Ruleset-Resolved`, when the request sent the header. */
  rulesetResolved?: "latest" | "previous";
}>;

const pinnedLifecycle = new RulesetLifecycle();

/**
 * Judges one document. A layer that cannot run throws (the caller answers 503); a document that
 * stops a rule file is invalid.
 */
export async function validateDocument(engine: Engine, request: ValidateRequest, elsewhere?: SchemaCheckElsewhere): Promise<ValidateOutcome> {
  try {
    return await judge(engine, request, elsewhere);
  } finally {
    // The shared tree of a large document is tens of MiB; a worker keeps none between documents.
    engine.schematron.release();
  }
}

type Source = Result<{ xml: Uint8Array; extraction?: JudgeState["extraction"]; layer: LayerResult }>;

/** The source layer: the body itself, or the invoice XML a hybrid PDF embeds. */
async function prepare(bytes: Uint8Array): Promise<Source> {
  const layer = { kind: "source" as const, name: "pdf" };
  if (!isPdf(bytes)) return { ok: true, xml: bytes, layer: skipped(layer, "the body is XML") };
  const started = performance.now();
  const extracted = await extractInvoiceXml(bytes);
  if (!extracted.ok) {
    return { ok: false, message: extracted.reason === "no-invoice-xml" ? `${extracted.message}; a hybrid PDF must embed its invoice as ${INVOICE_XML_NAMES.join(", ")}` : extracted.message };
  }
  return { ok: true, xml: extracted.xml, extraction: extracted, layer: { layer: "source", name: extracted.name, status: "ran", engine: "pdf-lib", errors: 0, warnings: 0, durationMs: elapsedMs(started) } };
}

const fatal = (ruleId: string, message: string): ValidationFinding => ({ ruleId, severity: "fatal", message });

async function judge(engine: Engine, request: ValidateRequest, elsewhere?: SchemaCheckElsewhere): Promise<ValidateOutcome> {
  const sha256 = sha256Hex(request.bytes);
  const source = await prepare(request.bytes);
  if (!source.ok) return { ok: false, message: source.message };
  const { xml, extraction } = source;
  const detection = detect(xml, { hint: request.hint, hybrid: extraction !== undefined });
  const chosen = request.record ? recordById(request.record) : undefined;
  const base = { format: detection.format, profileDetected: chosen ? judgedProfileName(chosen) : detection.profileDetected, sha256 };
  const findings = new VerdictFindings();
  const results: LayerResult[] = [source.layer];
  const container = { extraction, detection };

  if (detection.format === "unknown") {
    findings.add(fatal("UNSUPPORTED_FORMAT", `the document is in no supported e-invoice syntax${detection.note ? ` (${detection.note})` : ""}`));
    results.push(skipped(containerLayer, "the XML is in no supported syntax"));
    return { ok: true, result: summarise(base, findings), layers: results };
  }
  const record = chosen ?? detection.record ?? fallbackRecord(detection.format);
  const schema = record?.judge && schemaFor(record, detection.documentType);
  if (!record?.judge || !schema) {
    findings.add(fatal("UNSUPPORTED_FORMAT", `no rules are pinned for ${detection.format} documents of profile ${record?.profile}`));
    results.push(runLayer(containerLayer, container, findings));
    return { ok: true, result: summarise(base, findings), layers: results };
  }

  const choice = request.ruleset ?? { request: DEFAULT_REQUEST, day: today(systemClock) };
  const state: JudgeState = {
    engine,
    xml,
    ...(extraction && { extraction }),
    detection,
    judge: record.judge,
    schema,
    ruleset: { request: choice.request, day: choice.day, lifecycle: choice.versions ? new RulesetLifecycle(choice.versions) : pinnedLifecycle },
    text: "",
    rows: [],
    resolved: [],
    versions: {},
    ruleIdsRan: [],
    franceCtcRuleIds: new Set(),
  };
  // A hybrid's XML is not the body the pool holds, so only a body is checked elsewhere.
  if (elsewhere && !extraction && state.judge.rules.length) state.xsdElsewhere = await rulesAheadOfSchema(state, elsewhere);
  const layers: Layer<JudgeState>[] = [
    schemaLayer(state),
    ...(state.judge.severities ? [severitiesLayer(state.judge.severities)] : []),
    ...state.judge.rules.map(ruleLayer),
    ...(state.judge.overlays ?? []).map(overlayLayer),
    ...(state.judge.advisories ?? []).map(advisoryLayer),
  ];
  for (const layer of layers) results.push(state.unreadable ? skipped(layer, state.unreadable) : runLayer(layer, state, findings));
  // The container layer judges the PDF, whatever became of its XML.
  results.push(runLayer(containerLayer, container, findings));
  if (state.unreadable) return { ok: true, result: summarise(base, findings), layers: results };

  const selection = selectionReport(choice.request, state.resolved);
  const result = summarise(base, findings, { rulesetSha256: rulesetSha256(state.rows), rulesetArtifacts: state.rows, ...selection.fields, ...versionFields(state) });
  return { ok: true, result, layers: results, ...(selection.resolvedHeader ? { rulesetResolved: selection.resolvedHeader } : {}) };
}

/**
 * The schema check of a document on another worker while this one runs the document's rule files
 * ahead of their layers. The layers then run as always, in order: the schema layer takes the other
 * worker's outcome, each rule layer the findings already found (`RuleEngines.runAhead`), so the
 * verdict is the one this worker alone gives; when the schema layer stops the document, what ran
 * ahead is dropped with the tree. Nothing here raises: a rule file that fails ahead is run again by
 * its layer, and fails there as it would have.
 */
async function rulesAheadOfSchema(state: JudgeState, elsewhere: SchemaCheckElsewhere): Promise<CappedXsdOutcome | undefined> {
  const outcome = elsewhere(state.schema, state.xml).catch(() => null);
  try {
    state.text = decodeXml(state.xml);
    for (const ref of state.judge.rules) state.engine.schematron.runAhead(ruleFileOf(ref, state).entry, state.text);
  } catch {
    // The schema layer refuses what cannot be decoded; the layers report it.
  }
  return (await outcome) ?? undefined;
}

/** The result fields that name what judged: each family's version, the schema bundle, the France CTC rule ids. */
function versionFields(state: JudgeState): Partial<ValidationResult> {
  const fields: Record<string, unknown> = { ...state.versions };
  const [schemaRow] = state.rows;
  const bundle = state.judge.xsdFields;
  if (bundle && schemaRow) {
    fields[bundle[0]] = `${schemaRow.key}@${schemaRow.version}`;
    fields[bundle[1]] = state.engine.xsdRuntime;
  }
  if (state.franceCtcRuleIds.size) fields.franceCtcBlockingRuleIds = [...state.franceCtcRuleIds].sort();
  return fields as Partial<ValidationResult>;
}

/** The verdict: errors and warnings as the spec splits them, `valid` when no error survived. */
function summarise(base: Pick<ValidationResult, "format" | "profileDetected" | "sha256">, findings: VerdictFindings, extra: Partial<ValidationResult> = {}): ValidationResult {
  const listed = findings.list();
  const errors = listed.filter((f) => f.severity === "fatal" || f.severity === "error");
  const warnings = listed.filter((f) => f.severity === "warning" || f.severity === "info");
  const result: ValidationResult = { valid: errors.length === 0, ...base, ...extra, errors, warnings };
  if (result.profileDetected === undefined) delete result.profileDetected;
  return result;
}
