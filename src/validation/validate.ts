import { detect, type Detection, type FormatHint } from "../syntax/detect";
import { decodeXml } from "../syntax/decode";
import { XmlRefused } from "../syntax/xml-refused";
import { extractInvoiceXml, INVOICE_XML_NAMES, type PdfExtraction } from "../pdf/attachments";
import { hybridFindings } from "../pdf/hybrid-checks";
import { artifactPin } from "../rulesets/resolve";
import { RulesetLifecycle, type VersionFacts } from "../rulesets/lifecycle";
import { DEFAULT_REQUEST, resolveArtifact, selectionReport, type ResolvedArtifact, type RulesetRequest } from "../rulesets/selection";
import { pinByPath } from "../rulesets/pins";
import { rulesetSha256, sha256Hex, type JudgedArtifactRow } from "../rulesets/seal";
import { schemaFor } from "./xsd-schemas";
import { XSD_SCHEMAS, type XsdSchemaId } from "../profiles/schemas";
import type { CappedXsdEngine } from "./xsd";
import { VERSION_FIELDS } from "../profiles/catalogue";
import { fallbackRecord, judgedProfileName, recordById } from "../profiles/lookup";
import type { RecordId } from "../profiles/ids";
import type { RuleLayerRef } from "../profiles/record";
import { FRENCH_PROCESS } from "../standards/france-ctc";
import { RuleFileStopped, ruleIdOf, type Finding } from "../schematron/finding";
import type { RuleEngines } from "./rule-engines";
import { readFacts, type DocumentFacts } from "./facts";
import { brCo25Advisory } from "./advisories";
import { severityOfFlag, type ValidationFinding, type ValidationResult } from "./result";
import { VerdictFindings } from "./finding-caps";

export interface Engine {
  xsd: CappedXsdEngine;
  schematron: RuleEngines;
  /** Named in the result of XSD-only formats: the schema engine that judged. */
  xsdRuntime: string;
}

export interface ValidateRequest {
  bytes: Uint8Array;
  hint?: FormatHint;
  /** Judge under this record instead of the detected one (generate knows what it wrote). */
  record?: RecordId;
  /** Which ruleset versions serve: channel and pins, for `day` (YYYY-MM-DD; default today, UTC). */
  ruleset?: { request: RulesetRequest; day: string; versions?: VersionFacts[] };
}

/** The request cannot be judged at all (a PDF without invoice XML): a 400, not a verdict. */
export type ValidateOutcome =
  | { kind: "result"; result: ValidationResult; /** `Service-Ruleset-Resolved`, when the request sent the header. */ rulesetResolved?: "latest" | "previous" }
  | { kind: "rejected"; message: string };

const pinnedLifecycle = new RulesetLifecycle();

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

export function isPdf(bytes: Uint8Array): boolean {
  return PDF_MAGIC.every((b, i) => bytes[i] === b);
}

function fatal(ruleId: string, message: string): ValidationFinding {
  return { ruleId, severity: "fatal", message };
}

function assemble(base: Pick<ValidationResult, "format" | "profileDetected" | "sha256">, findings: ValidationFinding[], extra: Partial<ValidationResult> = {}): ValidationResult {
  const errors = findings.filter((f) => f.severity === "fatal" || f.severity === "error");
  const warnings = findings.filter((f) => f.severity === "warning" || f.severity === "info");
  const result: ValidationResult = { valid: errors.length === 0, ...base, ...extra, errors, warnings };
  if (result.profileDetected === undefined) delete result.profileDetected;
  return result;
}

/** One SVRL finding as the service reports it. */
export function findingOf(f: Finding): ValidationFinding {
  return { ruleId: ruleIdOf(f), severity: severityOfFlag(f.flag), ...(f.location ? { location: f.location } : {}), message: f.message };
}

function xsdPin(schema: XsdSchemaId) {
  const pin = pinByPath(XSD_SCHEMAS[schema]);
  if (!pin) throw new Error(`schema ${XSD_SCHEMAS[schema]} is not pinned`);
  return pin;
}

/**
 * Judges one document: detect, XSD, then every rule layer of its profile, then the seal. A layer
 * that cannot run throws (the caller answers 503); a document that stops a rule file is invalid.
 */
export async function validateDocument(engine: Engine, request: ValidateRequest): Promise<ValidateOutcome> {
  try {
    return await judge(engine, request);
  } finally {
    // The shared tree of a large document is tens of MiB; a worker keeps none between documents.
    engine.schematron.release();
  }
}

