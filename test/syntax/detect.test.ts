import { describe, expect, test } from "bun:test";
import { detect, recordForId, type Detection } from "../../src/syntax/detect.ts";
import { extractInvoiceXml } from "../../src/pdf/attachments.ts";
import { corpusFile, corpusMissing, corpusRows, type CorpusRow } from "../support/corpus.ts";
import { cannotRun } from "../support/requirements.ts";

const ubl = (customizationId: string, root = "Invoice") =>
  `<?xml version="1.0"?><${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:CustomizationID>${customizationId}</cbc:CustomizationID></${root}>`;
const cii = (guideline: string, typeCode = "380") =>
  `<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"><rsm:ExchangedDocumentContext><ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>A1</ram:ID></ram:BusinessProcessSpecifiedDocumentContextParameter><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${guideline}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext><rsm:ExchangedDocument><ram:ID>1</ram:ID><ram:TypeCode>${typeCode}</ram:TypeCode></rsm:ExchangedDocument></rsm:CrossIndustryInvoice>`;
const EN = "urn:cen.eu:en16931:2017";

describe("customization id table", () => {
  test.each([
    [`${EN}#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0`, "xrechnung"],
    [`${EN}#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0`, "xrechnung"],
    [`${EN}#compliant#urn:xoev-de:kosit:standard:xrechnung_2.3`, "xrechnung"],
    [`${EN}#compliant#urn:xoev-de:kosit:standard:xrechnung_1.2`, "xrechnung"],
    [`${EN}#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0`, "peppol"],
    [`${EN}#compliant#urn:efactura.mfinante.ro:CIUS-RO:1.0.1`, "romania-ro-cius"],
    [`${EN}#compliant#urn:efactura.mfinante.ro:CIUS-RO:1.0.0`, "romania-ro-cius"],
    [`${EN}#compliant#urn:fdc:nen.nl:nlcius:v1.0`, "netherlands-nlcius"],
    [`${EN}#compliant#urn:fdc:nen.nl:nlcius:v1.0#conformant#urn:fdc:nen.nl:gaccount:v1.0`, "netherlands-nlcius"],
    [EN, "en16931"],
    [`${EN}#compliant#urn:example:unknown-cius`, "en16931"],
  ] as const)("UBL %s -> %s", (id, profile) => {
    expect(detect(ubl(id)).profileDetected).toBe(profile);
  });

  test.each([
    [`${EN}#conformant#urn:zugferd.de:2p0:extended`, "facturx:extended"],
    [`${EN}#conformant#urn:factur-x.eu:1p0:extended`, "facturx:extended"],
    [`${EN}:compliant:factur-x.eu:1p0:extended`, "facturx:extended"],
    [`${EN}#compliant#urn:factur-x.eu:1p0:basic`, "facturx:basic"],
    [`${EN}#compliant#urn:zugferd.de:2p0:basic`, "facturx:basic"],
    ["urn:factur-x.eu:1p0:basicwl", "facturx:basicwl"],
    ["urn:zugferd.de:2p0:basicwl", "facturx:basicwl"],
    ["urn:factur-x.eu:1p0:minimum", "facturx:minimum"],
    [`${EN}#compliant#urn:fdc:nen.nl:nlcius:v1.0`, "netherlands-nlcius"],
    [`${EN}#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0`, "xrechnung"],
    [EN, "en16931"],
  ] as const)("CII %s -> %s", (id, profile) => {
    expect(detect(cii(id)).profileDetected).toBe(profile);
  });

  test("Factur-X levels are CII only; a UBL document claiming one stays EN 16931", () => {
    expect(recordForId(`${EN}#conformant#urn:factur-x.eu:1p0:extended`, "ubl")?.id).toBe("ubl:en16931");
    expect(recordForId("urn:factur-x.eu:1p0:minimum", "ubl")).toBeUndefined();
  });

  test("EXTENDED-CTC-FR is its own record on top of the EXTENDED level, in CII and UBL", () => {
    const id = `${EN}#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr`;
    expect([detect(cii(id)), detect(ubl(id))].map((d) => [d.profileDetected, d.record?.id])).toEqual([
      ["facturx:extended", "cii:facturx:extended-ctc-fr"],
      ["facturx:extended", "ubl:extended-ctc-fr"],
    ]);
    expect(detect(cii(`${EN}#conformant#urn:factur-x.eu:1p0:extended`)).record?.id).toBe("cii:facturx:extended");
  });

  test("bare EN 16931 id inside a hybrid PDF is the Factur-X EN16931 level", () => {
    expect(detect(cii(EN), { hybrid: true }).profileDetected).toBe("facturx:en16931");
    expect(detect(cii(`${EN}#compliant#urn:xoev-de:kosit:standard:xrechnung_2.1`), { hybrid: true }).profileDetected).toBe("xrechnung");
  });

  test("whitespace around the id is ignored", () => {
    const d = detect(ubl(`\n      ${EN}#compliant#urn:fdc:nen.nl:nlcius:v1.0\n    `));
    expect(d.profileDetected).toBe("netherlands-nlcius");
    expect(d.customizationId).toBe(`${EN}#compliant#urn:fdc:nen.nl:nlcius:v1.0`);
  });
});

