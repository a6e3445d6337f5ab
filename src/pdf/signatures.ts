// Whether a caller's PDF is signed. A signature covers the file's bytes (its /ByteRange), so any
// re-write of the file breaks it; a PDF that carries one is refused rather than silently unsigned.
// Every dictionary is looked at, not only the AcroForm's fields: an incremental update can leave a
// signature outside the form, and a hostile form tree need not be walked to find it.

import { PDFArray, PDFDict, PDFName, PDFRawStream, type PDFContext, type PDFObject } from "pdf-lib";

/** Why the PDF counts as signed, or undefined when it carries no signature. */
export function signatureIn(context: PDFContext, catalog: PDFDict): string | undefined {
  // DocMDP and UR3 signatures are named here, whatever the form holds.
  if (catalog.has(PDFName.of("Perms"))) return "the document catalog has /Perms (a certification or usage-rights signature)";
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    for (const dict of dictionariesIn(object)) {
      if (dict.has(PDFName.of("ByteRange"))) return `object ${ref.objectNumber} is a signature dictionary (/ByteRange)`;
      if (dict.get(PDFName.of("FT")) === PDFName.of("Sig") && dict.has(PDFName.of("V"))) return `object ${ref.objectNumber} is a signed signature field (/FT /Sig with a /V)`;
    }
  }
  return undefined;
}

/** The object's own dictionaries, direct ones inside it included: a tree, each visited once. */
function* dictionariesIn(object: PDFObject): Generator<PDFDict> {
  const pending: PDFObject[] = [object];
  while (pending.length) {
    const next = pending.pop()!;
    if (next instanceof PDFRawStream) pending.push(next.dict);
    else if (next instanceof PDFDict) {
      yield next;
      for (const [, value] of next.entries()) pending.push(value);
    } else if (next instanceof PDFArray) {
      // One push per element: a spread of a long array overflows the call stack.
      for (const value of next.asArray()) pending.push(value);
    }
  }
}
