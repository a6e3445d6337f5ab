// Drops the objects nothing refers to any more. pdf-lib writes every object its context holds, so
// a replaced attachment or XMP packet would otherwise still be in the file, where a byte scan
// (which PDF/A allows for finding XMP) or a tool that lists streams finds the stale invoice.

import { PDFArray, PDFDict, PDFRef, PDFStream, type PDFContext, type PDFObject } from "pdf-lib";

export function dropUnreachable(context: PDFContext): void {
  const { Root, Info } = context.trailerInfo;
  const reached = new Set<PDFRef>();
  const pending: PDFObject[] = [Root, Info].filter((o): o is PDFObject => o !== undefined);
  while (pending.length) {
    const next = pending.pop()!;
    if (next instanceof PDFRef) {
      // pdf-lib interns references, so one object is one PDFRef.
      if (reached.has(next)) continue;
      reached.add(next);
      const target = context.lookup(next);
      if (target) pending.push(target);
    } else if (next instanceof PDFDict) {
      for (const [, value] of next.entries()) pending.push(value);
    } else if (next instanceof PDFArray) {
      for (const value of next.asArray()) pending.push(value);
    } else if (next instanceof PDFStream) {
      pending.push(next.dict);
    }
  }
  const unreachable = context.enumerateIndirectObjects().filter(([ref]) => !reached.has(ref));
  for (const [ref] of unreachable) context.delete(ref);
}
