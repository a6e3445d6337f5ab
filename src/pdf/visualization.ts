// The visualization PDF of an XML-only standard (XRechnung, Peppol BIS, national formats): the same
// pages as a hybrid, as PDF/A-3b, but nothing embedded: the XML stays the legal invoice and is
// delivered on its own.

import { PDFDocument } from "pdf-lib";
import type { Invoice } from "../model/index.ts";
import { documentInfo } from "./document-info.ts";
import { embedFonts } from "./fonts.ts";
import { savePdfA } from "./pdfa.ts";
import type { TemplateDefinitionInput } from "./design.ts";
import { renderInvoice, type Template } from "./render.ts";

interface VisualizationPdfInput {
  /** The XML the pages show; only its digest is used (the trailer /ID). */
  xml: Uint8Array;
  model: Invoice;
  livemode: boolean;
  template?: Template;
  /** An organization's stored template; implies `standard`. Throws PDF_TEMPLATE_INVALID. */
  design?: TemplateDefinitionInput;
  now?: Date;
}

export async function writeVisualizationPdf(input: VisualizationPdfInput): Promise<Uint8Array> {
  const { xml, model, livemode, template, design, now } = input;
  const doc = await PDFDocument.create({ updateMetadata: false });
  await renderInvoice(doc, await embedFonts(doc), model, { template, livemode, design });
  return savePdfA(doc, { ...documentInfo(model, now), identity: xml });
}