describe("roots and document types", () => {
  test("UBL credit note and CII credit note type codes", () => {
    expect(detect(ubl(EN, "CreditNote"))).toMatchObject({ format: "ubl", documentType: "creditnote" });
    expect(detect(cii(EN, "381")).documentType).toBe("creditnote");
    expect(detect(cii(EN, "380")).documentType).toBe("invoice");
  });

  test("CustomizationID inside UBLExtensions is not taken for BT-24", () => {
    const xml = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2" xmlns:ext="urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2"><ext:UBLExtensions><ext:UBLExtension><cbc:CustomizationID>urn:factur-x.eu:1p0:minimum</cbc:CustomizationID></ext:UBLExtension></ext:UBLExtensions><cbc:CustomizationID>${EN}#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID></Invoice>`;
    expect(detect(xml).profileDetected).toBe("peppol");
  });

  test("FatturaPA versions, credit notes by TipoDocumento", () => {
    const fp = (versione: string, ...types: string[]) =>
      `<p:FatturaElettronica versione="${versione}" xmlns:p="http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2">${types.map((t) => `<FatturaElettronicaBody><TipoDocumento>${t}</TipoDocumento></FatturaElettronicaBody>`).join("")}</p:FatturaElettronica>`;
    expect(detect(fp("FPR12", "TD01"))).toMatchObject({ format: "fatturapa", profileDetected: "italy-fatturapa-ordinaria-fpr12", documentType: "invoice" });
    expect(detect(fp("FPA12", "TD04", "TD08"))).toMatchObject({ profileDetected: "italy-fatturapa-ordinaria-fpa12", documentType: "creditnote" });
    expect(detect(fp("FPA12", "TD04", "TD01")).documentType).toBe("invoice");
  });

  test("Facturae 3.2.2, e-SLOG 2.0 and SDI messages", () => {
    expect(detect(`<fe:Facturae xmlns:fe="http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml"><Invoices><Invoice><Corrective/></Invoice></Invoices></fe:Facturae>`))
      .toMatchObject({ format: "facturae", profileDetected: "spain-facturae-v3-2-2", documentType: "creditnote" });
    expect(detect(`<Invoice xmlns="urn:eslog:2.00"><M_INVOIC><S_BGM><C_C002><D_1001>381</D_1001></C_C002></S_BGM></M_INVOIC></Invoice>`))
      .toMatchObject({ format: "eslog", profileDetected: "slovenia-eslog-v2-0", documentType: "creditnote" });
    expect(detect(`<types:NotificaScarto xmlns:types="http://www.fatturapa.gov.it/sdi/messaggi/v1.0" versione="1.0"/>`))
      .toMatchObject({ format: "sdi_messaggio", profileDetected: "italy-sdi-notifica-scarto", documentType: "message" });
  });

  test("ZUGFeRD 1.0 CrossIndustryDocument is recognised but unsupported", () => {
    const d = detect(`<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0"/>`);
    expect(d.format).toBe("unknown");
    expect(d.note).toContain("ZUGFeRD 1.0");
  });

  test("prolog: BOM, comments, PIs, DOCTYPE skipped; UTF-16 decoded", () => {
    const body = `<!-- c --><?pi x?><!DOCTYPE Invoice [<!ENTITY a "b">]>${ubl(EN).replace('<?xml version="1.0"?>', "")}`;
    expect(detect(`\uFEFF<?xml version="1.0"?>${body}`).format).toBe("ubl");
    const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(new Uint16Array([...ubl(EN)].map((c) => c.charCodeAt(0))).buffer)]);
    expect(detect(utf16).profileDetected).toBe("en16931");
  });

  test("not XML, empty, or unknown root", () => {
    expect(detect("").format).toBe("unknown");
    expect(detect("%PDF-1.7").format).toBe("unknown");
    expect(detect(`<foo xmlns="urn:x"/>`)).toMatchObject({ format: "unknown", root: { namespace: "urn:x", localName: "foo" } });
  });

  test("format hint: honoured, and a mismatch is explained", () => {
    expect(detect(ubl(EN), { hint: "ubl" }).profileDetected).toBe("en16931");
    const d = detect(ubl(EN), { hint: "cii" });
    expect(d.format).toBe("cii");
    expect(d.profileDetected).toBeUndefined();
    expect(d.note).toContain('format hint "cii"');
  });
});

