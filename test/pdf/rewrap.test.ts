// Re-wrapping a hybrid PDF around a new invoice XML (POST /v1/convert with a PDF target): corpus
// hybrids (Factur-X with a second attachment, ZUGFeRD 2.0, ZUGFeRD 1.0 + 2.x side by side,
// XRechnung) and one drawn here, each checked for the known re-wrap mistakes: the old invoice left
// beside the new one, a stale XMP declaration, /Params CheckSum of nothing, pages touched, and a
// signature silently broken. The result is judged by qpdf and by the project's BR-HYBRID checks.

import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFString, type PDFObject } from "pdf-lib";
import { rulesetBundle } from "../../src/assets/bundle.ts";
import { generateXml } from "../../src/generate/generate.ts";
import { extractInvoiceXml, INVOICE_XML_NAMES } from "../../src/pdf/attachments.ts";
import { rewrapHybrid } from "../../src/pdf/rewrap.ts";
import { FACTURX_NAMESPACE } from "../../src/pdf/xmp.ts";
import { INVOICE_NAMESPACES, readXmp } from "../../src/pdf/xmp-reader.ts";
import type { RequestProfile } from "../../src/profiles/ids.ts";
import { recordById } from "../../src/profiles/lookup.ts";
import type { ProfileRecord } from "../../src/profiles/record.ts";
import { readCii } from "../../src/syntax/cii/read.ts";
import { detect } from "../../src/syntax/detect.ts";
import { createEngine } from "../../src/validation/engine.ts";
import { validateDocument } from "../../src/validation/validate.ts";
import { CORPUS_DIR, corpusMissing } from "../support/corpus.ts";
import { cannotRun } from "../support/requirements.ts";
import { buildHybrid } from "./build.ts";
import { PDF_CASES } from "./fixtures.ts";
import { lacking, run, scratch } from "./tools.ts";

const tmp = scratch();
afterAll(() => tmp.remove());

const NOW = new Date("2026-11-26T10:00:00Z");
const invoice = PDF_CASES[0]!.invoice;

/** A new invoice XML as convert would hand it over: bytes, model and the record it was written for. */
function written(standard: "facturx" | "xrechnung", profile: RequestProfile) {
  const generated = generateXml({ standard, profile, invoice } as Parameters<typeof generateXml>[0], { livemode: true });
  return { xml: generated.bytes, model: readCii(generated.bytes), record: recordById(generated.record) };
}

/** The source's own XML, re-declared for the record it is recognised as inside a hybrid (a carrier change). */
async function own(pdf: Uint8Array) {
  const x = await extractInvoiceXml(pdf);
  if (!x.ok) throw new Error(x.message);
  const record = detect(x.xml, { hybrid: true }).record;
  if (!record) throw new Error("the embedded XML has no record");
  return { xml: x.xml, model: readCii(x.xml), record };
}

const corpus = (path: string) => new Uint8Array(readFileSync(`${CORPUS_DIR}${path}`));
const isInvoiceName = (name: string) => (INVOICE_XML_NAMES as readonly string[]).includes(name);

async function load(pdf: Uint8Array) {
  return PDFDocument.load(pdf, { updateMetadata: false });
}

function stream(doc: PDFDocument, object: PDFObject | undefined): PDFRawStream {
  const found = doc.context.lookup(object);
  if (!(found instanceof PDFRawStream)) throw new Error("expected a stream");
  return found;
}

/** Each page's content stream bytes as stored (a page may split its content over an array of streams). */
function pageContents(doc: PDFDocument): string[] {
  return doc.getPages().map((page) => {
    const contents = doc.context.lookup(page.node.get(PDFName.of("Contents")));
    const parts = contents instanceof PDFArray ? contents.asArray() : [page.node.get(PDFName.of("Contents"))];
    return parts.map((part) => Buffer.from(stream(doc, part).contents).toString("latin1")).join("\n");
  });
}

/** Every embedded file stream the file holds, reachable or not. */
function embeddedFileStreams(doc: PDFDocument): number {
  return doc.context.enumerateIndirectObjects().filter(([, o]) => o instanceof PDFRawStream && o.dict.get(PDFName.of("Type")) === PDFName.of("EmbeddedFile")).length;
}

