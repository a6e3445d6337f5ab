// The hybrid matrix: every stress invoice at every Factur-X level, each PDF read back by our own
// extractor and by independent tools (poppler, qpdf). Files go to a temp dir and are removed.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PDFDict, PDFDocument, PDFName, PDFRawStream, PDFArray } from "pdf-lib";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extractInvoiceXml } from "../../src/pdf/attachments.ts";
import { rulesetBundle } from "../../src/assets/bundle.ts";
import { createEngine } from "../../src/validation/engine.ts";
import { validateDocument } from "../../src/validation/validate.ts";
import { hybridFindings } from "../../src/validation/hybrid-rules.ts";
import { FACTURX_NAMESPACE } from "../../src/pdf/xmp.ts";
import { detect } from "../../src/syntax/detect.ts";
import { parseXml } from "../../src/syntax/xml-reader.ts";
import { buildHybrid, FACTURX_LEVELS, type Built } from "./build.ts";
import { PDF_CASES } from "./fixtures.ts";
import { inkShare, lacking, pageTexts, run, scratch } from "./tools.ts";

const tmp = scratch();
afterAll(() => tmp.remove());

interface Row {
  name: string;
  level: (typeof FACTURX_LEVELS)[number];
  built: Built;
  path: string;
}

const rows: Row[] = [];
beforeAll(async () => {
  for (const c of PDF_CASES) {
    for (const level of FACTURX_LEVELS) {
      const built = await buildHybrid(c.invoice, level.profile);
      const file = `${c.name.replace(/\W+/g, "-")}-${level.profile}.pdf`;
      rows.push({ name: `${c.name} / ${level.profile}`, level, built, path: tmp.write(file, built.pdf) });
    }
  }
}, 120_000);

const each = (check: (row: Row) => void | Promise<void>) => async () => {
  expect(rows.length).toBe(PDF_CASES.length * FACTURX_LEVELS.length);
  for (const row of rows) {
    try {
      await check(row);
    } catch (error) {
      throw new Error(`${row.name}: ${(error as Error).message}`);
    }
  }
};

function rawStream(object: unknown): PDFRawStream {
  if (!(object instanceof PDFRawStream)) throw new Error("expected a stream");
  return object;
}

const PDF_A_NS = { pdfaid: "http://www.aiim.org/pdfa/ns/id/", fx: FACTURX_NAMESPACE, pdfaSchema: "http://www.aiim.org/pdfa/ns/schema#" };

function xmpValues(xmp: string) {
  const doc = parseXml(xmp); // throws on malformed XML
  const text = (ns: string, name: string) => Array.from(doc.getElementsByTagNameNS(ns, name), (e) => e.textContent?.trim());
  return {
    part: text(PDF_A_NS.pdfaid, "part"),
    conformance: text(PDF_A_NS.pdfaid, "conformance"),
    documentType: text(PDF_A_NS.fx, "DocumentType"),
    fileName: text(PDF_A_NS.fx, "DocumentFileName"),
    version: text(PDF_A_NS.fx, "Version"),
    level: text(PDF_A_NS.fx, "ConformanceLevel"),
    extensionNamespaces: text(PDF_A_NS.pdfaSchema, "namespaceURI"),
    title: Array.from(doc.getElementsByTagNameNS("http://purl.org/dc/elements/1.1/", "title"), (e) => e.textContent?.trim()),
    createDate: text("http://ns.adobe.com/xap/1.0/", "CreateDate"),
    modifyDate: text("http://ns.adobe.com/xap/1.0/", "ModifyDate"),
  };
}

