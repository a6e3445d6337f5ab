// A document whose values the JSON invoice cannot take is refused like malformed XML: 400
// PARSE_FAILED naming the value, never a RangeError answered as a 500.

import { expect, test } from "bun:test";
import { generateXml } from "../../src/generate/generate.ts";
import { parseDocument } from "../../src/generate/parse.ts";
import { DomainError } from "../../src/errors/domain-error.ts";
import { LOCALES, MULTI_VENDOR, MULTI_VENDOR_ACCOUNTING, SCENARIOS } from "../../fixtures/invoices.ts";
import { decimalOf } from "../../src/invoice/to-model.ts";
import { DOM_LIMITS, readXmlText } from "../../src/syntax/xml-policy.ts";

const invoice = SCENARIOS[0].build(LOCALES.de);
const QUANTITY = { ubl: /(<cbc:InvoicedQuantity[^>]*>)[^<]*/, cii: /(<ram:BilledQuantity[^>]*>)[^<]*/ };

for (const syntax of ["ubl", "cii"] as const) {
  test(`${syntax}: a quantity that is not a number is 400 PARSE_FAILED naming it`, async () => {
    const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax, invoice }, { livemode: true }).bytes);
    const refusal = await parseDocument(new TextEncoder().encode(xml.replace(QUANTITY[syntax], "$1twelve"))).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ status: 400, code: "PARSE_FAILED", details: { format: syntax } });
    expect((refusal as Error).message).toContain('"twelve"');
  });
}

for (const syntax of ["ubl", "cii"] as const) {
  test(`${syntax}: a quantity longer than a JSON number carries is 400 PARSE_FAILED, not null or a rounded number`, async () => {
    const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax, invoice }, { livemode: true }).bytes);
    const huge = "9".repeat(400);
    const refusal = await parseDocument(new TextEncoder().encode(xml.replace(QUANTITY[syntax], `$1${huge}`))).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 400, code: "PARSE_FAILED" });
    expect((refusal as Error).message).toContain("2^53 - 1");
  });
}

test("decimalOf reads the largest doubles exactly instead of rounding them to Infinity", () => {
  expect(decimalOf(Number.MAX_VALUE)).toBe(`17976931348623157${"0".repeat(292)}`);
  expect(decimalOf(-Number.MAX_VALUE)).toStartWith("-17976931348623157");
});

test("parse reads at most DOM_LIMITS.maxElements elements into a tree (a megabyte of empty elements cost 200 MiB); the rule engines' reading has no such limit", async () => {
  const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax: "ubl", invoice }, { livemode: true }).bytes);
  const flooded = new TextEncoder().encode(xml.replace(/(<cbc:ID>)/, `${"<X/>".repeat(DOM_LIMITS.maxElements!)}$1`));
  const refusal = await parseDocument(flooded).catch((error: unknown) => error);
  expect(refusal).toMatchObject({ status: 400, code: "PARSE_FAILED" });
  expect((refusal as Error).message).toContain(`more than ${DOM_LIMITS.maxElements!.toLocaleString("en-US")} elements`);
  expect(readXmlText(flooded).length).toBeGreaterThan(DOM_LIMITS.maxElements! * 4);
});

// Parse output is generate input (src/invoice/generate-ready.ts): one meaning in two spellings is
// normalised; a value the generate schema refuses leaves an optional field, or stays in a required
// one, with a warning either way.

const withBank = () => ({ ...structuredClone(invoice), paymentMeans: { typeCode: "58", iban: "DE02120300000000202051", bic: "BYLADEM1001" } });

test("an IBAN and a BIC printed in groups, a VAT id with spaces and dots and a date with a time zone come back in the schema's spelling, without warnings", async () => {
  const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax: "ubl", invoice: withBank() }, { livemode: true }).bytes);
  const spelled = xml
    .replace("DE02120300000000202051", "de02 1203 0000 0000 2020 51")
    .replace(">BYLADEM1001<", "> byla dem1 001 <")
    .replaceAll(">DE123456789<", ">DE 123.456.789<")
    .replace(/(<cbc:IssueDate>)(\d{4}-\d{2}-\d{2})/, "$1$2+01:00");
  const parsed = await parseDocument(new TextEncoder().encode(spelled));
  expect(parsed.warnings).toEqual([]);
  expect(parsed.invoice.paymentMeans).toMatchObject({ iban: "DE02120300000000202051", bic: "BYLADEM1001" });
  expect(parsed.invoice.seller).toMatchObject({ vatId: "DE123456789" });
  expect(parsed.invoice.seller.peppol).toBeUndefined();
  expect(parsed.invoice.issueDate).toBe(invoice.issueDate);
});

