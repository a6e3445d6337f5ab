// POST /v1/convert as one job in an engine worker: the source read into the EN 16931 model by its
// syntax binding, the ids rewritten for the target record, written by the target's binding, read
// back and compared, then judged under the target record like a validation. The bindings are the
// mapping, so what parse and generate know, convert knows; what the model does not carry is a
// loss, reported, and fails closed unless the spec lists it as acceptable (losses.ts).

import type { Invoice } from "../model/index.ts";
import { CONVERT_TARGETS, facturxTarget } from "../profiles/catalogue.ts";
import type { ConvertFormat, En16931Syntax, FacturxLevel, RecordId } from "../profiles/ids.ts";
import { isEn16931Syntax } from "../profiles/ids.ts";
import { convertSourceFormat, recordById } from "../profiles/lookup.ts";
import type { ProfileRecord, Writing } from "../profiles/record.ts";
import { FRENCH_PROCESS } from "../standards/france-ctc.ts";
import { detect, type Detection } from "../syntax/detect.ts";
import { bindingOf } from "../syntax/registry.ts";
import { extractInvoiceXml } from "../pdf/attachments.ts";
import { isPdf } from "../pdf/sniff.ts";
import { markTestMode } from "../generate/test-mode.ts";
import { DomainError } from "../errors/domain-error.ts";
import type { ValidationResult } from "../validation/result.ts";
import type { ValidateOutcome, ValidateRequest } from "../validation/validate.ts";
import { acceptable, unmappable, type LostElement } from "./losses.ts";
import { modelDifferences } from "./model-diff.ts";

export interface ConvertQuery {
  sourceFormat?: "auto" | ConvertFormat;
  targetFormat: ConvertFormat;
  targetProfile?: FacturxLevel | "extended-ctc-fr";
  dropFranceCtcOverlay?: boolean;
}

export interface ConvertOrder {
  bytes: Uint8Array;
  query: ConvertQuery;
  livemode: boolean;
  judge: { ruleset: ValidateRequest["ruleset"] };
  /** The date a re-wrapped PDF's metadata and attachment carry. */
  now: Date;
}

export interface Converted {
  file: Uint8Array;
  contentType: "application/xml" | "application/pdf";
  sourceFormat: ConvertFormat;
  targetFormat: ConvertFormat;
  /** The profile the source's customization id names, when a record recognises it. */
  profileDetected?: string;
  /** Every acceptable loss, in source order (a 200 carries no other kind). */
  lost: LostElement[];
  /** The engines that ran, in order (x-conversion-tools). */
  tools: string[];
  /** The target's verdict, sealed like a validation. */
  result: ValidationResult;
  /** The Factur-X level written, for a zugferd or facturx target. */
  facturxProfile?: string;
}

interface ConvertSteps {
  judge(request: ValidateRequest): Promise<ValidateOutcome>;
}

const unsupported = (sourceFormat: string, targetFormat: ConvertFormat, why: string) =>
  new DomainError(422, "CONVERSION_UNSUPPORTED_PAIR", `${why}; convert handles the EN 16931 family only (CII, UBL, ZUGFeRD, Factur-X, XRechnung, Peppol BIS)`, { sourceFormat, targetFormat });

export async function convertDocument(order: ConvertOrder, steps: ConvertSteps): Promise<Converted> {
  const { query } = order;
  const source = await sourceOf(order.bytes, query);
  const target = targetRecord(query, source);
  const facturxFamily = query.targetFormat === "facturx" || query.targetFormat === "zugferd";
  // A hybrid PDF to the Factur-X family stays a PDF: its pages kept, its invoice re-wrapped.
  const rewrap = source.pdf && facturxFamily;
  // The same record in and out (ZUGFeRD and Factur-X declare the same ids): the XML is kept as it
  // is, so nothing of it can be lost; only a PDF carrier changes.
  const carried = target.id === source.record?.id ? kept(source) : throughModel(source, target, query);
  if (source.pdf && !rewrap) carried.lost.unshift(acceptable("pdf-envelope", "/", null));
  const xml = new TextEncoder().encode(order.livemode ? carried.xml : markTestMode(carried.xml));
  const file = rewrap ? await rewrapped(order, xml, carried.model(), target) : xml;
  const outcome = await steps.judge({ bytes: file, record: target.id, ruleset: order.judge.ruleset });
  if (!outcome.ok) throw new Error(`the converted document could not be judged: ${outcome.message}`);
  const result = { ...outcome.result, verified: true };
  if (!result.valid) {
    const first = result.errors[0];
    throw new DomainError(422, "INVALID_INVOICE", `the converted ${query.targetFormat} document breaks ${result.errors.length} rule(s), first ${first?.ruleId}: ${first?.message}`, { validationResult: result });
  }
  const engines = [...new Set(outcome.layers.flatMap((l) => (l.engine ? [l.engine] : [])))];
  return {
    file,
    contentType: rewrap ? "application/pdf" : "application/xml",
    sourceFormat: source.format,
    targetFormat: query.targetFormat,
    ...(source.detection.profileDetected !== undefined && { profileDetected: source.detection.profileDetected }),
    lost: carried.lost,
    tools: [...(source.pdf ? ["pdf-extract"] : []), ...carried.tools, ...(rewrap ? ["pdf-rewrap"] : []), ...engines],
    result,
    ...(facturxFamily && { facturxProfile: query.targetProfile ?? "en16931" }),
  };
}