async function judge(engine: Engine, request: ValidateRequest): Promise<ValidateOutcome> {
  const sha256 = sha256Hex(request.bytes);
  let xml = request.bytes;
  let hybrid = false;
  let extraction: Extract<PdfExtraction, { ok: true }> | undefined;
  if (isPdf(request.bytes)) {
    const extracted = await extractInvoiceXml(request.bytes);
    if (!extracted.ok) return { kind: "rejected", message: extracted.reason === "no-invoice-xml" ? `${extracted.message}; a hybrid PDF must embed its invoice as ${INVOICE_XML_NAMES.join(", ")}` : extracted.message };
    xml = extracted.xml;
    hybrid = true;
    extraction = extracted;
  }
  const detection = detect(xml, { hint: request.hint, hybrid });
  // The container rules (BR-HYBRID-*) of a hybrid PDF, judged against the profile the XML declares;
  // not for XML in no supported syntax (e.g. ZUGFeRD 1.0), whose container rules differ.
  const container = extraction && detection.format !== "unknown" ? hybridFindings(extraction, detection.record) : [];
  const chosen = request.record ? recordById(request.record) : undefined;
  const base = { format: detection.format, profileDetected: chosen ? judgedProfileName(chosen) : detection.profileDetected, sha256 };
  if (detection.format === "unknown") {
    const why = detection.note ? ` (${detection.note})` : "";
    return { kind: "result", result: assemble(base, [fatal("UNSUPPORTED_FORMAT", `the document is in no supported e-invoice syntax${why}`)]) };
  }
  const record = chosen ?? detection.record ?? fallbackRecord(detection.format);
  if (!record?.judge) {
    return { kind: "result", result: assemble(base, [fatal("UNSUPPORTED_FORMAT", `no rules are pinned for ${detection.format} documents of profile ${record?.profile}`), ...container]) };
  }
  const judgement = record.judge;
  const syntax = detection.format === "ubl" || detection.format === "cii" ? detection.format : undefined;
  const schema = schemaFor(record, detection.documentType);
  if (!schema) throw new Error(`no schema for ${record.id}`);
  const xsd = engine.xsd.validate(schema, xml);
  const findings = new VerdictFindings();
  if (xsd.status === "refused" || xsd.status === "malformed") {
    const id = xsd.status === "refused" ? "XML_REFUSED" : "XML_MALFORMED";
    findings.add(...xsd.findings.map((f) => ({ ...fatal(id, f.message), ...(f.location ? { location: f.location } : {}) })), ...container);
    return { kind: "result", result: assemble(base, findings.list()) };
  }
  findings.add(...xsd.findings.map((f): ValidationFinding => ({ ruleId: "XSD", severity: "error", ...(f.location ? { location: f.location } : {}), message: f.message })));
  if (xsd.omitted) findings.omit("XSD", "error", xsd.omitted);
  const choice = request.ruleset ?? { request: DEFAULT_REQUEST, day: new Date().toISOString().slice(0, 10) };
  const lifecycle = choice.versions ? new RulesetLifecycle(choice.versions) : pinnedLifecycle;
  const schemaPin = xsdPin(schema);
  // Each schema key has one pinned version, so its resolution only reports how it was reached.
  const resolved: ResolvedArtifact[] = [resolveArtifact(lifecycle, schemaPin.key, choice.request, choice.day)];
  const rows: JudgedArtifactRow[] = [{ key: schemaPin.key, version: schemaPin.version, fileSha256: schemaPin.sha256, engine: "libxml2-wasm" }];
  const extra: Partial<ValidationResult> = {};

  const layers: RuleLayerRef[] = [...judgement.rules];
  let text = "";
  try {
    // libxml2 has read the markup and characters by now; the policy's decoding is what can still
    // refuse (an encoding libxml2 knows and the policy does not): the caller's document, a verdict.
    if (layers.length) text = decodeXml(xml);
  } catch (error) {
    if (!(error instanceof XmlRefused)) throw error;
    findings.add(fatal(error.ruleId, error.message), ...container);
    return { kind: "result", result: assemble(base, findings.list()) };
  }
  const facts: DocumentFacts = syntax && text ? readFacts(engine.schematron.document(text), syntax) : {};
  const french = facts.businessProcess !== undefined && FRENCH_PROCESS.test(facts.businessProcess) && facts.sellerCountry === "FR";
  for (const overlay of judgement.overlays ?? []) if (overlay.when === "french-invoice" && french) layers.push(overlay.layer);

  const ran: { path: string; ruleIds: readonly string[] }[] = [];
  const franceIds = new Set<string>();
  for (const layer of layers) {
    const artifact = resolveArtifact(lifecycle, layer.key, choice.request, choice.day);
    resolved.push(artifact);
    const version = artifact.version;
    const pin = artifactPin(layer.key, version, layer.file);
    const row: JudgedArtifactRow = { key: pin.key, version: pin.version, fileSha256: pin.sha256, engine: engine.schematron.engineOf(pin.path) };
    rows.push(row);
    ran.push({ path: pin.path, ruleIds: engine.schematron.entry(pin.path).ruleIds ?? [] });
    const field = VERSION_FIELDS[layer.family];
    if (field && !(field in extra)) (extra as Record<string, string>)[field] = version;
    try {
      const run = engine.schematron.run(pin.path, text);
      row.engine = run.engine;
      for (const f of run.findings) {
        const ruleId = ruleIdOf(f);
        if (f.omitted) findings.omit(ruleId, severityOfFlag(f.flag), f.omitted);
        else findings.add(findingOf(f));
        if (layer.family === "france-ctc") franceIds.add(ruleId);
      }
    } catch (error) {
      if (!(error instanceof RuleFileStopped)) throw error;
      findings.add(fatal("RULE_FILE_STOPPED", `${error.message}. The same document always stops this rule file the same way; it cannot be judged valid.`));
    }
  }
  // The EN 16931 version is that of the artifact carrying the core rules: the CEN file, or the
  // national bundle that embeds them.
  if (layers.length && !extra.schematronVersion) extra.schematronVersion = rows[1].version;
  const bundleFields = judgement.xsdFields;
  if (bundleFields) {
    const row = rows[0];
    (extra as Record<string, string>)[bundleFields[0]] = `${row.key}@${row.version}`;
    (extra as Record<string, string>)[bundleFields[1]] = engine.xsdRuntime;
  }
  if (franceIds.size) extra.franceCtcBlockingRuleIds = [...franceIds].sort();
  if (syntax && judgement.advisories?.includes("BR-CO-25")) {
    const advisory = brCo25Advisory(ran, facts, detection.documentType === "creditnote");
    if (advisory) findings.add(advisory);
  }
  findings.add(...container);
  const selection = selectionReport(choice.request, resolved);
  const result = assemble(base, findings.list(), { rulesetSha256: rulesetSha256(rows), rulesetArtifacts: rows, ...selection.fields, ...extra });
  return { kind: "result", result, ...(selection.resolvedHeader ? { rulesetResolved: selection.resolvedHeader } : {}) };
}
