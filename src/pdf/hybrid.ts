// The hybrid invoice (ZUGFeRD / Factur-X): a PDF/A-3b whose visible pages show the invoice and
// whose embedded CII XML is the legal invoice. Declarations follow Factur-X 1.0 (section 6): file
// name, MIME type, relationship by profile, and the fx XMP schema naming the conformance level.

import { AFRelationship, PDFDocument } from "pdf-lib";
import type { Invoice } from "../model/index.ts";
import type { Profile } from "../standards/table.ts";
import { profileRuleFor } from "../syntax/detect.ts";
import { documentInfo } from "./document-info.ts";
import { embedFonts } from "./fonts.ts";
import { savePdfA } from "./pdfa.ts";
import type { TemplateDefinitionInput } from "../templates/definition.ts";
import { renderInvoice, type Template } from "./render.ts";

export interface HybridPdfInput {
  /** The CII XML exactly as it is embedded (what `generateXml` returned). */
  xml: Uint8Array;
  /** The same invoice as a model, for the visible pages and the metadata. */
  model: Invoice;
  /** The Factur-X / ZUGFeRD level the XML was written for. */
  profile: Profile;
  /** False for test keys: every page carries the sandbox watermark. */
  livemode: boolean;
  /** `standard` draws the invoice; omitted leaves one blank page. */
  template?: Template;
  /** An organization's stored template (logo, colour, footer, language, blocks); implies `standard`. Throws `TemplateUnusable`. */
  design?: TemplateDefinitionInput;
  /** Creation date written into Info, XMP and the attachment; defaults to the issue date. */
  now?: Date;
}

interface Embedding {
  fileName: string;
  conformanceLevel: string;
  version: string;
  /** MINIMUM and BASIC WL are not full invoices, so the PDF stays the invoice and the XML is data. */
  relationship: AFRelationship;
}

const LEVELS: Partial<Record<Profile, Pick<Embedding, "conformanceLevel" | "relationship">>> = {
  minimum: { conformanceLevel: "MINIMUM", relationship: AFRelationship.Data },
  basicwl: { conformanceLevel: "BASIC WL", relationship: AFRelationship.Data },
  basic: { conformanceLevel: "BASIC", relationship: AFRelationship.Alternative },
  en16931: { conformanceLevel: "EN 16931", relationship: AFRelationship.Alternative },
  extended: { conformanceLevel: "EXTENDED", relationship: AFRelationship.Alternative },
  "extended-ctc-fr": { conformanceLevel: "EXTENDED", relationship: AFRelationship.Alternative },
};

/**
 * ZUGFeRD 2.1+ carries XRechnung CII under its own file name and level, with the XRechnung version
 * as fx:Version; the guideline id (BT-24) says which applies.
 */
function embedding(model: Invoice, profile: Profile): Embedding {
  const guideline = model.processControl.specificationIdentifier;
  if (profileRuleFor(guideline, "cii")?.profile === "xrechnung") {
    const version = /xrechnung_(\d+\.\d+(?:\.\d+)?)/.exec(guideline)?.[1] ?? "1.0";
    return { fileName: "xrechnung.xml", conformanceLevel: "XRECHNUNG", version, relationship: AFRelationship.Alternative };
  }
  const level = LEVELS[profile];
  if (!level) throw new Error(`profile ${profile} has no hybrid PDF level`);
  return { fileName: "factur-x.xml", version: "1.0", ...level };
}

export async function writeHybridPdf(input: HybridPdfInput): Promise<Uint8Array> {
  const { xml, model, profile, livemode, template, design, now } = input;
  const { fileName, conformanceLevel, version, relationship } = embedding(model, profile);
  const info = documentInfo(model, now);
  const doc = await PDFDocument.create({ updateMetadata: false });
  await renderInvoice(doc, await embedFonts(doc), model, { template, livemode, design });
  await doc.attach(xml, fileName, {
    mimeType: "text/xml",
    description: `${conformanceLevel} invoice ${model.invoiceNumber}`,
    creationDate: info.date,
    modificationDate: info.date,
    afRelationship: relationship,
  });
  return savePdfA(doc, { ...info, identity: xml, facturx: { documentFileName: fileName, conformanceLevel, version } });
}
