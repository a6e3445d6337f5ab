// Re-wraps a caller's hybrid PDF (Factur-X, ZUGFeRD 1.0 to 2.x, XRechnung in PDF) around a new
// invoice XML, as POST /v1/convert does for a PDF target: the visible pages stay as they are, the
// old invoice attachment and its Factur-X / ZUGFeRD declaration are replaced, never added beside,
// and the file stays PDF/A-3. The embedding follows the target record's hybrid facts, exactly as a
// hybrid drawn here (hybrid.ts), so both kinds carry the same declaration.
//
// The PDF is untrusted: it is read under a budget (untrusted.ts), and whatever it holds comes back
// as a refusal, never an exception. A signed PDF is refused: the new file cannot keep the signature.

import { PDFWriter } from "pdf-lib";
import type { Result } from "../errors/result.ts";
import type { Invoice } from "../model/index.ts";
import type { ProfileRecord } from "../profiles/record.ts";
import { readXmpPacket } from "./attachments.ts";
import { PdfBudget, PdfOverBudget, type PdfLimits } from "./budget.ts";
import { documentInfo } from "./document-info.ts";
import { embedding, type Embedding } from "./hybrid.ts";
import { replaceInvoiceFile } from "./invoice-file.ts";
import { declarePdfA } from "./pdfa.ts";
import { signatureIn } from "./signatures.ts";
import { dropUnreachable } from "./unreachable.ts";
import { openUntrustedPdf, type OpenedPdf } from "./untrusted.ts";
import { readXmp } from "./xmp-reader.ts";

interface RewrapInput {
  /** The caller's hybrid PDF. */
  pdf: Uint8Array;
  /** The new invoice XML exactly as it is embedded. */
  xml: Uint8Array;
  /** The same invoice as a model, for the metadata (title, author, XRechnung version). */
  model: Invoice;
  /** The record the XML was written for: its hybrid facts say how it is embedded. */
  record: ProfileRecord;
  /** Creation date written into Info, XMP and the attachment; defaults to the issue date. */
  now?: Date;
  /** Limits below the defaults of budget.ts (tests). */
  limits?: Partial<PdfLimits>;
}

type RewrapFailure = {
  /** `signed`: re-writing would break a signature; `not-pdfa-3`: the pages cannot be declared PDF/A-3. */
  reason: "unreadable-pdf" | "over-budget" | "signed" | "not-pdfa-3";
  message: string;
};

type Rewrapped = Result<{ pdf: Uint8Array }, RewrapFailure>;

export async function rewrapHybrid(input: RewrapInput): Promise<Rewrapped> {
  // Outside the catch below: a record without hybrid facts is the caller's mistake, not the PDF's.
  const target = embedding(input.model, input.record);
  const budget = new PdfBudget(input.limits);
  const opened = await openUntrustedPdf(input.pdf, budget);
  if (!opened.ok) return opened;
  try {
    return await rewrap(opened, { ...input, target }, budget);
  } catch (error) {
    if (error instanceof PdfOverBudget) return { ok: false, reason: "over-budget", message: error.message };
    return { ok: false, reason: "unreadable-pdf", message: `the PDF's structure could not be re-written: ${error instanceof Error ? error.message : String(error)}` };
  }
}

async function rewrap(pdf: Extract<OpenedPdf, { ok: true }>, input: RewrapInput & { target: Embedding }, budget: PdfBudget): Promise<Rewrapped> {
  const signature = signatureIn(pdf.context, pdf.catalog);
  if (signature) {
    return { ok: false, reason: "signed", message: `the PDF is signed (${signature}) and a re-wrapped file cannot keep the signature; send it unsigned, or convert it to an XML target` };
  }
  const notPdfA3 = pdfa3Problem(pdf, budget);
  if (notPdfA3) return { ok: false, reason: "not-pdfa-3", message: `${notPdfA3}; only a PDF/A-3 file's pages can be re-wrapped as a hybrid invoice` };
  const { fileName, conformanceLevel, version, relationship, description } = input.target;
  const info = documentInfo(input.model, input.now);
  replaceInvoiceFile(pdf.context, pdf.catalog, { xml: input.xml, fileName, relationship, description, date: info.date });
  declarePdfA(pdf, { ...info, identity: input.xml, facturx: { documentFileName: fileName, conformanceLevel, version } });
  dropUnreachable(pdf.context);
  return { ok: true, pdf: await PDFWriter.forContext(pdf.context, 50).serializeToBuffer() };
}

/**
 * Why the source's XMP does not claim PDF/A-3, or undefined when it does. The new packet claims
 * PDF/A-3b, which a PDF/A-3a or -3u file meets too; any other part (PDF/A-4f is PDF 2.0, PDF/A-1
 * and -2 forbid an XML attachment) or no claim at all would become a false claim.
 */
function pdfa3Problem(pdf: Extract<OpenedPdf, { ok: true }>, budget: PdfBudget): string | undefined {
  const { xmp, xmpProblem } = readXmpPacket(pdf.context, pdf.catalog, budget);
  if (xmp === undefined) return xmpProblem ?? "the PDF has no XMP metadata, so it claims no PDF/A";
  const facts = readXmp(xmp);
  if (facts.unreadable) return facts.unreadable;
  if (facts.pdfaPart === "3") return undefined;
  return facts.pdfaPart === undefined ? "the XMP has no pdfaid:part: the PDF does not claim PDF/A" : `the PDF claims PDF/A-${facts.pdfaPart}`;
}