// --- agreement with the corpus ----------------------------------------------------------------

/** Our labels for the corpus' own profile names where they differ only in spelling. */
const CORPUS_LABELS: Record<string, string> = {
  "fatturapa:FPR12": "italy-fatturapa-ordinaria-fpr12",
  "fatturapa:FPA12": "italy-fatturapa-ordinaria-fpa12",
  "fatturapa:FSM10": "italy-fatturapa-semplificata-fsm10",
  "facturae:3.2.2": "spain-facturae-v3-2-2",
  "sdi:RC": "italy-sdi-ricevuta-consegna",
  "sdi:NS": "italy-sdi-notifica-scarto",
  "sdi:MC": "italy-sdi-notifica-mancata-consegna",
  "sdi:NE": "italy-sdi-notifica-esito",
  "sdi:EC": "italy-sdi-notifica-esito-committente",
  "sdi:SE": "italy-sdi-scarto-esito-committente",
  "sdi:DT": "italy-sdi-notifica-decorrenza-termini",
  "sdi:AT": "italy-sdi-attestazione-trasmissione-fattura",
  "sdi:MT": "italy-sdi-metadati-invio-file",
  "eslog:2.0": "slovenia-eslog-v2-0",
  unknown: "(none)",
};

/** Why a disagreement is expected; undefined means it is a detection bug. */
function explain(row: CorpusRow, d: Detection, expectedFormat: string, extractedName?: string): string | undefined {
  const specId = row.specId?.trim();
  const corpusName = /Embedded XML: ([^\]]*?\.xml)/.exec(row.note)?.[1];
  if (row.syntax === "pdf" && extractedName && corpusName && extractedName !== corpusName) {
    return `PDF carries ${corpusName} and ${extractedName}; we prefer ${extractedName} (accepted-name order), the corpus read ${corpusName}`;
  }
  if (row.syntax === "pdf" && extractedName && !corpusName) return `the corpus tool found no invoice XML; extraction here finds ${extractedName}`;
  if (row.syntax === "pdf" && extractedName && !specId && d.profileDetected) {
    return "the corpus could not read this embedded XML (invalid encoding declaration); the text scan still reads its id";
  }
  if (d.format === "unknown" && !d.root && row.expectedValid === false) return "not well-formed XML, so no root element can be read; the corpus labels it by its upstream test";
  if (d.note?.includes("ZUGFeRD 1.0")) return "ZUGFeRD 1.0 CrossIndustryDocument: unsupported, reported as format unknown";
  if (d.format === "unknown" && d.root) return `root {${d.root.namespace}}${d.root.localName} is no supported document (deliberately wrong root)`;
  if (d.format !== expectedFormat) return undefined;
  if (!specId && !d.profileDetected) return "no BT-24 in the document (unit-test fragment or deliberately missing id); the corpus label is the rule set of the test";
  if (row.profile === "en16931" && d.profileDetected && d.profileDetected !== "en16931") {
    return "upstream ran only the EN 16931 rules on a document that declares a CIUS";
  }
  if (row.profile === "unknown" && d.profileDetected) return "corpus has no label for this file; detection reads the declared id";
  const declared = specId && d.format !== "unknown" ? recordForId(specId, d.format) : undefined;
  if (declared?.profile === "en16931" && specId !== "urn:cen.eu:en16931:2017") {
    return row.syntax === "ubl" && specId?.includes("factur-x")
      ? "Factur-X ids are CII only; a UBL document declaring one is treated as plain EN 16931"
      : `non-standard id "${specId}" (no CIUS of ours); falls back to the EN 16931 prefix`;
  }
  if (specId?.startsWith("urn:ferd:")) return `ZUGFeRD 1.0 id "${specId}" in a CII D16B document names no EN 16931 profile`;
  if (specId && !declared) return `id "${specId}" matches no catalogue record`;
  return undefined;
}

