// A top-to-bottom text flow over as many pages as the content needs: measuring, wrapping, and a
// cursor that opens the next page (and lets the caller repeat a table header there) when the
// current one is full. Knows nothing about invoices.

import { rgb, type Color, type PDFDocument, type PDFFont, type PDFPage } from "pdf-lib";

export const A4: [number, number] = [595.28, 841.89];

export interface Style {
  font: PDFFont;
  size: number;
  color?: Color;
}

export const INK = rgb(0.1, 0.1, 0.1);
export const MUTED = rgb(0.4, 0.4, 0.4);
export const RULE = rgb(0.75, 0.75, 0.75);

const widths = new WeakMap<PDFFont, Map<string, number>>();

/** Width at `size`; words repeat a lot on an invoice, so widths at size 1 are kept per font. */
export function textWidth(text: string, font: PDFFont, size: number): number {
  let known = widths.get(font);
  if (!known) widths.set(font, (known = new Map()));
  let w = known.get(text);
  if (w === undefined) {
    w = font.widthOfTextAtSize(text, 1);
    if (known.size < 50_000) known.set(text, w);
  }
  return w * size;
}

/**
 * Control characters (tabs, stray CRs) would be drawn as missing glyphs; they are spacing. NFC
 * because glyphs are picked per character without shaping: "e" + combining accent becomes "é".
 */
const clean = (text: string) => text.normalize("NFC").replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, " ");

/** Lines of at most `width`; breaks at spaces, and inside words that alone are too long. */
export function wrap(text: string, style: Style, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of clean(text).split("\n")) {
    let line = "";
    for (const word of paragraph.split(/ +/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (textWidth(candidate, style.font, style.size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = word;
      while (textWidth(line, style.font, style.size) > width) {
        const cut = fittingPrefix(line, style, width);
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    lines.push(line);
  }
  return lines;
}

/**
 * The longest prefix (in UTF-16 units, never splitting a code point) that fits the width, at least
 * one character. A prefix's width grows with its length, so a binary search finds it: a caller's
 * unbroken word of thousands of characters must not cost a width measure per character per line.
 */
function fittingPrefix(word: string, style: Style, width: number): number {
  const chars = Array.from(word);
  const fits = (n: number) => textWidth(chars.slice(0, n).join(""), style.font, style.size) <= width;
  let lo = 1;
  let hi = chars.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return chars.slice(0, lo).join("").length;
}

export const leading = (style: Style) => style.size * 1.3;

const currentFont = new WeakMap<PDFPage, PDFFont>();

/**
 * Draws one string with its baseline at y. pdf-lib adds a font resource to the page on every font
 * switch, twice per `drawText` that names a font; switching only when the font changes kept a
 * 300-line invoice at half the size.
 */
export function drawString(page: PDFPage, text: string, x: number, y: number, style: Style): void {
  if (currentFont.get(page) !== style.font) {
    page.setFont(style.font);
    currentFont.set(page, style.font);
  }
  page.drawText(text, { x, y, size: style.size, color: style.color ?? INK });
}

interface FlowOptions {
  size?: [number, number];
  margin: { top: number; right: number; bottom: number; left: number };
  /** Runs on every new page before anything else is drawn (the test-key watermark). */
  underlay?: (page: PDFPage) => void;
}

export class Flow {
  readonly pages: PDFPage[] = [];
  page!: PDFPage;
  y = 0;
  /** Drawn at the top of each page opened while set, e.g. a table header. */
  continuation?: () => void;

  constructor(
    private readonly doc: PDFDocument,
    readonly options: FlowOptions,
  ) {
    this.newPage();
  }

  get left(): number {
    return this.options.margin.left;
  }
  get right(): number {
    return this.page.getWidth() - this.options.margin.right;
  }
  get width(): number {
    return this.right - this.left;
  }
  get bottom(): number {
    return this.options.margin.bottom;
  }
  /** Height of the writable area of a page. */
  get pageHeight(): number {
    return this.page.getHeight() - this.options.margin.top - this.options.margin.bottom;
  }

  newPage(): void {
    this.page = this.doc.addPage(this.options.size ?? A4);
    this.pages.push(this.page);
    this.options.underlay?.(this.page);
    this.y = this.page.getHeight() - this.options.margin.top;
    this.continuation?.();
  }

  /** Opens a new page unless `height` still fits on this one. */
  ensure(height: number): void {
    if (this.y - height < this.bottom) this.newPage();
  }

  /** Whole lines of `style` that still fit on this page. */
  linesLeft(style: Style): number {
    return Math.floor((this.y - this.bottom) / leading(style));
  }

  /** Draws one line with its baseline a line height below the cursor; does not move it. */
  text(text: string, x: number, style: Style, align: "left" | "right" = "left", dy = 0): void {
    const at = align === "right" ? x - textWidth(text, style.font, style.size) : x;
    drawString(this.page, text, at, this.y - dy - style.size, style);
  }

  /** Wrapped paragraph across the full width (or from `x` to the right margin), moving the cursor. */
  paragraph(text: string, style: Style, x = this.left): void {
    for (const line of wrap(text, style, this.right - x)) {
      this.ensure(leading(style));
      this.text(line, x, style);
      this.y -= leading(style);
    }
  }

  rule(y = this.y, color: Color = RULE, thickness = 0.5): void {
    this.page.drawLine({ start: { x: this.left, y }, end: { x: this.right, y }, thickness, color });
  }
}
