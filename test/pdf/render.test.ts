// Language, number and date formatting of the visible pages, and the line wrapping they rely on.

import { describe, expect, test } from "bun:test";
import { PDFDocument } from "pdf-lib";
import { embedFonts } from "../../src/pdf/fonts.ts";
import { formatAmount, formatDate, formatNumber } from "../../src/pdf/format.ts";
import { languageFor } from "../../src/pdf/labels.ts";
import { textWidth, wrap } from "../../src/pdf/layout.ts";

describe("language of the page", () => {
  test("seller country picks the labels; other countries read English", () => {
    expect(languageFor("DE").labels.invoice).toBe("Rechnung");
    expect(languageFor("FR").labels.invoice).toBe("Facture");
    expect(languageFor("IT").labels.invoice).toBe("Fattura");
    expect(languageFor("ES").labels.invoice).toBe("Factura");
    expect(languageFor("NL").labels.invoice).toBe("Factuur");
    expect(languageFor("RO").labels.invoice).toBe("Factură");
    for (const country of ["BE", "AT", "PL", "GB", "xx"]) expect(languageFor(country).labels.invoice).toBe("Invoice");
  });

  test("every language labels everything English does", () => {
    const keys = Object.keys(languageFor("GB").labels).sort();
    for (const country of ["DE", "FR", "IT", "ES", "NL", "RO"]) {
      const labels = languageFor(country).labels;
      expect(Object.keys(labels).sort()).toEqual(keys);
      for (const value of Object.values(labels)) expect(value.trim()).not.toBe("");
    }
  });

  test("amounts: decimal comma outside English, grouping, at least two decimals, exact", () => {
    expect(formatAmount("1234567.5", languageFor("DE"))).toBe("1.234.567,50");
    expect(formatAmount("1234.5", languageFor("FR"))).toBe("1 234,50");
    expect(formatAmount("-0.125", languageFor("RO"))).toBe("-0,125");
    expect(formatAmount("1234.5", languageFor("GB"))).toBe("1,234.50");
    expect(formatAmount("100000000000000000.01", languageFor("NL"))).toBe("100.000.000.000.000.000,01");
    expect(formatAmount("", languageFor("DE"))).toBe("");
    expect(formatNumber("19.00", languageFor("IT"))).toBe("19");
    expect(formatNumber("2.50", languageFor("ES"))).toBe("2,5");
  });

  test("dates in the language's order", () => {
    expect(formatDate("2025-03-14", languageFor("DE"))).toBe("14.03.2025");
    expect(formatDate("2025-03-14", languageFor("FR"))).toBe("14/03/2025");
    expect(formatDate("2025-03-14", languageFor("NL"))).toBe("14-03-2025");
    expect(formatDate("2025-03-14", languageFor("GB"))).toBe("2025-03-14");
  });
});

describe("wrapping", async () => {
  const doc = await PDFDocument.create();
  const { regular } = await embedFonts(doc);
  const style = { font: regular, size: 9 };

  test("lines fit the width, words stay whole where they can, nothing is lost", () => {
    const text = "Installation and configuration of the warehouse management system, Straße Łódź Győr ș";
    const lines = wrap(text, style, 120);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(textWidth(line, regular, 9)).toBeLessThanOrEqual(120);
    expect(lines.join(" ")).toBe(text);
  });

  test("a word longer than the width is broken; paragraphs and control characters are handled", () => {
    const word = "Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichen";
    const lines = wrap(word, style, 60);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join("")).toBe(word);
    expect(wrap("first\nsecond\tthird", style, 500)).toEqual(["first", "second third"]);
    expect(wrap("", style, 100)).toEqual([""]);
  });

  test("an unbroken caller word of thousands of characters costs a few width measures per line, not one per character", async () => {
    const own = await embedFonts(await PDFDocument.create());
    let measures = 0;
    const measure = own.regular.widthOfTextAtSize.bind(own.regular);
    own.regular.widthOfTextAtSize = (text: string, size: number) => (measures++, measure(text, size));
    const word = "Zahlungsreferenz".repeat(250);
    const lines = wrap(word, { font: own.regular, size: 9 }, 60);
    expect(lines.join("")).toBe(word);
    for (const line of lines) expect(textWidth(line, own.regular, 9)).toBeLessThanOrEqual(60);
    expect(measures).toBeLessThan(lines.length * 40);
  });
});
