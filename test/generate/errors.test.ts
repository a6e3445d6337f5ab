// Every refusal of generate and parse, with its exact status, code and details; and the small
// decisions around them (aliases, test-mode marking, number formatting).

import { describe, expect, test } from "bun:test";
import { AFRelationship, PDFDocument } from "pdf-lib";
import { generateXml, type GenerateInput } from "../../src/generate/generate.ts";
import { parseDocument } from "../../src/generate/parse.ts";
import { DomainError } from "../../src/errors/domain-error.ts";
import { TEST_MODE_COMMENT } from "../../src/generate/test-mode.ts";
import { amountOf, decimalOf } from "../../src/invoice/to-model.ts";
import type { InvoiceInput } from "../../src/invoice/schema.ts";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const scenario = (name: string) => SCENARIOS.find((s) => s.name === name)!;
const invoiceOf = (locale: keyof typeof LOCALES, name = "domestic, one rate") => scenario(name).build(LOCALES[locale]);
const live = { livemode: true };

function refusal(input: GenerateInput): DomainError {
  try {
    generateXml(input, live);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("generate did not refuse");
}

const without = <T extends object, K extends keyof T>(o: T, ...keys: K[]): Omit<T, K> => {
  const copy = { ...o };
  for (const k of keys) delete copy[k];
  return copy;
};

describe("profile and standard", () => {
  test("a profile outside the table is 422 PROFILE_STANDARD_MISMATCH with the allowed profiles", () => {
    const e = refusal({ standard: "xrechnung", profile: "peppol", invoice: invoiceOf("de") });
    expect([e.status, e.code]).toEqual([422, "PROFILE_STANDARD_MISMATCH"]);
    expect(e.details).toEqual({ standard: "xrechnung", profile: "peppol", allowedProfiles: ["xrechnung"] });
    expect(refusal({ standard: "zugferd", profile: "extended-ctc-fr", invoice: invoiceOf("de") }).details).toEqual({
      standard: "zugferd",
      profile: "extended-ctc-fr",
      allowedProfiles: ["minimum", "basicwl", "basic", "en16931", "extended"],
    });
  });

  test("facturxProfile is an alias of profile for zugferd and facturx, refused elsewhere and when it disagrees", () => {
    expect(generateXml({ standard: "facturx", facturxProfile: "basic", invoice: invoiceOf("fr") }, live).profile).toBe("basic");
    expect(generateXml({ standard: "facturx", profile: "basic", facturxProfile: "basic", invoice: invoiceOf("fr") }, live).profile).toBe("basic");
    const both = refusal({ standard: "facturx", profile: "basic", facturxProfile: "extended", invoice: invoiceOf("fr") });
    expect([both.status, both.code]).toEqual([422, "PROFILE_STANDARD_MISMATCH"]);
    expect(both.details).toMatchObject({ standard: "facturx", profile: "basic", facturxProfile: "extended" });
    const elsewhere = refusal({ standard: "peppol-bis", facturxProfile: "en16931", invoice: invoiceOf("be") });
    expect([elsewhere.code, elsewhere.details?.allowedProfiles]).toEqual(["PROFILE_STANDARD_MISMATCH", ["peppol", "romania-ro-cius", "netherlands-nlcius"]]);
  });

  test("defaults per standard and the syntax choice of xrechnung", () => {
    expect(generateXml({ standard: "zugferd", invoice: invoiceOf("de") }, live)).toMatchObject({ profile: "en16931", syntax: "cii", record: "cii:facturx:en16931" });
    expect(generateXml({ standard: "xrechnung", invoice: invoiceOf("de") }, live).syntax).toBe("cii");
    expect(generateXml({ standard: "xrechnung", syntax: "ubl", invoice: invoiceOf("de") }, live).syntax).toBe("ubl");
    expect(refusal({ standard: "peppol-bis", syntax: "cii", invoice: invoiceOf("be") }).code).toBe("PROFILE_STANDARD_MISMATCH");
  });

  test("national formats are written by their own writers; a simplified document type chooses FatturaPA's FSM10", () => {
    expect(generateXml({ standard: "fatturapa", invoice: invoiceOf("it") }, live)).toMatchObject({ syntax: "fatturapa", profile: "ordinaria", record: "fatturapa:italy-fatturapa-ordinaria-fpr12" });
    const small = { ...invoiceOf("it"), italy: { tipoDocumento: "TD07", regimeFiscale: "RF19" } };
    expect(generateXml({ standard: "fatturapa", invoice: small }, live).record).toBe("fatturapa:italy-fatturapa-semplificata-fsm10");
    expect(generateXml({ standard: "facturae", invoice: invoiceOf("es") }, live)).toMatchObject({ syntax: "facturae", record: "facturae:spain-facturae-v3-2-2" });
    expect(generateXml({ standard: "eslog", invoice: invoiceOf("si") }, live)).toMatchObject({ syntax: "eslog", profile: "eracun", record: "eslog:slovenia-eslog-v2-0" });
  });

  test("a national file states totals computed from the lines; a request whose totals differ is 400 naming each, never a file with other totals", () => {
    for (const [standard, locale] of [["fatturapa", "it"], ["facturae", "es"], ["eslog", "si"]] as const) {
      const invoice = invoiceOf(locale);
      const e = refusal({ standard, invoice: { ...invoice, totalTaxAmount: invoice.totalTaxAmount + 0.01, totalGrossAmount: invoice.totalGrossAmount + 0.01 } });
      expect([standard, e.status, e.code]).toEqual([standard, 400, "VALIDATION_ERROR"]);
      expect((e.details!.fields as { path: string }[]).map((f) => f.path)).toEqual(["/invoice/totalTaxAmount", "/invoice/totalGrossAmount"]);
    }
  });

  test("a credit note for fatturapa or facturae is 422 DOCUMENT_TYPE_STANDARD_MISMATCH", () => {
    const credit = { ...invoiceOf("de"), documentType: "creditnote" as const, precedingInvoiceReference: { id: "1" } };
    for (const standard of ["fatturapa", "facturae"] as const) {
      const e = refusal({ standard, invoice: credit });
      expect([e.status, e.code]).toEqual([422, "DOCUMENT_TYPE_STANDARD_MISMATCH"]);
      expect(e.details?.creditNoteCapableStandards).toEqual(["eslog", "facturx", "peppol-bis", "xrechnung", "zugferd"]);
    }
  });
});

describe("electronic addresses", () => {
  test("peppol-bis: a party with neither peppol nor a VAT id of a supported country is 400 INVALID_REQUEST naming it", () => {
    const invoice = invoiceOf("be");
    const e = refusal({ standard: "peppol-bis", invoice: { ...invoice, buyer: without(invoice.buyer, "vatId") } });
    expect([e.status, e.code]).toEqual([400, "INVALID_REQUEST"]);
    expect(e.details).toMatchObject({ party: "buyer", fields: ["/invoice/buyer/peppol", "/invoice/buyer/vatId"] });
    expect(e.message).toContain("buyer");
    const norway = { ...invoice, seller: { ...invoice.seller, vatId: "NO987654325MVA", address: { ...invoice.seller.address, countryCode: "NO" } } };
    expect(refusal({ standard: "peppol-bis", invoice: norway }).details).toMatchObject({ party: "seller" });
  });

  test("peppol-bis derives the endpoint from the VAT id (BE 9925) unless peppol is given", () => {
    const xml = text(generateXml({ standard: "peppol-bis", invoice: invoiceOf("be") }, live).bytes);
    expect(xml).toContain('<cbc:EndpointID schemeID="9925">BE0123456749</cbc:EndpointID>');
  });

  test("xrechnung accepts peppol, VAT id or e-mail, and refuses a party with none", () => {
    const invoice = invoiceOf("de");
    const mailOnly = { ...invoice, buyer: { ...without(invoice.buyer, "vatId"), email: "ap@kunde.example" } };
    expect(text(generateXml({ standard: "xrechnung", syntax: "ubl", invoice: mailOnly }, live).bytes)).toContain('<cbc:EndpointID schemeID="EM">ap@kunde.example</cbc:EndpointID>');
    const none = { ...invoice, buyer: without(invoice.buyer, "vatId", "email") };
    const e = refusal({ standard: "xrechnung", invoice: none });
    expect([e.status, e.code, e.details?.party, e.details?.fields]).toEqual([400, "INVALID_REQUEST", "buyer", ["/invoice/buyer/peppol", "/invoice/buyer/vatId", "/invoice/buyer/email"]]);
  });
});

describe("request rules beyond the schema", () => {
  const taxCurrency = (message: string) => ({ path: "/invoice/taxCurrencyCode", keyword: "taxCurrency", message: expect.stringContaining(message) });

  test("tax currency misuse is 400 VALIDATION_ERROR on /invoice/taxCurrencyCode", () => {
    const invoice = invoiceOf("de");
    const cases: [Partial<InvoiceInput>, string][] = [
      [{ taxCurrencyCode: "USD" }, "requires taxTotalInAccountingCurrency"],
      [{ taxTotalInAccountingCurrency: 10 }, "must be present"],
      [{ taxCurrencyCode: "EUR", taxTotalInAccountingCurrency: 10 }, "must differ from currencyCode"],
    ];
    for (const [extra, message] of cases) {
      const e = refusal({ standard: "xrechnung", invoice: { ...invoice, ...extra } });
      expect([e.status, e.code]).toEqual([400, "VALIDATION_ERROR"]);
      expect(e.details).toEqual({ fields: [taxCurrency(message)] });
    }
  });

  test("a UBL credit note without the preceding invoice fails closed; CII accepts it", () => {
    const credit = without(scenario("credit note with preceding invoice").build(LOCALES.be), "precedingInvoiceReference");
    const e = refusal({ standard: "peppol-bis", invoice: credit });
    expect([e.status, e.code, e.details]).toEqual([400, "VALIDATION_ERROR", { fields: [{ path: "/invoice", keyword: "required", message: "must have required property 'precedingInvoiceReference'" }] }]);
    expect(generateXml({ standard: "facturx", invoice: credit }, live).syntax).toBe("cii");
  });

  test("credit notes are written with type 381 and the preceding invoice", () => {
    const credit = scenario("credit note with preceding invoice").build(LOCALES.be);
    const ubl = text(generateXml({ standard: "peppol-bis", invoice: credit }, live).bytes);
    expect(ubl).toContain("<CreditNote ");
    expect(ubl).toContain("<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>");
    expect(ubl).toMatch(/<cac:BillingReference>\s*<cac:InvoiceDocumentReference>\s*<cbc:ID>INV-2025-002<\/cbc:ID>/);
    const cii = text(generateXml({ standard: "zugferd", invoice: credit }, live).bytes);
    expect(cii).toContain("<ram:TypeCode>381</ram:TypeCode>");
    expect(cii).toMatch(/<ram:InvoiceReferencedDocument>\s*<ram:IssuerAssignedID>INV-2025-002<\/ram:IssuerAssignedID>/);
  });

  test("netherlands-nlcius: a Dutch party needs its KvK/OIN id as peppol; 9944 alone is refused", () => {
    const invoice = invoiceOf("nl");
    const vatOnly = { ...invoice, seller: { ...invoice.seller, peppol: { schemeId: "9944", id: "NL123456789B01" } } };
    const e = refusal({ standard: "peppol-bis", profile: "netherlands-nlcius", invoice: vatOnly });
    expect([e.status, e.code, e.details?.party]).toEqual([400, "INVALID_REQUEST", "seller"]);
    expect(e.message).toContain("9944");
    const xml = text(generateXml({ standard: "peppol-bis", profile: "netherlands-nlcius", invoice }, live).bytes);
    expect(xml).toContain('<cbc:CompanyID schemeID="0106">12345678</cbc:CompanyID>');
    expect(xml).toContain("urn:cen.eu:en16931:2017#compliant#urn:fdc:nen.nl:nlcius:v1.0");
  });

  test("romania-ro-cius: county required on Romanian addresses, VAT in RON when the invoice is not", () => {
    const invoice = invoiceOf("ro");
    const noCounty = { ...invoice, buyer: { ...invoice.buyer, address: without(invoice.buyer.address, "countrySubentity") } };
    const e = refusal({ standard: "peppol-bis", profile: "romania-ro-cius", invoice: noCounty });
    expect([e.status, e.code, e.details]).toEqual([400, "VALIDATION_ERROR", { fields: [{ path: "/invoice/buyer/address", keyword: "required", message: "must have required property 'countrySubentity'" }] }]);
    const inEur = refusal({ standard: "peppol-bis", profile: "romania-ro-cius", invoice: { ...invoice, currencyCode: "EUR" } });
    expect(inEur.details).toEqual({ fields: [taxCurrency("must be RON")] });
    const xml = text(generateXml({ standard: "peppol-bis", profile: "romania-ro-cius", invoice }, live).bytes);
    expect(xml).toContain('<cbc:EndpointID schemeID="9947">RO1234567897</cbc:EndpointID>');
    expect(xml).toContain("urn:cen.eu:en16931:2017#compliant#urn:efactura.mfinante.ro:CIUS-RO:1.0.1");
  });

  test("France CTC: businessProcessId is BT-23 on Factur-X when franceCtc is on, and only then", () => {
    const invoice = { ...invoiceOf("fr"), businessProcessId: "S8" as const };
    const on = text(generateXml({ standard: "facturx", profile: "extended-ctc-fr", invoice: { ...invoice, franceCtc: true } }, live).bytes);
    expect(on).toMatch(/<ram:BusinessProcessSpecifiedDocumentContextParameter>\s*<ram:ID>S8<\/ram:ID>/);
    expect(on).toContain("urn:cen.eu:en16931:2017#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr");
    const off = text(generateXml({ standard: "facturx", invoice }, live).bytes);
    expect(off).not.toContain("BusinessProcessSpecifiedDocumentContextParameter");
  });
});

describe("output", () => {
  test("test mode puts the marking comment right after the XML declaration", () => {
    const input: GenerateInput = { standard: "xrechnung", invoice: invoiceOf("de") };
    const xml = text(generateXml(input, { livemode: false }).bytes);
    expect(xml.startsWith(`<?xml version="1.0" encoding="UTF-8"?>\n${TEST_MODE_COMMENT}\n<rsm:CrossIndustryInvoice`)).toBe(true);
    expect(TEST_MODE_COMMENT).toMatch(/test mode.*not a valid production invoice.*not transmitted/i);
    expect(text(generateXml(input, live).bytes)).not.toContain("TEST MODE");
  });

  test("numbers become exact decimals: amounts with 2 decimals, quantities and prices as given, no float noise", () => {
    expect([decimalOf(0.1 + 0.2), amountOf(0.1 + 0.2), decimalOf(1e-7), amountOf(1.005), amountOf(-2.345), decimalOf(12.5)]).toEqual(["0.3", "0.30", "0.0000001", "1.01", "-2.35", "12.5"]);
    const xml = text(generateXml({ standard: "peppol-bis", invoice: scenario("domestic, two rates").build(LOCALES.be) }, live).bytes);
    expect(xml).not.toContain("0000000");
    expect(xml).toContain('<cbc:PriceAmount currencyID="EUR">0.3</cbc:PriceAmount>');
    expect(xml).toContain('<cbc:LineExtensionAmount currencyID="EUR">0.60</cbc:LineExtensionAmount>');
  });

  test("categories that need an exemption reason get the standard one when none is given", () => {
    const invoice = invoiceOf("be", "cross-border reverse charge (AE)");
    const bare = { ...invoice, taxSummary: invoice.taxSummary!.map((t) => without(t, "exemptionReasonText", "exemptionReasonCode")) };
    const xml = text(generateXml({ standard: "peppol-bis", invoice: bare }, live).bytes);
    expect(xml).toContain("<cbc:TaxExemptionReasonCode>VATEX-EU-AE</cbc:TaxExemptionReasonCode>");
    expect(xml).toContain("<cbc:TaxExemptionReason>Reverse charge</cbc:TaxExemptionReason>");
  });

  test("sub-lines a target cannot carry are dropped and reported lost", () => {
    const generated = generateXml({ standard: "peppol-bis", invoice: scenario("sub-lines").build(LOCALES.be) }, live);
    expect(generated.lost).toContainEqual({ bt: "BG-DEX-01", xpath: "/invoice/lines/0/subLines" });
    const xr = generateXml({ standard: "xrechnung", syntax: "ubl", invoice: scenario("sub-lines").build(LOCALES.de) }, live);
    expect(xr.customizationId).toBe("urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0");
    expect(text(xr.bytes)).toContain("<cac:SubInvoiceLine>");
  });
});

describe("parse", () => {
  const failure = async (bytes: Uint8Array) => {
    try {
      await parseDocument(bytes);
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
    throw new Error("parse did not refuse");
  };
  const utf8 = (s: string) => new TextEncoder().encode(s);

  test("malformed XML, unknown roots and national formats are 400 PARSE_FAILED", async () => {
    const malformed = await failure(utf8('<?xml version="1.0"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><cbc:ID>'));
    expect([malformed.status, malformed.code]).toEqual([400, "PARSE_FAILED"]);
    expect((await failure(utf8("<note/>"))).code).toBe("PARSE_FAILED");
    const fattura = await failure(utf8('<p:FatturaElettronica xmlns:p="http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2" versione="FPR12"/>'));
    expect([fattura.code, fattura.message]).toEqual(["PARSE_FAILED", expect.stringContaining("FatturaPA")]);
    const facturae = await failure(utf8('<fe:Facturae xmlns:fe="http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml"/>'));
    expect(facturae.message).toContain("Facturae");
    const sdi = await failure(utf8('<ns:RicevutaConsegna xmlns:ns="http://www.fatturapa.gov.it/sdi/messaggi/v1.0"/>'));
    expect(sdi.message).toContain("SDI");
  });

  test("hybrid PDFs are read through their embedded XML; a PDF without one is refused", async () => {
    const generated = generateXml({ standard: "facturx", invoice: invoiceOf("fr") }, live);
    const pdf = async (name?: string) => {
      const doc = await PDFDocument.create();
      doc.addPage();
      if (name) await doc.attach(generated.bytes, name, { mimeType: "text/xml", afRelationship: AFRelationship.Alternative });
      return doc.save();
    };
    const parsed = await parseDocument(await pdf("factur-x.xml"));
    expect(parsed).toMatchObject({ format: "cii", profileDetected: "facturx:en16931", invoice: { number: "INV-2025-001" } });
    const none = await failure(await pdf());
    expect([none.status, none.code]).toEqual([400, "PARSE_FAILED"]);
  });

  test("a hint that does not match the document is refused", async () => {
    const ubl = generateXml({ standard: "peppol-bis", invoice: invoiceOf("be") }, live).bytes;
    expect((await parseDocument(ubl, { hint: "ubl" })).format).toBe("ubl");
    try {
      await parseDocument(ubl, { hint: "cii" });
      throw new Error("parse did not refuse");
    } catch (error) {
      expect(error).toMatchObject({ status: 400, code: "PARSE_FAILED" });
    }
  });
});
