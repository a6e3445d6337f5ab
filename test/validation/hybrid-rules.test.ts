import { describe, expect, test } from "bun:test";
import { AFRelationship, PDFDocument, PDFName } from "pdf-lib";
import { extractInvoiceXml } from "../../src/pdf/attachments.ts";
import type { RecordId } from "../../src/profiles/ids.ts";
import { recordById } from "../../src/profiles/lookup.ts";
import { HYBRID_RULES, hybridFindings } from "../../src/validation/hybrid-rules.ts";
import { BR_HYBRID_04_TEXT_NAMESPACE, ZUGFERD22_LEGACY_XMP_NAMESPACE, ZUGFERD2_XMP_NAMESPACE, readXmp } from "../../src/pdf/xmp-reader.ts";
import { FACTURX_NAMESPACE } from "../../src/pdf/xmp.ts";
import { detect } from "../../src/syntax/detect.ts";
import type { ValidationFinding } from "../../src/validation/result.ts";
import { corpusFile, corpusMissing, corpusRows } from "../support/corpus.ts";
import { cannotRun } from "../support/requirements.ts";

// The checks never read the XML itself: any bytes do as the invoice.
const XML = new TextEncoder().encode(`<?xml version="1.0"?><rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>`);

interface XmpOptions {
  part?: string | null;
  conformance?: string | null;
  /** Namespace of the invoice properties and of their extension schema. */
  ns?: string;
  schemaNs?: string;
  prefix?: string;
  /** Invoice property values; `null` leaves one out. */
  fx?: Partial<Record<"DocumentType" | "DocumentFileName" | "Version" | "ConformanceLevel", string | null>>;
  declared?: string[];
  /** Write the properties as attributes of rdf:Description instead of elements. */
  attributes?: boolean;
  noSchema?: boolean;
}