describe("hybrid PDF matrix (5 invoices x 5 Factur-X levels)", () => {
  test(
    "extractInvoiceXml reads back the exact XML, declared as factur-x.xml, text/xml, relationship by level",
    each(async ({ built, level }) => {
      const x = await extractInvoiceXml(built.pdf);
      if (!x.ok) throw new Error(x.message);
      expect(x.name).toBe("factur-x.xml");
      expect(x.xml).toEqual(built.xml);
      expect(x.attachments).toEqual([{ name: "factur-x.xml", relationship: level.relationship, mimeType: "text/xml", inEmbeddedFiles: true, inAssociatedFiles: true }]);
      const meta = xmpValues(x.xmp!);
      expect(meta).toMatchObject({ part: ["3"], conformance: ["B"], documentType: ["INVOICE"], fileName: ["factur-x.xml"], version: ["1.0"], level: [level.conformanceLevel] });
      expect(meta.extensionNamespaces).toEqual([FACTURX_NAMESPACE]);
    }),
  );

  test(
    "PDF/A plumbing: sRGB output intent with ICC, /ID, plain XMP stream, /Params /ModDate, binary header comment, no transparency or scripts",
    each(async ({ built }) => {
      const doc = await PDFDocument.load(built.pdf, { updateMetadata: false });
      const ctx = doc.context;
      const intents = doc.catalog.lookup(PDFName.of("OutputIntents"), PDFArray);
      const intent = intents.lookup(0, PDFDict);
      expect(intent.get(PDFName.of("S"))).toBe(PDFName.of("GTS_PDFA1"));
      const icc = rawStream(ctx.lookup(intent.get(PDFName.of("DestOutputProfile"))));
      expect(icc.dict.get(PDFName.of("N"))?.toString()).toBe("3");
      const metadata = rawStream(ctx.lookup(doc.catalog.get(PDFName.of("Metadata"))));
      expect(metadata.dict.get(PDFName.of("Filter"))).toBeUndefined();
      expect(new TextDecoder().decode(metadata.contents)).toContain("<pdfaid:part>3</pdfaid:part>");
      const id = ctx.trailerInfo.ID as PDFArray;
      expect(id.size()).toBe(2);
      const af = doc.catalog.lookup(PDFName.of("AF"), PDFArray).lookup(0, PDFDict);
      const file = rawStream(ctx.lookup(af.lookup(PDFName.of("EF"), PDFDict).get(PDFName.of("F"))));
      const params = file.dict.lookup(PDFName.of("Params"), PDFDict);
      expect(params.get(PDFName.of("ModDate"))?.toString()).toMatch(/^\(D:\d{14}Z\)$/);
      expect(params.get(PDFName.of("Size"))?.toString()).toBe(String(built.xml.byteLength));
      expect(file.dict.get(PDFName.of("Subtype"))?.toString()).toBe("/text#2Fxml");
      // Header line, then a comment of bytes above 127 (PDF/A: marks the file as binary).
      const head = built.pdf.subarray(0, 16);
      expect(new TextDecoder("latin1").decode(head.subarray(0, 9))).toBe("%PDF-1.7\n");
      expect(head[9]).toBe(0x25);
      expect([...head.subarray(10, 14)].every((b) => b > 127)).toBe(true);
      const raw = new TextDecoder("latin1").decode(built.pdf);
      for (const forbidden of ["/SMask", "/JavaScript", "/JS ", "/Encrypt", "/Transparency", "/CA ", "/ca "]) expect(raw).not.toContain(forbidden);
      // pdf-lib writes an empty /ExtGState into page resources; any graphics state would be a risk.
      expect(raw.match(/\/ExtGState\s*<<[^>]*>>/g)?.every((d) => /<<\s*>>/.test(d)) ?? true).toBe(true);
    }),
  );

  test(
    "the hybrid container rules (BR-HYBRID-01..15) find nothing",
    each(async ({ built }) => {
      const x = await extractInvoiceXml(built.pdf);
      if (!x.ok) throw new Error(x.message);
      const findings = hybridFindings(x, detect(x.xml, { hybrid: true }).record);
      expect(findings.filter((f) => f.severity !== "info")).toEqual([]);
    }),
  );

  test.skipIf(lacking("pdfdetach"))(
    "pdfdetach lists factur-x.xml and saves bytes equal to the XML",
    each(({ built, path }) => {
      expect(run(["pdfdetach", "-list", path])).toContain("1: factur-x.xml");
      const out = join(tmp.dir, "detached.xml");
      run(["pdfdetach", "-save", "1", "-o", out, path]);
      expect(Buffer.from(readFileSync(out)).equals(Buffer.from(built.xml))).toBe(true);
    }),
  );

  test.skipIf(lacking("pdfinfo"))(
    "pdfinfo -meta shows well-formed XMP with pdfaid and fx entries and the right ConformanceLevel; Info dates match XMP",
    each(({ path, level }) => {
      const meta = xmpValues(run(["pdfinfo", "-meta", path]));
      expect(meta).toMatchObject({ part: ["3"], conformance: ["B"], fileName: ["factur-x.xml"], level: [level.conformanceLevel] });
      expect(meta.createDate).toEqual(["2025-03-14T00:00:00Z"]);
      expect(meta.modifyDate).toEqual(["2025-03-14T00:00:00Z"]);
      const info = run(["pdfinfo", "-isodates", path]);
      expect(info).toMatch(/CreationDate:\s+2025-03-14T00:00:00Z/);
      expect(info).toMatch(/ModDate:\s+2025-03-14T00:00:00Z/);
      expect(info).toMatch(/JavaScript:\s+no/);
      expect(info).toMatch(/Encrypted:\s+no/);
    }),
  );

  test.skipIf(lacking("pdffonts"))(
    "pdffonts lists every font as embedded and subset",
    each(({ path }) => {
      const fonts = run(["pdffonts", path]).trim().split("\n").slice(2);
      expect(fonts.length).toBe(2);
      for (const line of fonts) expect(line).toMatch(/^[A-Z]{6}\+DejaVuSans(-Bold)?\s+CID TrueType\s+Identity-H\s+yes yes yes/);
    }),
  );

  test.skipIf(lacking("qpdf"))(
    "qpdf --check finds no errors",
    each(({ path }) => {
      expect(run(["qpdf", "--check", path])).toContain("No syntax or stream encoding errors found");
    }),
  );

  test.skipIf(lacking("pdftotext"))(
    "pages show the invoice number and no watermark for live keys",
    each(({ path, built }) => {
      const pages = pageTexts(path);
      expect(pages[0]).toMatch(/PDF-/);
      for (const page of pages) expect(page).not.toContain("SANDBOX");
      expect(built.pdf.byteLength).toBeGreaterThan(1000);
    }),
  );

  test("page count grows with the number of lines", async () => {
    const pages = async (name: string) => (await PDFDocument.load(rows.find((r) => r.name === `${name} / extended`)!.built.pdf)).getPageCount();
    expect(await pages("1 line")).toBe(1);
    expect(await pages("40 lines")).toBeGreaterThan(1);
    expect(await pages("300 lines with sub-lines")).toBeGreaterThan(await pages("40 lines"));
  });
});

