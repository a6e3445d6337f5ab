// The hybrid invoice (ZUGFeRD / Factur-X): a PDF/A-3b whose visible pages show the invoice and
// whose embedded CII XML is the legal invoice. Declarations follow Factur-X 1.0 (section 6): file
// name, MIME type, relationship by profile, and the fx XMP schema naming the conformance level.

import { AFRelationship, PDFDocument } from "pdf-lib";
import type { Invoice } from "../model/index.ts";
import type { ProfileRecord } from "../profiles/record.ts";
import { documentInfo } from "./document-info.ts";
import { embedFonts } from "./fonts.ts";
import { savePdfA } from "./pdfa.ts";
import type { TemplateDefinitionInput } from "./design.ts";
import { renderInvoice, type Template } from "./render.ts";

interface HybridPdfInput {
  /** The CII XML exactly as it is embedded (what `generateXml` returned). */
  xml: Uint8Array;
  /** The same invoice as a model, for the visible pages and the metadata. */
  model: Invoice;
  /** The catalogue record the XML was written for: its hybrid facts say how it is embedded. */
  record: ProfileRecord;
  /** False for test keys: every page carries the sandbox watermark. */
  livemode: boolean;
  /** `standard` draws the invoice; omitted leaves one blank page. */
  template?: Template;
  /** An organization's stored template (logo, colour, footer, language, blocks); implies `standard`. Throws PDF_TEMPLATE_INVALID. */
  design?: TemplateDefinitionInput;
  /** Creation date written into Info, XMP and the attachment; defaults to the issue date. */
  now?: Date;
}

export interface Embedding {
  fileName: string;
  conformanceLevel: string;
  version: string;
  relationship: AFRelationship;
  /** The file specification's /Desc. */
  description: string;
}

/** How the record's XML of this invoice is embedded: the same for a PDF drawn here and one re-wrapped (rewrap.ts). */
export function embedding(model: Invoice, record: ProfileRecord): Embedding {
  const facts = record.hybrid;
  if (!facts) throw new Error(`${record.id} does not travel in a hybrid PDF`);
  const version =
    facts.version === "from-xrechnung-id" ? (/xrechnung_(\d+\.\d+(?:\.\d+)?)/.exec(model.processControl.specificationIdentifier)?.[1] ?? "1.0") : facts.version;
  return {
    fileName: facts.fileName,
    conformanceLevel: facts.conformanceLevel,
    version,
    relationship: AFRelationship[facts.relationship],
    description: `${facts.conformanceLevel} invoice ${model.invoiceNumber}`,
  };
}

export async function writeHybridPdf(input: HybridPdfInput): Promise<Uint8Array> {
  const { xml, model, record, livemode, template, design, now } = input;
  const { fileName, conformanceLevel, version, relationship, description } = embedding(model, record);
  const info = documentInfo(model, now);
  const doc = await PDFDocument.create({ updateMetadata: false });
  await renderInvoice(doc, await embedFonts(doc), model, { template, livemode, design });
  await doc.attach(xml, fileName, {
    mimeType: "text/xml",
    description,
    creationDate: info.date,
    modificationDate: info.date,
    afRelationship: relationship,
  });
  return savePdfA(doc, { ...info, identity: xml, facturx: { documentFileName: fileName, conformanceLevel, version } });
}
