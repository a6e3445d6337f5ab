// Finds the invoice XML inside a hybrid PDF (Factur-X, ZUGFeRD, XRechnung-in-PDF) and gathers what
// the hybrid checks need later: every attachment's name, relationship and MIME type, and the XMP
// packet. Input is untrusted: the file is read under a budget (budget.ts, untrusted.ts), every
// stream is decoded under it, every walk is bounded, and failures come back as results, never as
// exceptions.

import { PDFArray, PDFDict, PDFHexString, PDFName, PDFRawStream, PDFString, type PDFContext, type PDFObject } from "pdf-lib";
import { PdfBudget, PdfOverBudget, type PdfLimits } from "./budget.ts";
import { decodeStream, StreamOverCap } from "./stream-decode.ts";
import { XML_LIMITS } from "../syntax/xml-policy.ts";
import { openUntrustedPdf } from "./untrusted.ts";
import type { Result } from "../errors/result.ts";

/**
 * The invoice file names a hybrid is read for, case-sensitive, in order of preference. All but
 * ZUGFeRD 1.0's are the HybridDocumentFilename code list; that one is read too, so its invoice is
 * refused as ZUGFeRD 1.0 instead of reported missing.
 */
const INVOICE_FILES = [
  { name: "factur-x.xml", codeList: true },
  { name: "zugferd-invoice.xml", codeList: true }, // ZUGFeRD 2.0
  { name: "ZUGFeRD-invoice.xml", codeList: false }, // ZUGFeRD 1.0
  { name: "xrechnung.xml", codeList: true },
] as const;

export const INVOICE_XML_NAMES = INVOICE_FILES.map((f) => f.name);
/** The HybridDocumentFilename code list: the names fx:DocumentFileName and the attachment may have. */
export const HYBRID_FILE_NAMES: readonly string[] = INVOICE_FILES.filter((f) => f.codeList).map((f) => f.name);

export interface PdfAttachment {
  /** File name: /UF, else /F, else the key in the EmbeddedFiles name tree. */
  name: string;
  /** `/AFRelationship` of the file specification (e.g. `Data`, `Alternative`, `Source`). */
  relationship?: string;
  /** `/Subtype` of the embedded file stream, decoded (e.g. `text/xml`). */
  mimeType?: string;
  /** Listed in the `/Names /EmbeddedFiles` tree. */
  inEmbeddedFiles: boolean;
  /** Listed in the document catalog's `/AF` array (PDF/A-3 associated files). */
  inAssociatedFiles: boolean;
}

interface PdfMetadata {
  attachments: PdfAttachment[];
  /** The catalog's XMP metadata packet as text, when present and readable. */
  xmp?: string;
  /** Why the catalog's XMP metadata stream could not be read, when it could not. */
  xmpProblem?: string;
}

export type PdfExtraction = Result<
  { xml: Uint8Array; name: (typeof INVOICE_XML_NAMES)[number] } & PdfMetadata,
  ({ reason: "no-invoice-xml"; message: string } & PdfMetadata) | { reason: "unreadable-pdf" | "over-budget"; message: string }
>;

/** Limits below the defaults of budget.ts (tests). */
type ExtractOptions = Partial<PdfLimits>;

/**
 * The embedded invoice is held to the XML reading policy's size before it is inflated further (real
 * hybrids carry megabytes of base64 attachments inside the XML, so not to the XML body limit).
 */
const MAX_INVOICE_XML_BYTES = XML_LIMITS.maxBytes;
/** XMP packets are a few kilobytes; the checks parse this one into a DOM. */
const MAX_XMP_BYTES = 1024 * 1024;
// Name trees are shallow in practice; the cap and the visited set stop cycles and deep chains.
const MAX_TREE_DEPTH = 32;
const MAX_FILESPECS = 1_000;

class ExtractionError extends Error {}

export async function extractInvoiceXml(pdf: Uint8Array, options: ExtractOptions = {}): Promise<PdfExtraction> {
  const budget = new PdfBudget(options);
  const opened = await openUntrustedPdf(pdf, budget);
  if (!opened.ok) return opened;
  try {
    return readInvoice(opened.context, opened.catalog, budget);
  } catch (error) {
    if (error instanceof PdfOverBudget) return overBudget(error);
    return unreadable(`PDF structure could not be read: ${messageOf(error)}`);
  }
}

function readInvoice(context: PDFContext, catalog: PDFDict, budget: PdfBudget): PdfExtraction {
  const specs = collectFileSpecs(context, catalog);
  const attachments = specs.map(describe);
  const metadata: PdfMetadata = { attachments, ...readXmpPacket(context, catalog, budget) };

  for (const name of INVOICE_XML_NAMES) {
    const spec = specs.find((s) => s.names.includes(name));
    if (!spec) continue;
    const stream = embeddedStream(spec.dict);
    if (!stream) return { ok: false, reason: "no-invoice-xml", message: `attachment ${name} has no embedded file stream`, ...metadata };
    try {
      return { ok: true, xml: decodeStream(stream, budget, MAX_INVOICE_XML_BYTES), name, ...metadata };
    } catch (error) {
      if (error instanceof PdfOverBudget) throw error;
      if (error instanceof StreamOverCap) {
        return { ok: false, reason: "over-budget", message: `the embedded ${name} would inflate past ${XML_LIMITS.maxBytes / 1024 / 1024} MiB, the most an invoice XML may be` };
      }
      return unreadable(`attachment ${name} could not be decoded: ${messageOf(error)}`);
    }
  }
  const found = attachments.length ? `found: ${attachments.map((a) => a.name).join(", ")}` : "the PDF has no attachments";
  return { ok: false, reason: "no-invoice-xml", message: `no embedded invoice XML (${INVOICE_XML_NAMES.join(", ")}); ${found}`, ...metadata };
}

