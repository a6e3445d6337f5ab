// Hostile PDFs under the body limit that ask for gigabytes or minutes: each is refused (or, for a
// metadata stream, read as unreadable) quickly and without the memory it asks for. Peak memory is
// the process's high-water mark (maxRSS), so an allocation freed before the check still counts.

import { describe, expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { PDF_LIMITS, SHARED_OBJECT_NUMBERS } from "../../src/pdf/budget.ts";
import { extractInvoiceXml, type PdfExtraction } from "../../src/pdf/attachments.ts";
import { recordById } from "../../src/profiles/lookup.ts";
import { hybridFindings } from "../../src/validation/hybrid-rules.ts";
import { validateDocument, type Engine } from "../../src/validation/validate.ts";
import { flate, hybridPdf, objectStream, rawPdf, zeros } from "./raw-pdf.ts";

const XML = `<?xml version="1.0"?><rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>`;
const INVOICE = { dict: "", data: new TextEncoder().encode(XML) };
const MIB = 1024 * 1024;
/** Inflates to a quarter of a gibibyte, sixteen times the document budget. */
const BOMB = zeros(256 * MIB);
/** The same, compressed twice: inflating it once gives the bomb above. */
const DOUBLE_BOMB = flate(BOMB);
// Zeros are white space to a PDF parser: an object stream of them holds nothing, and still
// inflates before pdf-lib finds that out.
const OBJECT_STREAM_BOMB = { dict: "/Type /ObjStm /N 1 /First 0 /Filter /FlateDecode", data: BOMB };

async function measured(work: () => Promise<PdfExtraction>): Promise<{ x: PdfExtraction; ms: number; peakGrowthMiB: number }> {
  // Earlier tests' garbage is collected first, so the growth measured is this read's own, not a
  // heap that had no room left (the file runs in one process with the rest of the suite).
  Bun.gc(true);
  const peak = process.resourceUsage().maxRSS;
  const start = performance.now();
  const x = await work();
  return { x, ms: performance.now() - start, peakGrowthMiB: (process.resourceUsage().maxRSS - peak) / 1024 };
}

async function expectRefused(pdf: Uint8Array, message: string | RegExp, options = {}) {
  const { x, ms, peakGrowthMiB } = await measured(() => extractInvoiceXml(pdf, options));
  expect(x).toMatchObject({ ok: false, reason: "over-budget", message: expect.stringMatching(message) });
  expect(ms).toBeLessThan(5_000);
  expect(peakGrowthMiB).toBeLessThan(64);
}

describe("decompression bombs are stopped before the bytes exist", () => {
  test("a double FlateDecode chain on the invoice XML", async () => {
    const pdf = hybridPdf({ dict: "/Filter [/FlateDecode /FlateDecode]", data: DOUBLE_BOMB });
    expect(pdf.byteLength).toBeLessThan(4_000);
    await expectRefused(pdf, /would inflate past (16 MiB|8 MiB, the most an invoice XML may be)/);
  });

  test("FlateDecode with /DecodeParms", async () => {
    await expectRefused(hybridPdf({ dict: "/Filter /FlateDecode /DecodeParms << /Columns 1 >>", data: BOMB }), /would inflate past (16 MiB|8 MiB, the most an invoice XML may be)/);
  });

  test("an object stream, which pdf-lib inflates while it loads the file", async () => {
    await expectRefused(hybridPdf(INVOICE, { extra: [OBJECT_STREAM_BOMB] }), /would inflate past 16 MiB/);
  });

  test("many small streams share one budget", async () => {
    const piece = { dict: "/Type /ObjStm /N 0 /First 0 /Filter /FlateDecode", data: flate(new Uint8Array(4 * MIB)) };
    const streams = Array.from({ length: 8 }, () => piece);
    await expectRefused(hybridPdf(INVOICE, { extra: streams }), /would inflate past 16 MiB/);
  });

  test("the XMP packet: a stream past its own cap is reported unreadable, and the invoice is still judged", async () => {
    const pdf = hybridPdf(INVOICE, { metadata: { dict: "/Filter [/FlateDecode /FlateDecode]", data: DOUBLE_BOMB } });
    const { x, ms, peakGrowthMiB } = await measured(() => extractInvoiceXml(pdf));
    if (!x.ok) throw new Error(x.message);
    expect(x.xmp).toBeUndefined();
    expect(x.xmpProblem).toContain("decodes to more than 1,048,576 bytes");
    expect(ms).toBeLessThan(5_000);
    expect(peakGrowthMiB).toBeLessThan(64);
    const findings = hybridFindings(x, recordById("cii:facturx:en16931"));
    expect(findings.find((f) => f.ruleId === "BR-HYBRID-02")?.message).toContain("the XMP metadata stream could not be decoded");
  });

  test("a cross-reference stream is never inflated (pdf-lib keeps only its trailer entries)", async () => {
    const xref = { dict: "/Type /XRef /Size 100000000 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode", data: BOMB };
    const { x, ms, peakGrowthMiB } = await measured(() => extractInvoiceXml(hybridPdf(INVOICE, { extra: [xref] })));
    expect(x).toMatchObject({ ok: true, name: "factur-x.xml" });
    expect(ms).toBeLessThan(5_000);
    expect(peakGrowthMiB).toBeLessThan(64);
  });
});

describe("the structure is bounded too", () => {
  test("an object stream of tiny objects", async () => {
    const objects = Array.from({ length: PDF_LIMITS.objects }, () => "null");
    const stream = objectStream(objects, 6);
    expect(stream.data.byteLength).toBeLessThan(1024 * 1024);
    await expectRefused(hybridPdf(INVOICE, { extra: [stream] }), /more than 200,000 objects/);
  });

  test("one array of many numbers", async () => {
    await expectRefused(rawPdf(["<< /Type /Catalog >>", `[${"0 ".repeat(PDF_LIMITS.objects)}]`]), /more than 200,000 objects/);
  });

  test("arrays nested deeper than the limit", async () => {
    await expectRefused(rawPdf(["<< /Type /Catalog >>", `${"[".repeat(10_000)}${"]".repeat(10_000)}`]), /nests arrays and dictionaries more than 64 levels/);
  });

  test("dictionaries nested deeper than the limit, inside an object stream", async () => {
    const deep = `${"<< /A ".repeat(100)}1${" >>".repeat(100)}`;
    await expectRefused(hybridPdf(INVOICE, { extra: [objectStream([deep], 6)] }), /more than 64 levels/);
  });

  test("more streams than the limit", async () => {
    const empty = { dict: "", data: new Uint8Array(0) };
    await expectRefused(hybridPdf(empty, { extra: Array.from({ length: 20 }, () => empty) }), /more than 10 streams/, { streams: 10 });
  });

  test("distinct names past the limit, and a name past the length PDF allows", async () => {
    const names = Array.from({ length: PDF_LIMITS.names + 1 }, (_, i) => `/n${i}`).join(" ");
    await expectRefused(rawPdf(["<< /Type /Catalog >>", `[${names}]`]), /more than 4,000 distinct names/);
    await expectRefused(rawPdf(["<< /Type /Catalog >>", `/${"n".repeat(500_000)}`]), /a name longer than 127 bytes/);
  });

  test("object numbers outside the range every document shares, in references and in headers", async () => {
    const high = (i: number) => SHARED_OBJECT_NUMBERS + i;
    const references = Array.from({ length: PDF_LIMITS.references + 1 }, (_, i) => `${high(i)} 0 R`).join(" ");
    await expectRefused(rawPdf(["<< /Type /Catalog >>", `[${references}]`]), /more than 1,000 object numbers of 50,000 or more/);
    const headers = Array.from({ length: PDF_LIMITS.references + 1 }, (_, i) => `${high(i)} 0 obj null endobj\n`).join("");
    await expectRefused(new TextEncoder().encode(`%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n${headers}trailer << /Root 1 0 R >>\n`), /object numbers of 50,000 or more/);
    // The shared range is free: a thousand and one references below it are read.
    const shared = Array.from({ length: PDF_LIMITS.references + 1 }, (_, i) => `${i + 10} 0 R`).join(" ");
    expect(await extractInvoiceXml(rawPdf(["<< /Type /Catalog >>", `[${shared}]`]))).toMatchObject({ reason: "no-invoice-xml" });
  });

  // pdf-lib keeps every name and reference it meets for the life of the process: before the
  // budget, each of these documents left tens of MiB behind in the worker that read it.
  test("what a document can leave behind in the process is bounded", async () => {
    const documents = Array.from({ length: 6 }, (_, d) => {
      const tag = `${d}${Date.now().toString(36)}`;
      const base = 1_000_000 * (d + 1) + (Date.now() % 1_000_000);
      const entries = Array.from({ length: 40_000 }, (_, i) => `${String(i).padStart(10, "0")} 00000 n \n`).join("");
      return [
        rawPdf(["<< /Type /Catalog >>", `[${Array.from({ length: 60_000 }, (_, i) => `/${tag}x${i}`).join(" ")}]`]),
        rawPdf(["<< /Type /Catalog >>", `[${Array.from({ length: 60_000 }, (_, i) => `${base + i} 0 R`).join(" ")}]`]),
        // A cross-reference table whose entries name objects no document has.
        new TextEncoder().encode(`%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\nxref\n${base} 40000\n${entries}trailer << /Root 1 0 R >>\n%%EOF\n`),
      ];
    });
    Bun.gc(true);
    const before = heapStats().heapSize;
    for (const pdfs of documents) for (const pdf of pdfs) await extractInvoiceXml(pdf);
    Bun.gc(true);
    expect((heapStats().heapSize - before) / MIB).toBeLessThan(32);
  });

  test("a file whose damage makes the parser rescan it is given up at the deadline", async () => {
    // Every object opens a stream that never ends: each one sends pdf-lib to the end of the file.
    const objects = Array.from({ length: 20_000 }, (_, i) => `${i + 2} 0 obj << >> stream\nendobj\n`).join("");
    const pdf = new TextEncoder().encode(`%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n${objects}trailer << /Root 1 0 R >>\n%%EOF\n`);
    const start = performance.now();
    const x = await extractInvoiceXml(pdf, { timeMs: 300 });
    expect(x).toMatchObject({ ok: false, reason: "over-budget", message: expect.stringContaining("took longer than 0.3 s") });
    expect(performance.now() - start).toBeLessThan(3_000);
  });
});

describe("what is still read", () => {
  test("a hybrid whose catalog and file specification sit in an object stream", async () => {
    const pdf = rawPdf([
      // Object 1 is the stream; the catalog inside it takes its number, as the trailer expects.
      objectStream(["<< /Type /Catalog /Pages 3 0 R /Names << /EmbeddedFiles << /Names [(factur-x.xml) 4 0 R] >> >> /AF [4 0 R] >>"], 1),
      "null",
      "<< /Type /Pages /Kids [] /Count 0 >>",
      "<< /Type /Filespec /F (factur-x.xml) /AFRelationship /Data /EF << /F 5 0 R >> >>",
      { dict: "/Type /EmbeddedFile /Subtype /text#2Fxml /Filter [/ASCIIHexDecode /FlateDecode]", data: new TextEncoder().encode(`${Buffer.from(flate(XML)).toString("hex")}>`) },
    ]);
    const x = await extractInvoiceXml(pdf);
    if (!x.ok) throw new Error(x.message);
    expect(new TextDecoder().decode(x.xml)).toBe(XML);
    expect(x.attachments).toEqual([{ name: "factur-x.xml", relationship: "Data", mimeType: "text/xml", inEmbeddedFiles: true, inAssociatedFiles: true }]);
  });

  test("filters and predictors that are not read are refused by name", async () => {
    const dct = await extractInvoiceXml(hybridPdf({ dict: "/Filter /DCTDecode", data: new Uint8Array(8) }));
    expect(dct).toMatchObject({ ok: false, reason: "unreadable-pdf", message: expect.stringContaining("the /DCTDecode filter, which is not read here") });
    const png = await extractInvoiceXml(hybridPdf({ dict: "/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 4 >>", data: flate(XML) }));
    expect(png).toMatchObject({ ok: false, reason: "unreadable-pdf", message: expect.stringContaining("/Predictor 12, which is not read here") });
  });
});

describe("validate answers a refusal, not a verdict", () => {
  // Nothing past the PDF reading runs for these documents: the engine is never asked.
  const engine = { schematron: { release() {} } } as unknown as Engine;

  test("an object-stream bomb next to a good invoice", async () => {
    const outcome = await validateDocument(engine, { bytes: hybridPdf(INVOICE, { extra: [OBJECT_STREAM_BOMB] }) });
    expect(outcome).toMatchObject({ ok: false, message: expect.stringContaining("the PDF's compressed streams would inflate past 16 MiB") });
  });
});