interface Case {
  name: string;
  source: () => Promise<Uint8Array>;
  target: (source: Uint8Array) => Promise<{ xml: Uint8Array; model: ReturnType<typeof readCii>; record: ProfileRecord }>;
}

const CASES: Case[] = [
  { name: "Factur-X EN 16931 with a delivery note beside it, new EN 16931 XML", source: async () => corpus("akretion-factur-x/tests/fixtures/pdf/invoice_EN16931.pdf"), target: async () => written("facturx", "en16931") },
  { name: "ZUGFeRD 2.0 (zf, zugferd-invoice.xml) to Factur-X, same XML", source: async () => corpus("zugferd-corpus/ZUGFeRDv2/correct/intarsys/EN16931/zugferd_2p0_EN16931_Miete.pdf"), target: own },
  { name: "ZUGFeRD 1.0 and 2.x invoices side by side, new EXTENDED XML", source: async () => corpus("zugferd-corpus/ZUGFeRDv2/fail/MustangRE-20171118_506_ZUGFeRD1and2.pdf"), target: async () => written("facturx", "extended") },
  { name: "ZUGFeRD XRECHNUNG (xrechnung.xml) to Factur-X BASIC", source: async () => corpus("zugferd-corpus/XML-Rechnung/FX/XRECHNUNG_Einfach.pdf"), target: async () => written("facturx", "basic") },
  { name: "drawn here as EN 16931, re-wrapped as MINIMUM (relationship Data)", source: async () => (await buildHybrid(invoice, "en16931", { now: NOW })).pdf, target: async () => written("facturx", "minimum") },
  { name: "Factur-X to ZUGFeRD XRECHNUNG (xrechnung.xml, the XRechnung version)", source: async () => (await buildHybrid(invoice, "basic", { now: NOW })).pdf, target: async () => written("xrechnung", "xrechnung") },
];