export interface FileSpec {
  dict: PDFDict;
  /** Every name the spec is known by (tree key, /UF, /F), best first. */
  names: string[];
  inEmbeddedFiles: boolean;
  inAssociatedFiles: boolean;
}

export function collectFileSpecs(context: PDFContext, catalog: PDFDict): FileSpec[] {
  const byDict = new Map<PDFDict, FileSpec>();
  const add = (dict: PDFDict, key: string | undefined, where: "tree" | "af") => {
    let spec = byDict.get(dict);
    if (!spec) {
      if (byDict.size >= MAX_FILESPECS) throw new ExtractionError(`more than ${MAX_FILESPECS} attachments`);
      const own = [textOf(dict.get(PDFName.of("UF"))), textOf(dict.get(PDFName.of("F")))];
      spec = { dict, names: [], inEmbeddedFiles: false, inAssociatedFiles: false };
      for (const n of own) if (n !== undefined && !spec.names.includes(n)) spec.names.push(n);
      byDict.set(dict, spec);
    }
    if (key !== undefined && !spec.names.includes(key)) spec.names.push(key);
    if (where === "tree") spec.inEmbeddedFiles = true;
    else spec.inAssociatedFiles = true;
  };

  const names = lookupDict(context, catalog.get(PDFName.of("Names")));
  const tree = names && lookupDict(context, names.get(PDFName.of("EmbeddedFiles")));
  if (tree) walkNameTree(context, tree, (key, value) => {
    const dict = lookupDict(context, value);
    if (dict) add(dict, key, "tree");
  });

  const af = context.lookup(catalog.get(PDFName.of("AF")));
  if (af instanceof PDFArray) {
    for (let i = 0; i < Math.min(af.size(), MAX_FILESPECS); i++) {
      const dict = lookupDict(context, af.get(i));
      if (dict) add(dict, undefined, "af");
    }
  }
  return [...byDict.values()];
}

export function walkNameTree(context: PDFContext, root: PDFDict, visit: (key: string | undefined, value: PDFObject | undefined) => void): void {
  const seen = new Set<PDFDict>();
  const walk = (node: PDFDict, depth: number) => {
    if (depth > MAX_TREE_DEPTH || seen.has(node)) return;
    seen.add(node);
    const pairs = context.lookup(node.get(PDFName.of("Names")));
    if (pairs instanceof PDFArray) {
      for (let i = 0; i + 1 < pairs.size(); i += 2) visit(textOf(context.lookup(pairs.get(i))), pairs.get(i + 1));
    }
    const kids = context.lookup(node.get(PDFName.of("Kids")));
    if (kids instanceof PDFArray) {
      for (let i = 0; i < kids.size(); i++) {
        const kid = lookupDict(context, kids.get(i));
        if (kid) walk(kid, depth + 1);
      }
    }
  };
  walk(root, 0);
}

function describe(spec: FileSpec): PdfAttachment {
  const relationship = spec.dict.get(PDFName.of("AFRelationship"));
  const stream = embeddedStream(spec.dict);
  const subtype = stream?.dict.get(PDFName.of("Subtype"));
  return {
    name: spec.names[0] ?? "",
    ...(relationship instanceof PDFName ? { relationship: nameText(relationship) } : {}),
    ...(subtype instanceof PDFName ? { mimeType: nameText(subtype) } : {}),
    inEmbeddedFiles: spec.inEmbeddedFiles,
    inAssociatedFiles: spec.inAssociatedFiles,
  };
}

function embeddedStream(spec: PDFDict): PDFRawStream | undefined {
  const ef = spec.lookupMaybe(PDFName.of("EF"), PDFDict);
  const file = ef?.get(PDFName.of("UF")) ?? ef?.get(PDFName.of("F"));
  const stream = file && spec.context.lookup(file);
  return stream instanceof PDFRawStream ? stream : undefined;
}

export function readXmpPacket(context: PDFContext, catalog: PDFDict, budget: PdfBudget): Pick<PdfMetadata, "xmp" | "xmpProblem"> {
  const stream = context.lookup(catalog.get(PDFName.of("Metadata")));
  if (!(stream instanceof PDFRawStream)) return {};
  try {
    return { xmp: new TextDecoder("utf-8").decode(decodeStream(stream, budget, MAX_XMP_BYTES)) };
  } catch (error) {
    if (error instanceof PdfOverBudget) throw error;
    return { xmpProblem: `the XMP metadata stream could not be decoded: ${messageOf(error)}` };
  }
}

// --- small helpers ----------------------------------------------------------------------------

export function lookupDict(ctx: PDFContext, obj: PDFObject | undefined): PDFDict | undefined {
  const value = ctx.lookup(obj);
  return value instanceof PDFDict ? value : undefined;
}

/** Name objects keep `#xx` escapes (a MIME type is written `text#2Fxml`); undo them. */
function nameText(name: PDFName): string {
  return name.decodeText().replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function textOf(obj: PDFObject | undefined): string | undefined {
  return obj instanceof PDFString || obj instanceof PDFHexString ? obj.decodeText() : undefined;
}

function unreadable(message: string): PdfExtraction {
  return { ok: false, reason: "unreadable-pdf", message };
}

function overBudget(error: PdfOverBudget): PdfExtraction {
  return { ok: false, reason: "over-budget", message: error.message };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
