import { describe, expect, test } from "bun:test";
import { AFRelationship, PDFDocument } from "pdf-lib";
import { extractInvoiceXml } from "../../src/pdf/attachments.ts";
import { XML_LIMITS } from "../../src/syntax/xml-policy.ts";
import { corpusFile, corpusMissing, corpusRows } from "../support/corpus.ts";
import { cannotRun } from "../support/requirements.ts";

const INVOICE = new TextEncoder().encode(`<?xml version="1.0"?><rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>`);

async function pdfWith(attachments: { name: string; data: Uint8Array; relationship?: AFRelationship }[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage();
  for (const a of attachments) {
    await doc.attach(a.data, a.name, { mimeType: "text/xml", afRelationship: a.relationship ?? AFRelationship.Alternative });
  }
  return doc.save();
}

describe("extraction from generated PDFs", () => {
  test("finds factur-x.xml with its relationship and MIME type", async () => {
    const x = await extractInvoiceXml(await pdfWith([{ name: "factur-x.xml", data: INVOICE, relationship: AFRelationship.Data }]));
    if (!x.ok) throw new Error(x.message);
    expect(x.name).toBe("factur-x.xml");
    expect(x.xml).toEqual(INVOICE);
    expect(x.attachments).toEqual([{ name: "factur-x.xml", relationship: "Data", mimeType: "text/xml", inEmbeddedFiles: true, inAssociatedFiles: true }]);
  });

  test("prefers names in the accepted order; names are case-sensitive", async () => {
    const other = new TextEncoder().encode("<other/>");
    const x = await extractInvoiceXml(await pdfWith([
      { name: "xrechnung.xml", data: other },
      { name: "FACTUR-X.XML", data: other },
      { name: "zugferd-invoice.xml", data: INVOICE },
    ]));
    expect(x.ok && x.name).toBe("zugferd-invoice.xml");
  });

  test("a PDF without an invoice attachment says so and still lists what it has", async () => {
    const x = await extractInvoiceXml(await pdfWith([{ name: "invoice.xml", data: INVOICE }]));
    expect(x).toMatchObject({ ok: false, reason: "no-invoice-xml", attachments: [{ name: "invoice.xml" }] });
    if (!x.ok) expect(x.message).toContain("no embedded invoice XML");
    expect(await extractInvoiceXml(await pdfWith([]))).toMatchObject({ ok: false, reason: "no-invoice-xml", attachments: [] });
  });

  test("decompression is capped", async () => {
    const big = new TextEncoder().encode(`<a>${" ".repeat(4_000_000)}</a>`);
    const x = await extractInvoiceXml(await pdfWith([{ name: "factur-x.xml", data: big }]), { inflatedBytes: 1_000_000 });
    expect(x).toMatchObject({ ok: false, reason: "over-budget", message: expect.stringContaining("would inflate past 1,000,000 bytes") });
  });

  test("the embedded invoice is held to the XML reading policy's size, within the document's inflate budget", async () => {
    const big = new TextEncoder().encode(`<a>${" ".repeat(XML_LIMITS.maxBytes)}</a>`);
    const x = await extractInvoiceXml(await pdfWith([{ name: "factur-x.xml", data: big }]));
    expect(x).toMatchObject({ ok: false, reason: "over-budget", message: `the embedded factur-x.xml would inflate past ${XML_LIMITS.maxBytes / 1024 / 1024} MiB, the most an invoice XML may be` });
  });

  test("not a PDF, empty, and every truncation of a real PDF return a clear error", async () => {
    expect(await extractInvoiceXml(new Uint8Array())).toMatchObject({ ok: false, reason: "unreadable-pdf" });
    expect(await extractInvoiceXml(INVOICE)).toMatchObject({ ok: false, reason: "unreadable-pdf", message: expect.stringContaining("not a PDF") });
    const whole = await pdfWith([{ name: "factur-x.xml", data: INVOICE }]);
    for (const cut of [9, 50, 200, Math.floor(whole.byteLength / 2), whole.byteLength - 40]) {
      const start = performance.now();
      const x = await extractInvoiceXml(whole.subarray(0, cut));
      expect(performance.now() - start).toBeLessThan(5_000);
      if (!x.ok) expect(x.message.length).toBeGreaterThan(10);
    }
  });
});

describe.skipIf(cannotRun("corpus PDFs", corpusMissing))("corpus PDFs (expected.json rows with syntax pdf)", () => {
  const pdfRows = corpusRows().filter((r) => r.syntax === "pdf");

  test("the embedded XML named by the corpus is found; differences explained", async () => {
    const lines: string[] = [];
    const unexplained: string[] = [];
    let found = 0;
    for (const row of pdfRows) {
      const bytes = corpusFile(row);
      if (!bytes) continue;
      const start = performance.now();
      const x = await extractInvoiceXml(bytes);
      const ms = performance.now() - start;
      const expected = /Embedded XML: ([^\]]*?\.xml)/.exec(row.note)?.[1];
      const got = x.ok ? x.name : undefined;
      if (x.ok) found++;
      if (got === expected) continue;
      const names = x.ok || x.reason === "no-invoice-xml" ? x.attachments.map((a) => `${a.name}${a.inEmbeddedFiles ? "" : " (/AF only)"}`) : [];
      const reason =
        got && expected ? `carries both ${expected} and ${got}; ${got} comes first in the accepted-name order`
        : got && !expected && names.some((n) => n.includes("/AF only")) ? "name tree is damaged; the file is reachable through /AF"
        : !got && !expected ? undefined
        : undefined;
      lines.push(`${row.path}: corpus ${expected ?? "none"}, here ${got ?? (x.ok ? "" : x.reason)} [${names.join(", ")}] ${ms.toFixed(0)} ms${reason ? ` -- ${reason}` : ""}`);
      if (!reason) unexplained.push(lines.at(-1)!);
    }
    console.log(`corpus PDFs: ${pdfRows.length}, invoice XML extracted from ${found}\ndifferences from the corpus notes:\n  ${lines.join("\n  ")}`);
    expect(unexplained).toEqual([]);
  }, 60_000);

  test("PDFs without an invoice XML give a clear result, never an exception", async () => {
    for (const row of pdfRows.filter((r) => r.note.includes("No embedded XML"))) {
      const bytes = corpusFile(row);
      if (!bytes) continue;
      const x = await extractInvoiceXml(bytes);
      // The one exception: a damaged name tree that pdfdetach gave up on, with the file still in /AF.
      if (x.ok) expect(x.attachments.find((a) => a.name === x.name)).toMatchObject({ inEmbeddedFiles: false, inAssociatedFiles: true });
      else expect(x.message).toMatch(/no embedded invoice XML|truncated or corrupt|not a PDF|could not be parsed/);
    }
  });

  test("hybrid metadata: XMP packet and attachment relationship are read", async () => {
    const row = pdfRows.find((r) => r.path.endsWith("XML-Rechnung/FX/EN16931_Miete.pdf"));
    const bytes = row && corpusFile(row);
    if (!bytes) return;
    const x = await extractInvoiceXml(bytes);
    if (!x.ok) throw new Error(x.message);
    expect(x.xmp).toContain("fx:ConformanceLevel");
    expect(x.attachments[0]).toMatchObject({ name: "factur-x.xml", relationship: "Alternative", mimeType: "text/xml" });
  });

  test("a truncated copy of a corpus PDF returns a clear error quickly", async () => {
    const row = pdfRows.find((r) => r.path.endsWith("XML-Rechnung/FX/EN16931_Miete.pdf"));
    const bytes = row && corpusFile(row);
    if (!bytes) return;
    for (const fraction of [0.1, 0.5, 0.95]) {
      const start = performance.now();
      const x = await extractInvoiceXml(bytes.subarray(0, Math.floor(bytes.byteLength * fraction)));
      expect(x).toMatchObject({ ok: false, reason: "unreadable-pdf" });
      expect(performance.now() - start).toBeLessThan(5_000);
    }
  });
});