/** The target's XML, the model it says, what it did not carry (acceptable only, or it refused) and the tools that made it. */
interface Carried {
  xml: string;
  /** Only a re-wrapped PDF asks for it (its metadata); kept XML is not read for nothing. */
  model: () => Invoice;
  lost: LostElement[];
  tools: string[];
}

function kept(source: Source): Carried {
  return { xml: new TextDecoder().decode(source.xml), model: () => bindingOf(source.syntax).read(source.xml), lost: [], tools: [] };
}

/**
 * Read with leftovers, adjusted for the target, written by the target binding and read back: every
 * leftover, writer drop and read-back difference is a loss, and any loss the spec does not accept
 * refuses the conversion.
 */
function throughModel(source: Source, target: ProfileRecord, query: ConvertQuery): Carried {
  const { invoice: model, leftovers } = readSource(source);
  const lost: LostElement[] = leftovers.map((l) => unmappable(l.path, l.value, l.reason));
  const write = target.write!;
  lost.push(...adjust(model, source, target, query));
  rewriteIds(model, write, target.profile === source.record?.profile);
  const expected = structuredClone(model);
  if (!write.subLines) lost.push(...model.lines.flatMap((l, i) => (l.subLines?.length ? [unmappable(lineSourcePath(source, i), null, `sub-lines (BG-DEX-01) have no place in ${target.id}`)] : [])));
  const binding = bindingOf(target.syntax as En16931Syntax);
  const written = binding.write(model, write);
  for (const drop of written.lost) lost.push(unmappable(drop.xpath, null, `${drop.bt ?? "a term"} has no place in ${target.id} (the path is where the target would hold it)`));
  refuseUnmappable(lost, query.targetFormat);
  // Read back: whatever the target does not say that the source said is a loss, even one no rule
  // above foresaw. Its path is the model's: a written value does not keep its source place.
  const reread = binding.read(new TextEncoder().encode(written.xml));
  refuseUnmappable(
    modelDifferences(expected, reread).map((d) => unmappable(`model:${d.path}`, d.before === undefined ? null : JSON.stringify(d.before), `the ${target.id} writer did not carry it (it reads back as ${JSON.stringify(d.after ?? null)})`)),
    query.targetFormat,
  );
  return { xml: written.xml, model: () => reread, lost, tools: [`${source.syntax}-reader`, `${target.syntax}-writer`] };
}

/**
 * The caller's hybrid PDF around the converted XML. A signature would be broken and a file that is
 * no PDF/A-3 cannot be declared one by adding an attachment: both are the caller's to decide.
 */
async function rewrapped(order: ConvertOrder, xml: Uint8Array, model: Invoice, record: ProfileRecord): Promise<Uint8Array> {
  const { rewrapHybrid } = await import("../pdf/rewrap.ts");
  const result = await rewrapHybrid({ pdf: order.bytes, xml, model, record, now: order.now });
  if (result.ok) return order.livemode ? result.pdf : (await import("../pdf/watermark.ts")).markPages(result.pdf);
  const why = result.reason === "signed" ? "it is signed, and re-wrapping the invoice would break the signature; convert its XML instead (the PDF envelope is then dropped)" : result.message;
  throw new DomainError(422, "VALIDATION_ERROR", `the hybrid PDF cannot be re-wrapped: ${why}`, { reason: result.reason });
}

/** The source in the model; a document its binding cannot read (malformed XML, a value that is no number) is the caller's to mend. */
function readSource(source: Source) {
  try {
    return bindingOf(source.syntax).readWithLeftovers(source.xml);
  } catch (error) {
    throw new DomainError(422, "VALIDATION_ERROR", `the ${source.syntax.toUpperCase()} document cannot be read: ${(error as Error).message}`, { sourceFormat: source.format });
  }
}

/** 422 CONVERSION_LOSSY_FAILCLOSED when anything but an acceptable loss is listed. */
function refuseUnmappable(lost: readonly LostElement[], targetFormat: ConvertFormat): void {
  const unmappables = lost.filter((l) => !l.acceptableLoss);
  if (!unmappables.length) return;
  const [first] = unmappables;
  throw new DomainError(422, "CONVERSION_LOSSY_FAILCLOSED", `${unmappables.length} element(s) of the source cannot be carried to ${targetFormat}, first ${first!.path}: ${first!.reason}`, {
    unmappablePaths: unmappables.map((l) => l.path),
    lostElements: unmappables,
  });
}

interface Source {
  xml: Uint8Array;
  pdf: boolean;
  syntax: En16931Syntax;
  detection: Detection;
  record: ProfileRecord | undefined;
  format: ConvertFormat;
}

