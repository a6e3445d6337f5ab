// The test-key mark (interface specification, Test-mode marking): a diagonal text across every page,
// sized from the page so any page format gets it corner to corner. PDF/A-1 forbids transparency and
// many validators still check for it, so the mark is an opaque light grey drawn before the page
// content: the content stays on top and readable.

import { degrees, PDFArray, PDFDocument, PDFName, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { embedFonts, tagSubsets } from "./fonts.ts";

const WATERMARK_TEXT = "SANDBOX · SPECIMEN";
const GREY = rgb(0.88, 0.88, 0.88);
/** Share of the page diagonal the text spans. */
const SPAN = 0.8;

export function drawWatermark(page: PDFPage, font: PDFFont): void {
  const { width, height } = page.getSize();
  const angle = Math.atan2(height, width);
  const size = (SPAN * Math.hypot(width, height)) / font.widthOfTextAtSize(WATERMARK_TEXT, 1);
  const textWidth = font.widthOfTextAtSize(WATERMARK_TEXT, size);
  const textHeight = font.heightAtSize(size, { descender: false });
  // drawText rotates about its start point; step back from the centre along both rotated axes.
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const x = width / 2 - (cos * textWidth) / 2 + (sin * textHeight) / 2;
  const y = height / 2 - (sin * textWidth) / 2 - (cos * textHeight) / 2;
  page.drawText(WATERMARK_TEXT, { x, y, size, font, color: GREY, rotate: degrees((angle * 180) / Math.PI) });
}

/**
 * The mark on pages that are not ours (a caller's hybrid PDF re-wrapped for a test key): drawn, then
 * moved to the front of each page's content, so the page's own content is drawn over it as on the
 * pages we draw ourselves. pdf-lib wraps the existing content in q/Q before adding a stream, so the
 * page's graphics state cannot leak into the mark or the mark's into the page.
 */
export async function markPages(pdf: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const { bold } = await embedFonts(doc);
  for (const page of doc.getPages()) {
    drawWatermark(page, bold);
    const contents = page.node.lookup(PDFName.of("Contents"));
    if (!(contents instanceof PDFArray)) continue;
    const mark = contents.get(contents.size() - 1);
    contents.remove(contents.size() - 1);
    contents.insert(0, mark);
  }
  await doc.flush();
  tagSubsets(doc);
  return doc.save({ useObjectStreams: false, updateFieldAppearances: false });
}
