// Puts a new invoice XML into a caller's hybrid PDF in place of the one it carried: every file
// specification known by an invoice file name (ZUGFeRD 1.0, 2.0, Factur-X, XRechnung) leaves both
// the /EmbeddedFiles name tree and the catalog's /AF, so a reader finds exactly one invoice, and the
// new one enters both. Other attachments stay where they were.

import { createHash } from "node:crypto";
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFString, type PDFContext, type PDFObject } from "pdf-lib";
import { collectFileSpecs, INVOICE_XML_NAMES, lookupDict, walkNameTree } from "./attachments.ts";

interface InvoiceFile {
  xml: Uint8Array;
  fileName: string;
  /** `/AFRelationship` (Data, Alternative). */
  relationship: string;
  description: string;
  /** Creation and modification date of the embedded file. */
  date: Date;
}

export function replaceInvoiceFile(context: PDFContext, catalog: PDFDict, file: InvoiceFile): void {
  const invoiceNames: readonly string[] = INVOICE_XML_NAMES;
  const old = new Set(collectFileSpecs(context, catalog).filter((s) => s.names.some((n) => invoiceNames.includes(n))).map((s) => s.dict));
  const spec = context.register(fileSpec(context, file));

  const entries: [string, PDFObject][] = [];
  const names = lookupDict(context, catalog.get(PDFName.of("Names")));
  const tree = names && lookupDict(context, names.get(PDFName.of("EmbeddedFiles")));
  if (tree) walkNameTree(context, tree, (key, value) => {
    const dict = lookupDict(context, value);
    if (key !== undefined && value && dict && !old.has(dict) && !invoiceNames.includes(key)) entries.push([key, value]);
  });
  entries.push([file.fileName, spec]);
  // One flat node, keys in order (a name tree's keys are sorted): the old tree may hold the old
  // invoice in any of its nodes, and a rebuilt tree leaves none of them behind.
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const embeddedFiles = context.obj({ Names: entries.flatMap(([key, value]) => [PDFHexString.fromText(key), value]) });
  if (names) names.set(PDFName.of("EmbeddedFiles"), embeddedFiles);
  else catalog.set(PDFName.of("Names"), context.obj({ EmbeddedFiles: embeddedFiles }));

  const af = context.lookup(catalog.get(PDFName.of("AF")));
  const kept = af instanceof PDFArray ? af.asArray().filter((entry) => { const dict = lookupDict(context, entry); return dict !== undefined && !old.has(dict); }) : [];
  catalog.set(PDFName.of("AF"), context.obj([...kept, spec]));
}

/** The file specification and its stream, as Factur-X 1.0 (section 6) and PDF/A-3 want them. */
function fileSpec(context: PDFContext, file: InvoiceFile): PDFDict {
  const date = PDFString.fromDate(file.date);
  const stream = context.flateStream(file.xml, {
    Type: "EmbeddedFile",
    Subtype: "text/xml",
    // CheckSum is the MD5 of the file's own bytes (ISO 32000-1, 7.11.4.2), not of an empty buffer.
    Params: { Size: file.xml.byteLength, CheckSum: PDFHexString.of(createHash("md5").update(file.xml).digest("hex")), CreationDate: date, ModDate: date },
  });
  const ref = context.register(stream);
  return context.obj({
    Type: "Filespec",
    F: PDFString.of(file.fileName),
    UF: PDFHexString.fromText(file.fileName),
    EF: { F: ref, UF: ref },
    Desc: PDFHexString.fromText(file.description),
    AFRelationship: file.relationship,
  });
}