function xmp(o: XmpOptions = {}): string {
  const ns = o.ns ?? FACTURX_NAMESPACE;
  const fx = { DocumentType: "INVOICE", DocumentFileName: "factur-x.xml", Version: "1.0", ConformanceLevel: "EN 16931", ...o.fx };
  const props = Object.entries(fx).filter((e): e is [string, string] => e[1] !== null);
  const part = o.part === undefined ? "3" : o.part;
  const conformance = o.conformance === undefined ? "B" : o.conformance;
  const pdfaid = [part !== null ? `<pdfaid:part>${part}</pdfaid:part>` : "", conformance !== null ? `<pdfaid:conformance>${conformance}</pdfaid:conformance>` : ""].join("");
  const declared = (o.declared ?? ["DocumentFileName", "DocumentType", "Version", "ConformanceLevel"])
    .map((n) => `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${n}</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category></rdf:li>`)
    .join("");
  const schema = o.noSchema
    ? ""
    : `<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
      <pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
        <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
        <pdfaSchema:namespaceURI>${o.schemaNs ?? ns}</pdfaSchema:namespaceURI>
        <pdfaSchema:prefix>${o.prefix ?? "fx"}</pdfaSchema:prefix>
        <pdfaSchema:property><rdf:Seq>${declared}</rdf:Seq></pdfaSchema:property>
      </rdf:li></rdf:Bag></pdfaExtension:schemas>
    </rdf:Description>`;
  const values = o.attributes
    ? `<rdf:Description rdf:about="" xmlns:fx="${ns}" ${props.map(([k, v]) => `fx:${k}="${v}"`).join(" ")}/>`
    : `<rdf:Description rdf:about="" xmlns:fx="${ns}">${props.map(([k, v]) => `<fx:${k}>${v}</fx:${k}>`).join("")}</rdf:Description>`;
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">${pdfaid}</rdf:Description>
  ${values}
  ${schema}
</rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`;
}

interface Attachment {
  name: string;
  relationship?: AFRelationship | null;
  mimeType?: string | null;
}

async function pdf(options: { attachments?: Attachment[]; xmp?: string | null; dropAF?: boolean } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage();
  for (const a of options.attachments ?? [{ name: "factur-x.xml" }]) {
    await doc.attach(XML, a.name, {
      ...(a.mimeType !== null ? { mimeType: a.mimeType ?? "text/xml" } : {}),
      ...(a.relationship !== null ? { afRelationship: a.relationship ?? AFRelationship.Alternative } : {}),
    });
  }
  const packet = options.xmp === undefined ? xmp() : options.xmp;
  if (packet !== null) {
    const stream = doc.context.stream(packet, { Type: "Metadata", Subtype: "XML" });
    doc.catalog.set(PDFName.of("Metadata"), doc.context.register(stream));
  }
  const bytes = await doc.save();
  if (!options.dropAF) return bytes;
  const again = await PDFDocument.load(bytes, { updateMetadata: false });
  again.catalog.delete(PDFName.of("AF"));
  return again.save();
}

/** `record`: the catalogue record of the profile the embedded XML declares. */
async function findings(bytes: Uint8Array, record: RecordId | undefined = "cii:facturx:en16931"): Promise<ValidationFinding[]> {
  const x = await extractInvoiceXml(bytes);
  if (!x.ok) throw new Error(x.message);
  return hybridFindings(x, record && recordById(record));
}

const ids = (fs: ValidationFinding[]) => fs.map((f) => `${f.ruleId} ${f.severity}`);

describe("BR-HYBRID rules as data", () => {
  test("fifteen rules, SHALL as error, SHOULD as warning", () => {
    expect(HYBRID_RULES.map((r): string => r.id)).toEqual(Array.from({ length: 15 }, (_, i) => `BR-HYBRID-${String(i + 1).padStart(2, "0")}`));
    for (const r of HYBRID_RULES) {
      if (r.text.includes("SHALL")) expect(r.severity, r.id).toBe("error");
      else if (r.text.includes("SHOULD")) expect(r.severity, r.id).toBe("warning");
      else expect(r.severity, r.id).toBe("info");
    }
  });
});

describe("synthetic hybrid PDFs", () => {
  test("a conforming PDF has no findings, properties as elements or as attributes", async () => {
    expect(await findings(await pdf())).toEqual([]);
    expect(await findings(await pdf({ xmp: xmp({ attributes: true }) }))).toEqual([]);
    expect(await findings(await pdf({ attachments: [{ name: "factur-x.xml", relationship: AFRelationship.Data }], xmp: xmp({ fx: { ConformanceLevel: "MINIMUM" } }) }), "cii:facturx:minimum")).toEqual([]);
  });

  test("a finding names its rule, PDF object and rule text", async () => {
    const [f] = await findings(await pdf({ xmp: xmp({ fx: { DocumentType: "ORDER" } }) }));
    expect(f).toEqual({
      ruleId: "BR-HYBRID-06",
      severity: "error",
      location: "/Root/Metadata fx:DocumentType",
      message: expect.stringMatching(/^\[BR-HYBRID-06\] fx:DocumentType is "ORDER"; allowed: INVOICE\. The fx:DocumentType in the XMP instance SHALL/),
    });
  });

  test("no XMP at all: the presence rules fire, the value rules stay silent", async () => {
    expect(ids(await findings(await pdf({ xmp: null })))).toEqual([
      "BR-HYBRID-02 error",
      "BR-HYBRID-03 error",
      "BR-HYBRID-06 error",
      "BR-HYBRID-07 error",
      "BR-HYBRID-08 error",
      "BR-HYBRID-09 error",
    ]);
  });

  test("an unreadable XMP packet is reported, not thrown", async () => {
    const fs = await findings(await pdf({ xmp: "<x:xmpmeta><rdf:RDF>" }));
    expect(ids(fs)).toContain("BR-HYBRID-02 error");
    expect(fs[0]!.message).toContain("not readable XML");
    expect(readXmp("<!DOCTYPE x [<!ENTITY a 'b'>]><x>&a;</x>").unreadable).toContain("DOCTYPE");
  });

  // A DOM costs a few hundred bytes per element: a packet of a million empty elements would cost
  // hundreds of MiB before any check ran.
  test("a packet with more tags than any XMP needs is reported unreadable before it is parsed", () => {
    const start = performance.now();
    const facts = readXmp(`<x:xmpmeta xmlns:x="adobe:ns:meta/">${"<a/>".repeat(1_000_000)}</x:xmpmeta>`);
    expect(facts.unreadable).toBe("the XMP packet has more than 20,000 tags, more than is read from one packet");
    expect(performance.now() - start).toBeLessThan(1_000);
  });

  test("extension schemas nested in one another are each read once", () => {
    const schema = (ns: string, inner = "") =>
      `<rdf:li rdf:parseType="Resource"><pdfaSchema:namespaceURI>${ns}</pdfaSchema:namespaceURI><pdfaSchema:prefix>fx</pdfaSchema:prefix><pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource"><pdfaProperty:name>P-${ns}</pdfaProperty:name></rdf:li></rdf:Seq></pdfaSchema:property>${inner}</rdf:li>`;
    const packet = xmp().replace("<pdfaExtension:schemas>", `<pdfaExtension:schemas>${schema("urn:outer", schema("urn:inner"))}`);
    const outer = readXmp(packet).schemas.find((s) => s.namespaceURI === "urn:outer");
    expect(outer).toEqual({ namespaceURI: "urn:outer", prefix: "fx", properties: ["P-urn:outer"] });
    expect(readXmp(packet).schemas.filter((s) => s.namespaceURI === "urn:inner")).toHaveLength(1);
  });

  test("BR-HYBRID-02: PDF/A-3 or PDF/A-4f", async () => {
    expect(ids(await findings(await pdf({ xmp: xmp({ part: null }) })))).toEqual(["BR-HYBRID-02 error"]);
    expect(ids(await findings(await pdf({ xmp: xmp({ part: "2" }) })))).toEqual(["BR-HYBRID-02 error"]);
    expect(ids(await findings(await pdf({ xmp: xmp({ part: "4", conformance: null }) })))).toEqual(["BR-HYBRID-02 error"]);
    expect(await findings(await pdf({ xmp: xmp({ part: "4", conformance: "F" }) }))).toEqual([]);
    expect(await findings(await pdf({ xmp: xmp({ part: "3", conformance: "A" }) }))).toEqual([]);
  });

  test("BR-HYBRID-03: the extension schema must exist and declare the four properties", async () => {
    expect(ids(await findings(await pdf({ xmp: xmp({ noSchema: true }) })))).toEqual(["BR-HYBRID-03 error"]);
    const fs = await findings(await pdf({ xmp: xmp({ declared: ["DocumentFileName", "DocumentType", "Version"] }) }));
    expect(ids(fs)).toEqual(["BR-HYBRID-03 error"]);
    expect(fs[0]!.message).toContain("does not declare fx:ConformanceLevel");
  });

  test("BR-HYBRID-04: the Factur-X URI (the ZUGFeRD legacy ones are accepted too, the rule text's own warned)", async () => {
    expect(await findings(await pdf({ xmp: xmp({ ns: ZUGFERD2_XMP_NAMESPACE }) }))).toEqual([]);
    expect(await findings(await pdf({ xmp: xmp({ ns: ZUGFERD22_LEGACY_XMP_NAMESPACE, prefix: "zf" }) }))).toEqual([]);
    const text = await findings(await pdf({ xmp: xmp({ ns: BR_HYBRID_04_TEXT_NAMESPACE }) }));
    expect(ids(text)).toEqual(["BR-HYBRID-04 warning"]);
    expect(text[0]!.message).toContain('lacks the ":invoice"');
    const zf1 = "urn:ferd:pdfa:CrossIndustryDocument:invoice:1p0#";
    expect(ids(await findings(await pdf({ xmp: xmp({ ns: zf1 }) })))).toEqual(["BR-HYBRID-04 error"]);
    // Properties in the right namespace, schema declared for another one.
    expect(ids(await findings(await pdf({ xmp: xmp({ schemaNs: zf1 }) })))).toEqual(["BR-HYBRID-04 error"]);
  });

  test("BR-HYBRID-05: the schema prefix is fx (a ZUGFeRD legacy schema's is zf)", async () => {
    expect(ids(await findings(await pdf({ xmp: xmp({ prefix: "zf" }) })))).toEqual(["BR-HYBRID-05 error"]);
    expect(await findings(await pdf({ xmp: xmp({ ns: ZUGFERD2_XMP_NAMESPACE, prefix: "zf" }) }))).toEqual([]);
    const fx = await findings(await pdf({ xmp: xmp({ ns: ZUGFERD22_LEGACY_XMP_NAMESPACE, prefix: "fx" }) }));
    expect(ids(fx)).toEqual(["BR-HYBRID-05 error"]);
    expect(fx[0]!.message).toContain("it must be zf");
  });

  test("BR-HYBRID-06/07/08/09: values from the code lists", async () => {
    expect(ids(await findings(await pdf({ xmp: xmp({ fx: { DocumentType: null } }) })))).toEqual(["BR-HYBRID-06 error"]);
    expect(ids(await findings(await pdf({ xmp: xmp({ fx: { ConformanceLevel: "BASIC-WL" } }) }), "cii:facturx:basicwl"))).toEqual([
      "BR-HYBRID-07 error",
      "BR-HYBRID-11 warning", // Alternative under BASIC WL
      "BR-HYBRID-15 warning",
    ]);
    expect(ids(await findings(await pdf({ attachments: [{ name: "factur-x.xml" }], xmp: xmp({ fx: { DocumentFileName: "invoice.xml" } }) })))).toEqual([
      "BR-HYBRID-08 error",
      "BR-HYBRID-14 warning",
    ]);
    expect(ids(await findings(await pdf({ xmp: xmp({ fx: { Version: "3.0" } }) })))).toEqual(["BR-HYBRID-09 error", "BR-HYBRID-10 warning"]);
    expect(ids(await findings(await pdf({ xmp: xmp({ fx: { Version: null } }) })))).toEqual(["BR-HYBRID-09 error"]);
  });

  test("BR-HYBRID-09/10: an XRECHNUNG level carries the XRechnung version", async () => {
    const xr = await pdf({
      attachments: [{ name: "xrechnung.xml", relationship: AFRelationship.Source }],
      xmp: xmp({ fx: { DocumentFileName: "xrechnung.xml", Version: "3.0", ConformanceLevel: "XRECHNUNG" } }),
    });
    expect(await findings(xr, "cii:xrechnung")).toEqual([]);
  });

  test("BR-HYBRID-10: fx:Version should be 1.0", async () => {
    expect(ids(await findings(await pdf({ xmp: xmp({ fx: { Version: "2p1" } }) })))).toEqual(["BR-HYBRID-10 warning"]);
  });

  test("BR-HYBRID-11: Data for MINIMUM and BASIC WL, Data/Source/Alternative otherwise", async () => {
    const minimum = xmp({ fx: { ConformanceLevel: "MINIMUM" } });
    expect(ids(await findings(await pdf({ xmp: minimum }), "cii:facturx:minimum"))).toEqual(["BR-HYBRID-11 warning"]);
    for (const relationship of [AFRelationship.Data, AFRelationship.Source, AFRelationship.Alternative]) {
      expect(await findings(await pdf({ attachments: [{ name: "factur-x.xml", relationship }] }))).toEqual([]);
    }
    expect(ids(await findings(await pdf({ attachments: [{ name: "factur-x.xml", relationship: AFRelationship.Supplement }] })))).toEqual(["BR-HYBRID-11 warning"]);
    // No relationship at all: the invoice is still found, so a warning (phive's BR-HYBRID-11), not BR-HYBRID-12.
    const missing = await findings(await pdf({ attachments: [{ name: "factur-x.xml", relationship: null }] }));
    expect(ids(missing)).toEqual(["BR-HYBRID-11 warning"]);
    expect(missing[0]!.message).toContain("no /AFRelationship");
  });

  test("BR-HYBRID-12: only what keeps the one invoice from being found by the embedding method", async () => {
    const only = async (o: Parameters<typeof pdf>[0]) => {
      const fs = await findings(await pdf(o));
      expect(ids(fs)).toEqual(fs.map(() => "BR-HYBRID-12 error"));
      return fs.map((f) => f.message);
    };
    expect(await only({ dropAF: true })).toEqual([expect.stringContaining("not listed in the document catalog's /AF array")]);
    // The MIME type is not judged (phive and Mustang accept any; readers find the invoice by name).
    for (const mimeType of [null, "application/octet-stream", "application/xml", "application/pdf"]) {
      expect(await only({ attachments: [{ name: "factur-x.xml", mimeType }] })).toEqual([]);
    }
    expect(await only({ attachments: [{ name: "factur-x.xml" }, { name: "ZUGFeRD-invoice.xml" }] })).toEqual([expect.stringContaining("2 invoice XML files")]);
    // Other attachments are fine.
    expect(await only({ attachments: [{ name: "factur-x.xml" }, { name: "delivery-note.pdf", mimeType: "application/pdf", relationship: AFRelationship.Supplement }] })).toEqual([]);
  });

  test("BR-HYBRID-13: the embedded file name", async () => {
    const fs = await findings(await pdf({ attachments: [{ name: "ZUGFeRD-invoice.xml" }], xmp: xmp({ fx: { DocumentFileName: "ZUGFeRD-invoice.xml" } }) }));
    expect(ids(fs)).toEqual(["BR-HYBRID-08 error", "BR-HYBRID-13 error"]);
  });

  test("BR-HYBRID-14: the embedded file name matches fx:DocumentFileName", async () => {
    expect(ids(await findings(await pdf({ xmp: xmp({ fx: { DocumentFileName: "xrechnung.xml" } }) })))).toEqual(["BR-HYBRID-14 warning"]);
  });

  test("BR-HYBRID-15: fx:ConformanceLevel matches the XML's profile", async () => {
    expect(ids(await findings(await pdf({ xmp: xmp({ fx: { ConformanceLevel: "BASIC" } }) }), "cii:facturx:en16931"))).toEqual(["BR-HYBRID-15 warning"]);
    expect(await findings(await pdf({ xmp: xmp({ fx: { ConformanceLevel: "EXTENDED" } }) }), "cii:facturx:extended")).toEqual([]);
    // A profile without a Factur-X level is not compared.
    expect(await findings(await pdf(), "cii:peppol")).toEqual([]);
  });
});

