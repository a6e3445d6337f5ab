// Turns a drawn pdf-lib document into PDF/A-3b bytes: Info dictionary and its XMP mirror, the sRGB
// output intent, tagged font subsets and a trailer /ID. Everything is derived from the arguments,
// never from the clock or a random source, so the same input gives the same bytes.

import { PDFHexString, PDFName, PDFString, type PDFDocument } from "pdf-lib";
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

function setInfo(doc: PDFDocument, d: PdfADescription): void {
  doc.setTitle(d.title);
  doc.setAuthor(d.author);
  doc.setSubject(d.subject);
  doc.setCreator(PRODUCER);
  doc.setProducer(PRODUCER);
  doc.setCreationDate(d.date);
  doc.setModificationDate(d.date);
}

function setMetadata(doc: PDFDocument, d: PdfADescription): void {
  const xmp = xmpPacket({ ...d, creatorTool: PRODUCER, producer: PRODUCER });
  // Uncompressed (context.stream, not flateStream): PDF/A wants the packet findable by byte scan.
  const stream = doc.context.stream(new TextEncoder().encode(xmp), { Type: "Metadata", Subtype: "XML" });
  doc.catalog.set(PDFName.of("Metadata"), doc.context.register(stream));
}

function setOutputIntent(doc: PDFDocument): void {
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

function setId(doc: PDFDocument, d: PdfADescription): void {
  const digest = createHash("md5").update(d.identity).update(d.date.toISOString()).digest("hex");
  const id = PDFHexString.of(digest);
  doc.context.trailerInfo.ID = doc.context.obj([id, id]);
}

export async function savePdfA(doc: PDFDocument, description: PdfADescription): Promise<Uint8Array> {
  setInfo(doc, description);
  setMetadata(doc, description);
  setOutputIntent(doc);
  setId(doc, description);
  await doc.flush();
  tagSubsets(doc);
  // Classic cross-reference table: object and xref streams are legal in PDF/A-3 but some older
  // hybrid-invoice readers still choke on them.
  return doc.save({ useObjectStreams: false, addDefaultPage: false });
}
