// Stored template designs on the standard page: logo, accent colour, footer text, language, blocks
// left out; and the logo checks that keep the PDF/A output free of transparency. Images are made
// here from bytes (PNG with node:zlib, a 24 x 12 JPEG written by pdftoppm, inlined).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream } from "pdf-lib";
import { generateXml } from "../../src/generate/generate.ts";
import type { InvoiceInput } from "../../src/invoice/schema.ts";
import { recordById } from "../../src/profiles/lookup.ts";
import { writeHybridPdf } from "../../src/pdf/hybrid.ts";
import { decodeLogo, MAX_LOGO_BYTES } from "../../src/pdf/logo.ts";
import { DomainError } from "../../src/errors/domain-error.ts";
import { writeVisualizationPdf } from "../../src/pdf/visualization.ts";
import { readCii } from "../../src/syntax/cii/read.ts";
import type { TemplateDefinitionInput } from "../../src/pdf/design.ts";
import { PDF_CASES } from "./fixtures.ts";
import { lacking, pageTexts, run, scratch } from "./tools.ts";
import { chunk, png } from "./images.ts";

// --- images from bytes -----------------------------------------------------------------------------


/** A 240 x 80 RGB logo: a blue block with a white bar, then a red square. */
const LOGO = png({
  width: 240,
  height: 80,
  colourType: 2,
  pixel: (x, y) => (x < 160 ? (y > 30 && y < 50 && x > 20 && x < 140 ? [255, 255, 255] : [31, 78, 121]) : x > 180 && x < 230 && y > 15 && y < 65 ? [200, 40, 40] : [235, 235, 235]),
});
const ALPHA = png({ width: 8, height: 8, colourType: 6, pixel: (x) => [31, 78, 121, x * 30] });
const GREY_ALPHA = png({ width: 8, height: 8, colourType: 4, pixel: () => [128, 255] });

/** 24 x 12 pixels, baseline, 3 components (pdftoppm -jpeg of a red and blue rectangle). */
const JPEG = new Uint8Array(
  Buffer.from(
    "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDABQODxIPDRQSEBIXFRQYHjIhHhwcHj0sLiQySUBMS0dARkVQWnNiUFVtVkVGZIhlbXd7gYKBTmCNl4x9lnN+gXz/2wBDARUXFx4aHjshITt8U0ZTfHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHz/wAARCAAMABgDASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAAAAEF/8QAFRABAQAAAAAAAAAAAAAAAAAAAAH/xAAWAQEBAQAAAAAAAAAAAAAAAAAFAgb/xAAbEQABBAMAAAAAAAAAAAAAAAAAAgSBsQEzNP/aAAwDAQACEQMRAD8AyyhUtNyZoWfc6ovBADxmz//Z",
    "base64",
  ),
);
/** Offset of the JPEG's SOF0 segment (FF C0). */
const SOF = JPEG.findIndex((b, i) => b === 0xff && JPEG[i + 1] === 0xc0);

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const patched = (bytes: Uint8Array, at: number, values: number[]) => {
  const copy = new Uint8Array(bytes);
  copy.set(values, at);
  return copy;
};

// --- invoices ----------------------------------------------------------------------------------------

const base = PDF_CASES[0].invoice; // German seller
const rate = base.lines[0].vatRate!;

/** Sixty lines with item ids (three pages), a delivery address, notes and payment details. */
function germanInvoice(): InvoiceInput {
  const lines = Array.from({ length: 60 }, (_, i) => ({
    description: `Article ${i + 1}: replacement part`,
    quantity: 2,
    unitCode: "C62",
    unitPrice: 10 + i,
    lineTotal: 2 * (10 + i),
    vatRate: rate,
    vatCategoryCode: "S" as const,
    itemId: `ART-${String(i + 1).padStart(4, "0")}`,
  }));
  const net = lines.reduce((s, l) => s + l.lineTotal * 100, 0);
  const tax = Math.round((net * rate) / 100);
  return {
    ...base,
    number: "DESIGN-001",
    note: "Vielen Dank für Ihren Auftrag.",
    delivery: { date: "2025-03-10", partyName: "Lager Nord", address: { street: "Hafenstraße 5", city: "Hamburg", postalCode: "20457", countryCode: "DE" } },
    lines,
    taxSummary: [{ vatCategoryCode: "S", vatRate: rate, taxableAmount: net / 100, taxAmount: tax / 100 }],
    totalNetAmount: net / 100,
    totalTaxAmount: tax / 100,
    totalGrossAmount: (net + tax) / 100,
  };
}

