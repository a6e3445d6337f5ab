// The page fonts: DejaVu Sans regular and bold, embedded as subsets. PDF/A forbids relying on the
// reader's fonts, and DejaVu covers the Latin, Greek and Cyrillic names invoices carry (Č, ß, ł, ő, ș).

import fontkit from "@pdf-lib/fontkit";
import { PDFArray, PDFDict, PDFName, PDFRawStream, type PDFDocument, type PDFFont } from "pdf-lib";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import sansPath from "dejavu-fonts-ttf/ttf/DejaVuSans.ttf" with { type: "file" };
import boldPath from "dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf" with { type: "file" };

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

const files = { regular: sansPath, bold: boldPath };
const cache: Partial<Record<keyof Fonts, Uint8Array>> = {};

function bytesOf(face: keyof Fonts): Uint8Array {
  cache[face] ??= new Uint8Array(readFileSync(files[face]));
  return cache[face];
}

type FontkitFont = ReturnType<typeof fontkit.create>;
const parsed = new WeakMap<Uint8Array, FontkitFont>();

/**
 * fontkit for pdf-lib with two changes. Fonts are parsed once per process, not once per document.
 * And `layout`, which pdf-lib calls to measure and encode every string, maps characters to glyphs
 * through the cmap only: full OpenType shaping (DejaVu's GSUB/GPOS) cost about half a millisecond
 * per string, seconds for a long invoice, and buys nothing for the precomposed (NFC) Latin, Greek
 * and Cyrillic text we draw; the price is no kerning and no ligatures.
 */
const cmapFontkit = {
  create(bytes: Uint8Array): FontkitFont {
    let font = parsed.get(bytes);
    if (!font) {
      font = fontkit.create(bytes);
      const direct = font;
      direct.layout = ((text: string) => ({ glyphs: direct.glyphsForString(text) })) as unknown as FontkitFont["layout"];
      parsed.set(bytes, font);
    }
    return font;
  },
};

export async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  doc.registerFontkit(cmapFontkit as unknown as typeof fontkit);
  const [regular, bold] = await Promise.all(
    (["regular", "bold"] as const).map((face) => doc.embedFont(bytesOf(face), { subset: true })),
  );
  return { regular, bold };
}

/**
 * pdf-lib names a subset `DejaVuSans-1234`; PDF (9.6.4) wants a six-letter tag, `ABCDEF+DejaVuSans`,
 * and readers and validators only recognise a subset by it. The tag is derived from the subset's
 * bytes: distinct subsets get distinct tags and the same input gives the same file. Call after
 * `doc.flush()`, which is when the subsets exist.
 */
export function tagSubsets(doc: PDFDocument): void {
  const ctx = doc.context;
  for (const [, object] of ctx.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.get(PDFName.of("Subtype")) !== PDFName.of("Type0")) continue;
    const descendant = ctx.lookup(object.lookup(PDFName.of("DescendantFonts"), PDFArray).get(0), PDFDict);
    const descriptor = descendant.lookup(PDFName.of("FontDescriptor"), PDFDict);
    const file = ctx.lookup(descriptor.get(PDFName.of("FontFile2")));
    if (!(file instanceof PDFRawStream)) continue;
    // Only pdf-lib's subsets of our fonts: a caller's page (a re-wrapped hybrid) brings fonts of its own.
    const subset = /^(DejaVuSans(?:-Bold)?)-\d+$/.exec(descriptor.lookup(PDFName.of("FontName"), PDFName).decodeText());
    if (!subset) continue;
    const name = subset[1]!;
    const tagged = PDFName.of(`${subsetTag(file.contents)}+${name}`);
    for (const dict of [object, descendant]) dict.set(PDFName.of("BaseFont"), tagged);
    descriptor.set(PDFName.of("FontName"), tagged);
  }
}

function subsetTag(bytes: Uint8Array): string {
  const digest = createHash("sha256").update(bytes).digest();
  return Array.from(digest.subarray(0, 6), (b) => String.fromCharCode(65 + (b % 26))).join("");
}