describe.skipIf(cannotRun("re-wrapping corpus hybrids", corpusMissing))("rewrapHybrid", () => {
  const engine = createEngine(rulesetBundle());

  for (const c of CASES) {
    test(c.name, async () => {
      const source = await c.source();
      const target = await c.target(source);
      const facts = target.record.hybrid!;
      const result = await rewrapHybrid({ pdf: source, ...target, now: NOW });
      if (!result.ok) throw new Error(`${result.reason}: ${result.message}`);
      const { pdf } = result;

      // Exactly one invoice, named for the target, holding the new bytes, in both places; other attachments kept.
      const before = await extractInvoiceXml(source);
      const after = await extractInvoiceXml(pdf);
      if (!before.ok || !after.ok) throw new Error("extraction failed");
      expect(after.name).toBe(facts.fileName as typeof after.name);
      expect(Buffer.from(after.xml).equals(Buffer.from(target.xml))).toBe(true);
      expect(after.attachments.filter((a) => isInvoiceName(a.name))).toEqual([{ name: facts.fileName, relationship: facts.relationship, mimeType: "text/xml", inEmbeddedFiles: true, inAssociatedFiles: true }]);
      const others = (x: typeof after) => x.attachments.filter((a) => !isInvoiceName(a.name));
      expect(others(after)).toEqual(others(before));

      // The XMP declares that invoice in Factur-X's namespace and no other: no stale zf schema or values.
      const xmp = readXmp(after.xmp!);
      expect(xmp.pdfaPart).toBe("3");
      expect(xmp.fxNamespace).toBe(FACTURX_NAMESPACE);
      expect(xmp.fx).toEqual({ DocumentType: "INVOICE", DocumentFileName: facts.fileName, ConformanceLevel: facts.conformanceLevel, Version: facts.version === "from-xrechnung-id" ? expect.stringMatching(/^\d+\.\d+/) : facts.version });
      expect(xmp.schemas.map((s) => s.namespaceURI).filter((uri) => INVOICE_NAMESPACES.some((n) => n.uri === uri))).toEqual([FACTURX_NAMESPACE]);
      expect(after.xmp).not.toContain("zugferd");

      // /AF holds exactly the new spec besides the others; its /Params describe the new bytes.
      const doc = await load(pdf);
      const af = doc.catalog.lookup(PDFName.of("AF"), PDFArray).asArray().map((ref) => doc.context.lookup(ref, PDFDict));
      const invoiceSpecs = af.filter((spec) => isInvoiceName((spec.lookup(PDFName.of("UF")) as PDFHexString | PDFString).decodeText()));
      expect(invoiceSpecs.length).toBe(1);
      expect(af.length).toBe(others(before).filter((a) => a.inAssociatedFiles).length + 1);
      const file = stream(doc, invoiceSpecs[0]!.lookup(PDFName.of("EF"), PDFDict).get(PDFName.of("F")));
      const params = file.dict.lookup(PDFName.of("Params"), PDFDict);
      expect(params.lookup(PDFName.of("CheckSum"), PDFHexString).asString().toLowerCase()).toBe(createHash("md5").update(target.xml).digest("hex"));
      expect(params.get(PDFName.of("Size"))?.toString()).toBe(String(target.xml.byteLength));
      expect(params.get(PDFName.of("ModDate"))?.toString()).toBe("(D:20261126100000Z)");
      // The old invoice streams are gone from the file, not only from its trees.
      expect(embeddedFileStreams(doc)).toBe(others(before).length + 1);

      // The visible pages are the source's, byte for byte; the PDF/A output intent is still there.
      const original = await load(source);
      expect(doc.getPageCount()).toBe(original.getPageCount());
      expect(pageContents(doc)).toEqual(pageContents(original));
      expect(doc.catalog.lookup(PDFName.of("OutputIntents"), PDFArray).size()).toBeGreaterThan(0);

      // The project's hybrid checks find nothing in the container.
      const outcome = await validateDocument(engine, { bytes: pdf });
      if (!outcome.ok) throw new Error(outcome.message);
      const container = outcome.layers.find((l) => l.layer === "container");
      expect(container).toMatchObject({ status: "ran", errors: 0, warnings: 0 });
      expect([...outcome.result.errors, ...outcome.result.warnings].filter((f) => f.ruleId.startsWith("BR-HYBRID"))).toEqual([]);

      if (!lacking("qpdf")) run(["qpdf", "--check", tmp.write(`${c.name.replace(/\W+/g, "-")}.pdf`, pdf)]);
    }, 60_000);
  }

  test("re-wrapping twice leaves one invoice, the last one", async () => {
    const source = corpus("akretion-factur-x/tests/fixtures/pdf/invoice_EN16931.pdf");
    const first = await rewrapHybrid({ pdf: source, ...written("facturx", "basic"), now: NOW });
    if (!first.ok) throw new Error(first.message);
    const last = written("facturx", "en16931");
    const second = await rewrapHybrid({ pdf: first.pdf, ...last, now: NOW });
    if (!second.ok) throw new Error(second.message);
    const x = await extractInvoiceXml(second.pdf);
    expect(x.ok && x.attachments.map((a) => a.name)).toEqual(["Bon_de_livraison.pdf", "factur-x.xml"]);
    expect(x.ok && Buffer.from(x.xml).equals(Buffer.from(last.xml))).toBe(true);
    expect(x.ok && readXmp(x.xmp!).fx.ConformanceLevel).toBe("EN 16931");
  });
});