describe.skipIf(cannotRun("agreement with the corpus", corpusMissing))("agreement with ../shared/corpus/expected.json", () => {
  test("syntax and profile, explained where they differ", async () => {
    const table = new Map<string, { rows: number; agree: number; reasons: Map<string, number> }>();
    const unexplained: string[] = [];
    for (const row of corpusRows()) {
      const bytes = corpusFile(row);
      if (!bytes) continue;
      let d: Detection;
      let extractedName: string | undefined;
      let expectedFormat: string = row.syntax;
      if (row.syntax === "pdf") {
        const x = await extractInvoiceXml(bytes);
        extractedName = x.ok ? x.name : undefined;
        d = x.ok ? detect(x.xml, { hybrid: true }) : { format: "unknown", note: x.message };
        expectedFormat = row.profile === "unknown" && !row.specId ? "unknown" : "cii";
      } else {
        d = detect(bytes);
      }
      const expected = CORPUS_LABELS[row.profile] ?? row.profile;
      const agree = d.format === expectedFormat && (d.profileDetected ?? "(none)") === expected;
      const key = `${row.syntax.padEnd(13)} ${row.profile.padEnd(20)} -> ${d.format.padEnd(13)} ${d.profileDetected ?? "(none)"}`;
      const entry = table.get(key) ?? { rows: 0, agree: 0, reasons: new Map() };
      entry.rows++;
      if (agree) entry.agree++;
      else {
        const reason = explain(row, d, expectedFormat, extractedName);
        if (!reason) unexplained.push(`${row.path}: ${key} (specId ${JSON.stringify(row.specId)})`);
        entry.reasons.set(reason ?? "UNEXPLAINED", (entry.reasons.get(reason ?? "UNEXPLAINED") ?? 0) + 1);
      }
      table.set(key, entry);
    }
    const lines = [...table].sort(([a], [b]) => a.localeCompare(b)).map(([key, e]) =>
      `${`${e.agree}/${e.rows}`.padStart(9)} agree  ${key}${[...e.reasons].map(([r, n]) => `\n              ${n} x ${r}`).join("")}`);
    const rows = [...table.values()].reduce((n, e) => n + e.rows, 0);
    const agreeing = [...table.values()].reduce((n, e) => n + e.agree, 0);
    console.log(`detection vs corpus (corpus syntax, corpus profile -> detected format, detected profile)\n${lines.join("\n")}\n${agreeing}/${rows} agree`);
    expect(unexplained).toEqual([]);
  }, 60_000);
});