test("a local transfer's national account and provider ids (BT-84, BT-86 are not only IBAN and BIC) are generated and parsed back as given", async () => {
  const local = { ...structuredClone(invoice), paymentMeans: { typeCode: "30", iban: "47668033", bic: "SE:PLUSGIRO" } };
  const xml = generateXml({ standard: "xrechnung", syntax: "ubl", invoice: local }, { livemode: true }).bytes;
  const parsed = await parseDocument(xml);
  expect(parsed.warnings).toEqual([]);
  expect(parsed.invoice.paymentMeans).toMatchObject(local.paymentMeans);
});

test("a value the generate schema refuses in an optional field is left out and reported: path, value, reason", async () => {
  const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax: "ubl", invoice: withBank() }, { livemode: true }).bytes);
  const parsed = await parseDocument(new TextEncoder().encode(xml.replace(">BYLADEM1001<", ">BIC_MONCOMPTE<")));
  expect(parsed.invoice.paymentMeans).toEqual({ typeCode: "58", iban: "DE02120300000000202051" });
  expect(parsed.warnings).toEqual([
    { path: "/paymentMeans/bic", value: "BIC_MONCOMPTE", reason: "must NOT have more than 11 characters", action: "omitted" },
  ]);
});

test("an electronic address under a scheme the API cannot carry leaves the whole peppol block; one under EM becomes the party's email when it has none", async () => {
  const buyer = { ...invoice.buyer, email: undefined, peppol: { schemeId: "0088", id: "4000001000005" } };
  const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax: "ubl", invoice: { ...invoice, buyer } }, { livemode: true }).bytes);
  const em = await parseDocument(new TextEncoder().encode(xml.replace('schemeID="0088">4000001000005', 'schemeID="EM">buyer@kunde.example')));
  expect(em.warnings).toEqual([]);
  expect(em.invoice.buyer.email).toBe("buyer@kunde.example");
  expect(em.invoice.buyer.peppol).toBeUndefined();

  const gln = await parseDocument(new TextEncoder().encode(xml.replace('schemeID="0088"', 'schemeID="GLN"')));
  expect(gln.invoice.buyer.peppol).toBeUndefined();
  expect(gln.warnings).toEqual([
    { path: "/buyer/peppol", value: { schemeId: "GLN", id: "4000001000005" }, reason: "/buyer/peppol/schemeId must NOT have fewer than 4 characters", action: "omitted" },
  ]);
});

test("a tax currency equal to the invoice currency, which EN 16931 allows and generate refuses, leaves with its tax total", async () => {
  const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax: "ubl", invoice }, { livemode: true }).bytes);
  const same = xml.replace(/(<cbc:DocumentCurrencyCode>)(\w+)(<\/cbc:DocumentCurrencyCode>)/, "$1$2$3<cbc:TaxCurrencyCode>$2</cbc:TaxCurrencyCode>");
  expect(same).toContain("<cbc:TaxCurrencyCode>");
  const parsed = await parseDocument(new TextEncoder().encode(same));
  expect(parsed.invoice.taxCurrencyCode).toBeUndefined();
  expect(parsed.warnings).toEqual([{ path: "/taxCurrencyCode", value: invoice.currencyCode, reason: "taxCurrencyCode requires taxTotalInAccountingCurrency (BT-111)", action: "omitted" }]);
});

test("a line with a negative quantity leaves the lines, its whole value in the warning; the totals are left as the document gave them", async () => {
  const twoLines = { ...invoice, lines: [invoice.lines[0]!, { ...invoice.lines[0]!, description: "second" }] };
  const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax: "ubl", invoice: twoLines }, { livemode: true }).bytes);
  const parsed = await parseDocument(new TextEncoder().encode(xml.replace(QUANTITY.ubl, "$1-1")));
  expect(parsed.invoice.lines.map((l) => l.description)).toEqual(["second"]);
  expect(parsed.warnings).toMatchObject([{ path: "/lines/0", value: { quantity: -1, description: invoice.lines[0]!.description }, reason: "/lines/0/quantity must be > 0", action: "omitted" }]);
  expect(parsed.invoice.totalNetAmount).toBe(invoice.totalNetAmount);
});

test("lines no one of which the API can carry stay as an empty list with a kept warning, each line in its own warning", async () => {
  const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax: "ubl", invoice: { ...invoice, lines: [invoice.lines[0]!] } }, { livemode: true }).bytes);
  const parsed = await parseDocument(new TextEncoder().encode(xml.replace(QUANTITY.ubl, "$1-1")));
  expect(parsed.invoice.lines).toEqual([]);
  expect(parsed.warnings).toMatchObject([
    { path: "/lines/0", value: { quantity: -1 }, action: "omitted" },
    { path: "/lines", value: [], reason: "must NOT have fewer than 1 items", action: "kept" },
  ]);
});