describe("hybrid PDF properties", () => {
  const one = PDF_CASES[0].invoice;
  const many = PDF_CASES[2].invoice;

  test("same input, same bytes; `now` moves every date", async () => {
    const a = await buildHybrid(one, "en16931");
    const b = await buildHybrid(one, "en16931");
    expect(b.pdf).toEqual(a.pdf);
    const later = await buildHybrid(one, "en16931", { now: new Date("2025-06-01T08:30:15.250Z") });
    expect(later.pdf).not.toEqual(a.pdf);
    const x = await extractInvoiceXml(later.pdf);
    expect(x.ok && xmpValues(x.xmp!).createDate).toEqual(["2025-06-01T08:30:15Z"]);
  });

  test.skipIf(lacking("pdftoppm"))("the standard template draws a page; no template gives a blank one", () => {
    const render = (pdf: Uint8Array, name: string) => {
      const path = tmp.write(`${name}.pdf`, pdf);
      run(["pdftoppm", "-gray", "-r", "50", "-f", "1", "-l", "1", path, join(tmp.dir, name)]);
      return inkShare(readFileSync(join(tmp.dir, `${name}-1.pgm`)));
    };
    return (async () => {
      expect(render((await buildHybrid(one, "en16931")).pdf, "standard")).toBeGreaterThan(0.01);
      expect(render((await buildHybrid(one, "en16931", { template: undefined })).pdf, "blank")).toBe(0);
    })();
  });

  test.skipIf(lacking("pdftotext"))("test keys: SANDBOX on every page, blank template included", async () => {
    for (const [invoice, template] of [[many, "standard"], [one, undefined]] as const) {
      const built = await buildHybrid(invoice, "extended", { livemode: false, template });
      const pages = pageTexts(tmp.write("test-key.pdf", built.pdf));
      expect(pages.length).toBe((await PDFDocument.load(built.pdf)).getPageCount());
      for (const page of pages) expect(page).toContain("SANDBOX·SPECIMEN");
    }
  });

  test("XRechnung CII is embedded as xrechnung.xml with level XRECHNUNG", async () => {
    const built = await buildHybrid(one, "xrechnung", { standard: "xrechnung" });
    const x = await extractInvoiceXml(built.pdf);
    if (!x.ok) throw new Error(x.message);
    expect(x.name).toBe("xrechnung.xml");
    expect(x.xml).toEqual(built.xml);
    expect(xmpValues(x.xmp!)).toMatchObject({ fileName: ["xrechnung.xml"], level: ["XRECHNUNG"], version: ["3.0"] });
    expect(hybridFindings(x, detect(x.xml, { hybrid: true }).record).filter((f) => f.severity !== "info")).toEqual([]);
  });

  // The reference checks (phive's BR-HYBRID-12, Mustang) find the invoice by name whatever its
  // /Subtype says; so does the service.
  test("factur-x.xml with the MIME type application/octet-stream is still a valid hybrid", async () => {
    const doc = await PDFDocument.load((await buildHybrid(one, "en16931")).pdf, { updateMetadata: false });
    const spec = doc.catalog.lookup(PDFName.of("AF"), PDFArray).lookup(0, PDFDict);
    rawStream(doc.context.lookup(spec.lookup(PDFName.of("EF"), PDFDict).get(PDFName.of("F")))).dict.set(PDFName.of("Subtype"), PDFName.of("application/octet-stream"));
    const bytes = await doc.save();
    const x = await extractInvoiceXml(bytes);
    expect(x.ok && x.attachments[0]!.mimeType).toBe("application/octet-stream");
    const outcome = await validateDocument(createEngine(rulesetBundle()), { bytes });
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.result.errors).toEqual([]);
    expect(outcome.result.valid).toBe(true);
  });

  test("a profile without a Factur-X level is refused", async () => {
    await expect(buildHybrid(one, "peppol", { standard: "peppol-bis" as "facturx" })).rejects.toThrow();
  });
});