const INVOICE = germanInvoice();
const XML = generateXml({ standard: "xrechnung", invoice: INVOICE } as Parameters<typeof generateXml>[0], { livemode: true }).bytes;
const MODEL = readCii(XML);
const NOW = new Date("2025-03-14T10:00:00Z");

const FOOTER =
  "Muster Handels GmbH · Geschäftsführer: Erika Mustermann · Amtsgericht München HRB 123456 · Sitz München · Bankverbindung Commerzbank München · Es gelten unsere Allgemeinen Geschäftsbedingungen.";

const FULL: TemplateDefinitionInput = {
  logo: { mediaType: "image/png", data: b64(LOGO), widthMm: 50 },
  accentColor: "#1F4E79",
  footerText: FOOTER,
  language: "fr",
  show: { notes: true, paymentDetails: true, itemIds: true, delivery: true },
};

const visualize = (design?: TemplateDefinitionInput, livemode = true) =>
  writeVisualizationPdf({ xml: XML, model: MODEL, livemode, template: "standard", design, now: NOW });

const tmp = scratch();
afterAll(() => tmp.remove());

/** Page content streams, decoded, one string per page. */
async function contents(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().map((page) => {
    const streams: PDFRawStream[] = [];
    const c = page.node.Contents();
    if (c instanceof PDFRawStream) streams.push(c);
    else if (c instanceof PDFArray) for (let i = 0; i < c.size(); i++) streams.push(c.lookup(i) as PDFRawStream);
    return streams.map((s) => new TextDecoder("latin1").decode(decodePDFRawStream(s).decode())).join("\n");
  });
}

// --- the logo check -------------------------------------------------------------------------------------

/** A logo as a stored definition carries it, checked the way both the store and the renderer check it. */
const checkLogo = (mediaType: string, bytes: Uint8Array) => decodeLogo({ mediaType, data: b64(bytes) });