test("a document that leaves empty a term every invoice states is 400 PARSE_FAILED naming each, not an invoice generate refuses", async () => {
  const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax: "ubl", invoice }, { livemode: true }).bytes);
  const empty = xml.replace(/(<cbc:ID>)[^<]*(<\/cbc:ID>)/, "$1$2");
  const refused = await parseDocument(new TextEncoder().encode(empty)).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(DomainError);
  expect(refused).toMatchObject({ status: 400, code: "PARSE_FAILED", details: { format: "ubl", fields: [{ path: "/number", value: "", reason: "must NOT have fewer than 1 characters" }] } });
  expect((refused as DomainError).message).toContain("/number");
});

test("a sub-line without the quantity the API requires leaves with a warning, and the emptied sub-line list with it; the invoice still parses", async () => {
  const [line] = invoice.lines;
  const withSubLines = { ...invoice, lines: [{ ...line!, subLines: [{ ...line!, description: "part" }] }, ...invoice.lines.slice(1)] };
  const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax: "ubl", invoice: withSubLines }, { livemode: true }).bytes);
  const quantities = [...xml.matchAll(/<cbc:InvoicedQuantity[^>]*>[^<]*<\/cbc:InvoicedQuantity>/g)];
  expect(quantities.length).toBeGreaterThan(1);
  const sub = quantities[1]!;
  const parsed = await parseDocument(new TextEncoder().encode(xml.slice(0, sub.index) + xml.slice(sub.index! + sub[0].length)));
  expect(parsed.invoice.lines[0]!.subLines).toBeUndefined();
  expect(parsed.warnings).toMatchObject([{ path: "/lines/0/subLines/0", value: { description: "part" }, reason: "/lines/0/subLines/0/quantity is required", action: "omitted" }]);
});

// France CTC multi-vendor fields (docs/generate.md, France CTC): written on every line of a sub-invoice,
// given back once, on its group line, in both syntaxes.

const multiVendor = { ...MULTI_VENDOR.build(LOCALES.fr), franceCtc: true, businessProcessId: "S8" as const };
const groupFields = (lines: typeof multiVendor.lines) =>
  lines.map((l) => ({
    subInvoiceNumber: l.subInvoiceNumber,
    seller: l.seller,
    taxTotal: l.taxTotal,
    taxTotalInAccountingCurrency: l.taxTotalInAccountingCurrency,
    subLines: l.subLines?.map((s) => [s.subInvoiceNumber, s.seller, s.taxTotal]),
  }));

test("cii: parse gives back each sub-invoice's number, seller and VAT total on its group line, not again on its sub-lines", async () => {
  const xml = new TextDecoder().decode(generateXml({ standard: "facturx", profile: "extended-ctc-fr", invoice: multiVendor }, { livemode: true }).bytes);
  expect(xml.match(/<ram:ReferenceTypeCode>AFL<\/ram:ReferenceTypeCode>/g)).toHaveLength(5);
  expect(xml.match(/<ram:ItemSellerTradeParty>/g)).toHaveLength(5);
  expect(xml).toContain("<ram:ExemptionReason>#AM-2025-118#</ram:ExemptionReason>");
  const parsed = await parseDocument(new TextEncoder().encode(xml));
  expect(groupFields(parsed.invoice.lines)).toEqual(groupFields(multiVendor.lines));
  expect(groupFields(parsed.invoice.lines)[1]).toEqual({
    subInvoiceNumber: "AM-2025-118",
    seller: { name: "Atelier Martin SARL", registrationId: "552100554", countryCode: "FR" },
    taxTotal: 6.58,
    taxTotalInAccountingCurrency: undefined,
    subLines: [[undefined, undefined, undefined]],
  });
  expect([parsed.invoice.franceCtc, parsed.invoice.businessProcessId, parsed.warnings]).toEqual([true, "S8", []]);
});

test("ubl: the same fields ride on the item's manufacturer party, the line's tax totals (one per currency) and its document reference, and come back", async () => {
  const accounting = MULTI_VENDOR_ACCOUNTING.build(LOCALES.fr);
  for (const invoice of [multiVendor, accounting]) {
    const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax: "ubl", invoice }, { livemode: true }).bytes);
    expect(xml).toContain('<cbc:ID schemeID="AFL">AM-2025-118</cbc:ID>');
    expect(xml).toContain("<cbc:RegistrationName>Atelier Martin SARL</cbc:RegistrationName>");
    const parsed = await parseDocument(new TextEncoder().encode(xml));
    expect(groupFields(parsed.invoice.lines)).toEqual(groupFields(invoice.lines));
  }
  expect(groupFields(accounting.lines)[0]!.taxTotalInAccountingCurrency).toBe(148.21);
});