describe.skipIf(cannotRun("corpus hybrid PDFs", corpusMissing))("corpus hybrid PDFs", () => {
  test("findings per rule; upstream-correct PDFs are clean except where a rule is stricter", async () => {
    const counts: Record<string, number> = {};
    const errorsOf: Record<string, string[]> = {};
    for (const row of corpusRows().filter((r) => r.syntax === "pdf")) {
      const bytes = corpusFile(row);
      if (!bytes) continue;
      const x = await extractInvoiceXml(bytes);
      if (!x.ok) continue;
      const detection = detect(x.xml, { hybrid: true });
      if (detection.format === "unknown") continue; // ZUGFeRD 1.0: not judged by these rules
      const fs = hybridFindings(x, detection.record);
      for (const f of fs) counts[f.ruleId] = (counts[f.ruleId] ?? 0) + 1;
      const errors = [...new Set(fs.filter((f) => f.severity === "error").map((f) => f.ruleId))];
      if (errors.length) errorsOf[row.path.split("/").pop()!] = errors;
      if (row.expectedValid === true && row.path.split("/").pop() !== "validV2PDF.pdf") {
        expect(errors, row.path).toEqual([]);
      }
    }
    console.log(`hybrid findings over the corpus PDFs: ${JSON.stringify(counts)}`);
    expect(errorsOf).toEqual({
      // fx:ConformanceLevel "no thing" (Mustang asserts its XMP error 12)
      "invalidXMP.pdf": ["BR-HYBRID-07", "BR-HYBRID-12"],
      // factur-x.xml plus a ZUGFeRD 1.0 ZUGFeRD-invoice.xml
      "validV2PDF.pdf": ["BR-HYBRID-12"],
      "MustangRE-20171118_506_ZUGFeRD1and2.pdf": ["BR-HYBRID-12"],
      "corruptedV2PDF.pdf": ["BR-HYBRID-12"],
      // two file specifications named factur-x.xml, one only in /EmbeddedFiles, one only in /AF
      "python-factur-x.pdf": ["BR-HYBRID-12"],
    });
  });
});