describe("rewrapHybrid refuses what it cannot re-wrap, as a result", () => {
  const target = () => ({ ...written("facturx", "en16931"), now: NOW });
  const drawn = async () => (await buildHybrid(invoice, "en16931", { now: NOW })).pdf;

  /** The drawn hybrid with a signature field; `signed` puts a signature dictionary in it. */
  async function withSignatureField(signed: boolean): Promise<Uint8Array> {
    const doc = await load(await drawn());
    const ctx = doc.context;
    const field = ctx.obj({ FT: "Sig", T: PDFString.of("Signature1"), Type: "Annot", Subtype: "Widget", Rect: [0, 0, 0, 0], F: 132 });
    if (signed) field.set(PDFName.of("V"), ctx.register(ctx.obj({ Type: "Sig", Filter: "Adobe.PPKLite", SubFilter: "adbe.pkcs7.detached", ByteRange: [0, 10, 20, 30], Contents: PDFHexString.of("00") })));
    doc.catalog.set(PDFName.of("AcroForm"), ctx.obj({ Fields: [ctx.register(field)], SigFlags: signed ? 3 : 0 }));
    return doc.save({ useObjectStreams: false, updateFieldAppearances: false });
  }

  test("a signed PDF (signature field with a /ByteRange signature) is refused and says why", async () => {
    const result = await rewrapHybrid({ pdf: await withSignatureField(true), ...target() });
    expect(result).toMatchObject({ ok: false, reason: "signed" });
    expect(!result.ok && result.message).toContain("signature");
  });

  test("a certification signature (/Perms) is refused", async () => {
    const doc = await load(await drawn());
    doc.catalog.set(PDFName.of("Perms"), doc.context.obj({ DocMDP: doc.context.obj({ Type: "Sig" }) }));
    expect(await rewrapHybrid({ pdf: await doc.save({ useObjectStreams: false }), ...target() })).toMatchObject({ ok: false, reason: "signed" });
  });

  test("an empty signature field signs nothing: the PDF is re-wrapped", async () => {
    expect(await rewrapHybrid({ pdf: await withSignatureField(false), ...target() })).toMatchObject({ ok: true });
  });

  test("a PDF that claims no PDF/A-3 is refused (its pages cannot be declared PDF/A-3)", async () => {
    const plain = await PDFDocument.create();
    plain.addPage();
    expect(await rewrapHybrid({ pdf: await plain.save(), ...target() })).toMatchObject({ ok: false, reason: "not-pdfa-3" });
  });

  test("truncated, non-PDF and over-budget input is refused without throwing", async () => {
    const pdf = await drawn();
    for (const cut of [0.1, 0.5, 0.9]) {
      expect(await rewrapHybrid({ pdf: pdf.subarray(0, Math.floor(pdf.length * cut)), ...target() })).toMatchObject({ ok: false, reason: "unreadable-pdf" });
    }
    // Cut inside the cross-reference table, the file still holds every object: pdf-lib recovers
    // the catalog by scanning, and the re-wrapped file is whole again.
    const recovered = await rewrapHybrid({ pdf: pdf.subarray(0, Math.floor(pdf.length * 0.99)), ...target() });
    const x = recovered.ok ? await extractInvoiceXml(recovered.pdf) : undefined;
    expect(x?.ok && x.attachments.map((a) => a.name)).toEqual(["factur-x.xml"]);
    expect(await rewrapHybrid({ pdf: new TextEncoder().encode("<Invoice/>"), ...target() })).toMatchObject({ ok: false, reason: "unreadable-pdf" });
    expect(await rewrapHybrid({ pdf, ...target(), limits: { objects: 50 } })).toMatchObject({ ok: false, reason: "over-budget" });
  });

  test("a record that does not travel in a hybrid PDF is the caller's mistake: it throws, whatever the PDF", async () => {
    await expect(rewrapHybrid({ pdf: new Uint8Array(0), ...target(), record: recordById("ubl:xrechnung") })).rejects.toThrow("does not travel in a hybrid PDF");
  });

  test("a hostile catalog (cyclic name tree, /AF and /Names of the wrong type) is re-wrapped or refused, never thrown", async () => {
    const doc = await load(await drawn());
    const ctx = doc.context;
    const node = ctx.obj({});
    const ref = ctx.register(node);
    node.set(PDFName.of("Kids"), ctx.obj([ref]));
    doc.catalog.set(PDFName.of("Names"), ctx.obj({ EmbeddedFiles: ref }));
    doc.catalog.set(PDFName.of("AF"), ctx.obj({ not: "an array" }));
    const result = await rewrapHybrid({ pdf: await doc.save({ useObjectStreams: false }), ...target() });
    expect(result.ok).toBe(true);
    const x = result.ok ? await extractInvoiceXml(result.pdf) : undefined;
    expect(x?.ok && x.attachments.map((a) => a.name)).toEqual(["factur-x.xml"]);
  });
});
