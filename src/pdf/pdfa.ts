// Turns a drawn pdf-lib document into PDF/A-3b bytes: Info dictionary and its XMP mirror, the sRGB
// output intent, tagged font subsets and a trailer /ID. Everything is derived from the arguments,
// never from the clock or a random source, so the same input gives the same bytes. The declarations
// work on any document's objects, so a re-wrapped caller's PDF (rewrap.ts) is declared the same way.

import { PDFArray, PDFDict, PDFHexString, PDFName, PDFString, type PDFContext, type PDFDocument } from "pdf-lib";
import { createHash } from "node:crypto";
import { tagSubsets } from "./fonts.ts";
import { SRGB_DESCRIPTION, srgbIccProfile } from "./srgb-icc.ts";
import { xmpPacket, type FacturxDeclaration } from "./xmp.ts";

const PRODUCER = "einvoice";

interface PdfADescription {
  title: string;
  author: string;
  subject: string;
  date: Date;
  facturx?: FacturxDeclaration;
  /** Bytes that identify the content (the invoice XML): the trailer /ID is their digest. */
  identity: Uint8Array;
}

/** A document's objects: a drawn PDFDocument, or a caller's PDF read as a context. */
interface Objects {
  context: PDFContext;
  catalog: PDFDict;
}

// A new dictionary, not the old one amended: PDF/A wants every Info entry mirrored in the XMP, and
// a re-wrapped PDF's old entries (Keywords, Trapped) would have no mirror in the packet written here.
function setInfo(doc: Objects, d: PdfADescription): void {
  const text = PDFHexString.fromText;
  const date = PDFString.fromDate(d.date);
  const info = doc.context.obj({
    Title: text(d.title),
    Author: text(d.author),
    Subject: text(d.subject),
    Creator: text(PRODUCER),
    Producer: text(PRODUCER),
    CreationDate: date,
    ModDate: date,
  });
  doc.context.trailerInfo.Info = doc.context.register(info);
}

function setMetadata(doc: Objects, d: PdfADescription): void {
  const xmp = xmpPacket({ ...d, creatorTool: PRODUCER, producer: PRODUCER });
  // Uncompressed (context.stream, not flateStream): PDF/A wants the packet findable by byte scan.
  const stream = doc.context.stream(new TextEncoder().encode(xmp), { Type: "Metadata", Subtype: "XML" });
  doc.catalog.set(PDFName.of("Metadata"), doc.context.register(stream));
}

function setOutputIntent(doc: Objects): void {
  // A PDF/A intent already there (a re-wrapped PDF's) stays: its pages' device colours were drawn
  // for it, and a CMYK intent replaced by sRGB would leave DeviceCMYK content without one.
  if (hasPdfAIntent(doc)) return;
  const ctx = doc.context;
  const profile = ctx.register(ctx.flateStream(srgbIccProfile(), { N: 3 }));
  const intent = ctx.obj({
    Type: "OutputIntent",
    S: "GTS_PDFA1",
    OutputConditionIdentifier: PDFString.of(SRGB_DESCRIPTION),
    Info: PDFString.of(SRGB_DESCRIPTION),
    RegistryName: PDFString.of("http://www.color.org"),
    DestOutputProfile: profile,
  });
  doc.catalog.set(PDFName.of("OutputIntents"), ctx.obj([ctx.register(intent)]));
}

function hasPdfAIntent(doc: Objects): boolean {
  const intents = doc.context.lookup(doc.catalog.get(PDFName.of("OutputIntents")));
  if (!(intents instanceof PDFArray)) return false;
  return intents.asArray().some((intent) => {
    const dict = doc.context.lookup(intent);
    return dict instanceof PDFDict && dict.get(PDFName.of("S")) === PDFName.of("GTS_PDFA1") && dict.get(PDFName.of("DestOutputProfile")) !== undefined;
  });
}

function setId(doc: Objects, d: PdfADescription): void {
  const digest = createHash("md5").update(d.identity).update(d.date.toISOString()).digest("hex");
  const id = PDFHexString.of(digest);
  doc.context.trailerInfo.ID = doc.context.obj([id, id]);
}

/** What PDF/A-3b asks of the catalog and trailer: Info and its XMP mirror, an output intent, an /ID. */
export function declarePdfA(doc: Objects, description: PdfADescription): void {
  setInfo(doc, description);
  setMetadata(doc, description);
  setOutputIntent(doc);
  setId(doc, description);
}

export async function savePdfA(doc: PDFDocument, description: PdfADescription): Promise<Uint8Array> {
  declarePdfA(doc, description);
  await doc.flush();
  tagSubsets(doc);
  // Classic cross-reference table: object and xref streams are legal in PDF/A-3 but some older
  // hybrid-invoice readers still choke on them.
  return doc.save({ useObjectStreams: false, addDefaultPage: false });
}