/** The source: extracted from a hybrid PDF, detected, and checked against an explicit `sourceFormat`. */
async function sourceOf(bytes: Uint8Array, query: ConvertQuery): Promise<Source> {
  let xml = bytes;
  const pdf = isPdf(bytes);
  if (pdf) {
    const extracted = await extractInvoiceXml(bytes);
    if (!extracted.ok) throw unsupported("pdf", query.targetFormat, `the PDF carries no invoice XML (${extracted.message})`);
    xml = extracted.xml;
  }
  const detection = detect(xml, { hybrid: pdf });
  if (!isEn16931Syntax(detection.format)) throw unsupported(detection.format, query.targetFormat, detection.note ?? `a ${detection.format} document is outside the EN 16931 family`);
  const syntax = detection.format;
  const resolved = convertSourceFormat(syntax, detection.record);
  const asked = query.sourceFormat ?? "auto";
  const format = asked === "auto" ? resolved : asked;
  // ZUGFeRD and Factur-X share their ids, so naming either is naming the family; cii and ubl name a syntax.
  const fits = asked === "auto" || asked === syntax || asked === resolved || (asked === "zugferd" && resolved === "facturx");
  if (!fits) throw new DomainError(422, "VALIDATION_ERROR", `sourceFormat is ${asked}, but the document is ${resolved === syntax ? `plain ${syntax.toUpperCase()}` : `${resolved} (${syntax.toUpperCase()})`}; send sourceFormat=auto or ${resolved}`, { sourceFormat: asked, detected: resolved });
  return { xml, pdf, syntax, detection, record: detection.record, format };
}

function targetRecord(query: ConvertQuery, source: Source): ProfileRecord {
  const t = query.targetFormat;
  let id: RecordId;
  if (t === "facturx" || t === "zugferd") id = facturxTarget(query.targetProfile ?? "en16931");
  else id = (source.record && CONVERT_TARGETS[t].crossing?.[source.record.id]) ?? CONVERT_TARGETS[t].records[source.syntax];
  return recordById(id);
}

/**
 * The changes the target asks of the model before it is written, each reported: a Peppol source's
 * endpoints stripped for plain UBL, a French framework dropped on a UBL target when the caller
 * opted in (else refused), and endpoints a Peppol target needs but the source lacks (refused:
 * convert never invents them).
 */
function adjust(model: Invoice, source: Source, target: ProfileRecord, query: ConvertQuery): LostElement[] {
  const lost: LostElement[] = [];
  const parties = [
    { party: model.seller, path: partyPath(source, "seller"), bt: "BT-34" },
    { party: model.buyer, path: partyPath(source, "buyer"), bt: "BT-49" },
  ];
  if (source.format === "peppol-bis" && target.write?.electronicAddress === "optional" && target.syntax === "ubl") {
    for (const { party, path } of parties) {
      if (!party.electronicAddress) continue;
      lost.push(acceptable("peppol-endpoint", path, party.electronicAddress.value));
      delete party.electronicAddress;
    }
  }
  if (target.write?.electronicAddress === "peppol") {
    for (const { party, path, bt } of parties) if (!party.electronicAddress) lost.push(unmappable(path, null, `${bt} electronic address: Peppol BIS needs it and the source has none; convert never invents one (use generate with explicit peppol blocks)`));
  }
  const process = model.processControl.businessProcessType;
  if (process && FRENCH_PROCESS.test(process) && target.syntax === "ubl") {
    const path = source.syntax === "cii" ? "/rsm:CrossIndustryInvoice/rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID" : `/${source.detection.root?.localName}/cbc:ProfileID`;
    if (query.dropFranceCtcOverlay) {
      lost.push(acceptable("france-ctc-process", path, process));
      delete model.processControl.businessProcessType;
    } else lost.push(unmappable(path, process, "France CTC business process code (BT-23) has no place on a UBL target; send dropFranceCtcOverlay=true to accept its loss"));
  }
  return lost;
}

/**
 * BT-24 becomes the target's, unless the document stays in its CIUS (`sameProfile`: XRechnung into
 * the other syntax keeps its exact id, whose extension and CVD forms choose how KoSIT judges it).
 * BT-23 stays the source's; only where it has none does the target's own convention apply.
 */
function rewriteIds(model: Invoice, write: Writing, sameProfile: boolean): void {
  const hasSubLines = model.lines.some((l) => l.subLines?.length);
  if (!sameProfile) model.processControl.specificationIdentifier = (write.subLines && hasSubLines && write.extensionCustomizationId) || write.customizationId;
  model.processControl.businessProcessType ??= write.businessProcess;
}

function partyPath(source: Source, role: "seller" | "buyer"): string {
  if (source.syntax === "ubl") return `/${source.detection.root?.localName}/cac:${role === "seller" ? "AccountingSupplierParty" : "AccountingCustomerParty"}/cac:Party/cbc:EndpointID`;
  return `/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:${role === "seller" ? "SellerTradeParty" : "BuyerTradeParty"}/ram:URIUniversalCommunication/ram:URIID`;
}

function lineSourcePath(source: Source, index: number): string {
  if (source.syntax === "ubl") return `/${source.detection.root?.localName}/cac:${source.detection.root?.localName === "CreditNote" ? "CreditNoteLine" : "InvoiceLine"}[${index + 1}]`;
  return `/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem[${index + 1}]`;
}