describe("the logo check", () => {
  test("accepts opaque PNGs of every colour type and depth, interlaced or not, and RGB/grey JPEGs", () => {
    expect(checkLogo("image/png", LOGO)).toMatchObject({ ok: true, width: 240, height: 80 });
    expect(checkLogo("image/png", png({ width: 5, height: 3, colourType: 0, pixel: () => [128] }))).toMatchObject({ ok: true });
    expect(checkLogo("image/png", png({ width: 5, height: 3, colourType: 3, pixel: (x) => [x % 3] }))).toMatchObject({ ok: true });
    expect(checkLogo("image/png", png({ width: 5, height: 3, colourType: 2, depth: 16, pixel: () => [10, 20, 30] }))).toMatchObject({ ok: true });
    expect(checkLogo("image/png", png({ width: 13, height: 11, colourType: 2, interlaced: true, pixel: (x, y) => [x * 9, y * 9, 99] }))).toMatchObject({ ok: true, width: 13 });
    expect(checkLogo("image/jpeg", JPEG)).toMatchObject({ ok: true, width: 24, height: 12 });
    expect(checkLogo("image/jpeg", patched(JPEG, SOF + 9, [1]))).toMatchObject({ ok: true }); // the header of a grey one
  });

  test("refuses an alpha channel (colour types 4 and 6) and tRNS transparency, saying what to do", () => {
    for (const [bytes, type] of [
      [ALPHA, 6],
      [GREY_ALPHA, 4],
    ] as const) {
      const check = checkLogo("image/png", bytes);
      expect(check.ok).toBe(false);
      if (check.ok) continue;
      expect(check.message).toContain(`alpha channel (colour type ${type}`);
      expect(check.message).toContain("PDF/A");
      expect(check.message).toContain("JPEG");
    }
    const trns = png({ width: 4, height: 4, colourType: 3, pixel: () => [0], extra: [chunk("tRNS", new Uint8Array([0]))] });
    expect(checkLogo("image/png", trns)).toMatchObject({ ok: false, message: expect.stringContaining("tRNS") });
  });

  test("refuses damaged, truncated, oversized, and unsupported images", () => {
    const problem = (type: string, bytes: Uint8Array) => {
      const c = checkLogo(type, bytes);
      return c.ok ? "accepted" : c.message;
    };
    expect(problem("image/png", LOGO.subarray(0, LOGO.length - 20))).toContain("truncated");
    expect(problem("image/png", patched(LOGO, 40, [LOGO[40] ^ 0xff]))).toContain("checksum");
    expect(problem("image/png", JPEG)).toContain("not a PNG");
    expect(problem("image/jpeg", LOGO)).toContain("not a JPEG");
    expect(problem("image/gif", LOGO)).toContain("not supported");
    expect(problem("image/png", new Uint8Array())).toContain("empty");
    expect(problem("image/png", new Uint8Array(MAX_LOGO_BYTES + 1))).toContain(`at most ${MAX_LOGO_BYTES}`);
    // Image data that does not fit the header: too little, or a decompression bomb.
    expect(problem("image/png", png({ width: 3, height: 3, colourType: 0, pixel: () => [0], data: Buffer.alloc(8) }))).toContain("has 8 bytes where its header needs 12");
    expect(problem("image/png", png({ width: 3, height: 3, colourType: 0, pixel: () => [0], data: Buffer.alloc(50_000_000) }))).toContain("does not decompress");
    expect(problem("image/png", png({ width: 5000, height: 1, colourType: 0, depth: 1, pixel: () => [] }))).toContain("5000 x 1 pixels");
    // JPEG frame variants, patched into the SOF0 segment.
    expect(problem("image/jpeg", patched(JPEG, SOF + 9, [4]))).toContain("CMYK");
    expect(problem("image/jpeg", patched(JPEG, SOF + 4, [12]))).toContain("12-bit");
    expect(problem("image/jpeg", patched(JPEG, SOF + 1, [0xc9]))).toContain("arithmetic");
    expect(problem("image/jpeg", patched(JPEG, SOF + 1, [0xc3]))).toContain("lossless");
    expect(problem("image/jpeg", JPEG.subarray(0, 40))).toContain("truncated");
  });

  test("every accepted PNG kind is drawn opaque (no soft mask) by the PDF writer", async () => {
    const kinds = [
      png({ width: 5, height: 3, colourType: 0, pixel: () => [128] }),
      png({ width: 6, height: 2, colourType: 0, depth: 1, pixel: () => [0b10100000] }),
      png({ width: 5, height: 3, colourType: 3, pixel: (x) => [x % 3] }),
      png({ width: 5, height: 3, colourType: 2, depth: 16, pixel: () => [10, 20, 30] }),
      png({ width: 13, height: 11, colourType: 2, interlaced: true, pixel: (x, y) => [x * 9, y * 9, 99] }),
    ];
    for (const bytes of kinds) {
      expect(checkLogo("image/png", bytes)).toMatchObject({ ok: true });
      const doc = await PDFDocument.create();
      const image = await doc.embedPng(bytes);
      doc.addPage().drawImage(image, { x: 0, y: 0, width: 50, height: 30 });
      expect(Buffer.from(await doc.save()).includes("/SMask")).toBe(false);
    }
  });

  test("decodeLogo reads base64 strictly", () => {
    expect(decodeLogo({ mediaType: "image/png", data: b64(LOGO) })).toMatchObject({ ok: true, width: 240, height: 80 });
    expect(decodeLogo({ mediaType: "image/png", data: `${b64(LOGO)}!` })).toEqual({ ok: false, message: "logo data is not valid base64" });
  });
});

// --- the designed page -----------------------------------------------------------------------------------

describe("a design on the standard page", () => {
  let full: Uint8Array;
  let fullPath: string;
  beforeAll(async () => {
    full = await visualize(FULL);
    fullPath = tmp.write("design-full.pdf", full);
  });

  test("renders; deterministic bytes; a template-less design equals the standard template", async () => {
    expect(Buffer.from(await visualize(FULL)).equals(Buffer.from(full))).toBe(true);
    const standard = await visualize(undefined);
    expect(Buffer.from(await visualize({})).equals(Buffer.from(standard))).toBe(true);
    const implied = await writeVisualizationPdf({ xml: XML, model: MODEL, livemode: true, design: {}, now: NOW });
    expect(Buffer.from(implied).equals(Buffer.from(standard))).toBe(true);
    expect(Buffer.from(full).includes("/SMask")).toBe(false);
  });

  test.skipIf(lacking("pdfimages"))("the logo is the one image: opaque RGB, 50 mm wide, aspect kept", () => {
    const rows = run(["pdfimages", "-list", fullPath]).trim().split("\n").slice(2);
    expect(rows.length).toBe(1);
    const [page, , type, width, height, color, , , , , , , xppi, yppi] = rows[0].trim().split(/\s+/);
    expect([page, type, width, height, color]).toEqual(["1", "image", "240", "80", "rgb"]);
    // 240 pixels over 50 mm is 122 ppi, in both directions.
    expect(Number(xppi)).toBeCloseTo(122, 0);
    expect(Number(yppi)).toBeCloseTo(122, 0);
  });

  test.skipIf(lacking("pdfimages"))("a tall logo is shrunk to 30 mm high, aspect kept", async () => {
    const tall = png({ width: 10, height: 100, colourType: 0, pixel: () => [60] });
    const path = tmp.write("design-tall.pdf", await visualize({ logo: { mediaType: "image/png", data: b64(tall) } }));
    const cells = run(["pdfimages", "-list", path]).trim().split("\n")[2].trim().split(/\s+/);
    // 100 pixels over 30 mm, both ways: 84.7 ppi.
    expect(Number(cells[12])).toBeCloseTo(85, 0);
    expect(Number(cells[13])).toBeCloseTo(85, 0);
  });

  test("the accent colour fills headings and table headers and strokes the rules", async () => {
    const pages = await contents(full);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]).toContain("0.122 0.306 0.475 rg");
    expect(pages[0]).toContain("0.122 0.306 0.475 RG");
    expect(pages[0]).toMatch(/0\.895 0\.917 0\.937 rg\n(?:[^\n]*\n){1,12}?f\n/); // the tinted table-header band, filled
    const plain = await contents(await visualize(undefined));
    expect(plain.join("\n")).not.toContain("0.122 0.306 0.475");
  });

  test.skipIf(lacking("pdftotext"))("footer text on every page, French labels for a German seller, every block shown", () => {
    const pages = pageTexts(fullPath);
    expect(pages.length).toBeGreaterThan(1);
    const footer = FOOTER.replace(/\s+/g, "");
    for (const [i, page] of pages.entries()) {
      expect(page).toContain(footer);
      expect(page).toContain(`Page${i + 1}sur${pages.length}`);
    }
    const all = pages.join("");
    expect(pages[0]).toContain("Facture");
    expect(all).not.toContain("Rechnung");
    expect(all).toContain("DétaildelaTVA");
    for (const shown of ["Paiement", "IBAN", "Notes", "VielenDank", "#ART-0001", "#ART-0060", "Datedelivraison", "Adressedelivraison", "LagerNord", "Hafenstraße5"]) expect(all).toContain(shown);
  });

  test.skipIf(lacking("pdftotext"))("show toggles leave out notes, payment details, item ids, delivery", async () => {
    const design = { ...FULL, show: { notes: false, paymentDetails: false, itemIds: false, delivery: false } };
    const all = pageTexts(tmp.write("design-hidden.pdf", await visualize(design))).join("");
    expect(all).toContain("Article1:replacementpart");
    for (const hidden of ["Paiement", "IBAN", "Conditionsdepaiement", "Notes", "VielenDank", "#ART-", "Datedelivraison", "Adressedelivraison", "LagerNord", "Hafenstraße"]) expect(all).not.toContain(hidden);
    // One at a time: each toggle takes only its own block.
    const one = pageTexts(tmp.write("design-notes.pdf", await visualize({ ...FULL, show: { notes: false } }))).join("");
    expect(one).not.toContain("VielenDank");
    expect(one).toContain("Paiement");
    expect(one).toContain("#ART-0001");
    expect(one).toContain("LagerNord");
  });

  test.skipIf(lacking("qpdf", "pdffonts", "pdfimages", "pdftotext"))("qpdf clean, fonts all embedded, as a hybrid with a JPEG logo too", async () => {
    const generated = generateXml({ standard: "facturx", profile: "en16931", invoice: INVOICE } as Parameters<typeof generateXml>[0], { livemode: false });
    const hybridXml = generated.bytes;
    const hybrid = await writeHybridPdf({
      xml: hybridXml,
      model: readCii(hybridXml),
      record: recordById(generated.record),
      livemode: false,
      template: "standard",
      design: { logo: { mediaType: "image/jpeg", data: b64(JPEG) }, accentColor: "#C8102E", footerText: "Kurz.", language: "de" },
      now: NOW,
    });
    for (const [name, pdf] of [
      ["design-check.pdf", full],
      ["design-hybrid.pdf", hybrid],
    ] as const) {
      const path = tmp.write(name, pdf);
      expect(run(["qpdf", "--check", path])).toContain("No syntax or stream encoding errors found");
      for (const line of run(["pdffonts", path]).trim().split("\n").slice(2)) expect(line).toMatch(/^[A-Z]{6}\+DejaVuSans(-Bold)?\s.*yes yes yes/);
      expect(Buffer.from(pdf).includes("/SMask")).toBe(false);
    }
    const rows = run(["pdfimages", "-list", tmp.write("design-hybrid.pdf", hybrid)]).trim().split("\n").slice(2);
    expect(rows.length).toBe(1);
    expect(rows[0]).toMatch(/^\s*1\s+0\s+image\s+24\s+12\s+rgb\s+3\s+8\s+jpeg/);
    const texts = pageTexts(tmp.write("design-hybrid.pdf", hybrid));
    for (const page of texts) expect(page).toContain("Kurz.");
    expect(texts[0]).toContain("Rechnung");
  });

  test("the renderer refuses an alpha PNG, a damaged image and bad base64 with PDF_TEMPLATE_INVALID", async () => {
    const refused = async (design: TemplateDefinitionInput) => {
      try {
        await visualize(design);
      } catch (error) {
        expect(error).toBeInstanceOf(DomainError);
        expect(error).toMatchObject({ status: 422, code: "PDF_TEMPLATE_INVALID" });
        return (error as Error).message;
      }
      return "rendered";
    };
    expect(await refused({ logo: { mediaType: "image/png", data: b64(ALPHA) } })).toContain("alpha channel");
    expect(await refused({ logo: { mediaType: "image/png", data: b64(GREY_ALPHA) } })).toContain("alpha channel");
    expect(await refused({ logo: { mediaType: "image/jpeg", data: b64(LOGO) } })).toContain("not a JPEG");
    expect(await refused({ logo: { mediaType: "image/png", data: "not base64!" } })).toContain("base64");
    expect(await refused({ accentColor: "blue" })).toContain("accentColor");
  });
});
