// Reading with leftovers on small documents: what the model carries is consumed, what the reader
// ignores comes back with its place in the source and its business term, and a read records
// consumption only when asked.

import { describe, expect, test } from "bun:test";
import { readWithLeftovers, type Leftover } from "../../src/syntax/leftovers.ts";
import { bindingOf } from "../../src/syntax/registry.ts";
import { consumedBy, parseXml, textOf } from "../../src/syntax/xml-reader.ts";

const UBL_NS = `xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"`;
const EXT_NS = `xmlns:ext="urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2"`;
const CII_NS = `xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"`;

const bytes = (xml: string) => new TextEncoder().encode(xml);
const ubl = (xml: string) => bindingOf("ubl").readWithLeftovers(bytes(xml));
const cii = (xml: string) => bindingOf("cii").readWithLeftovers(bytes(xml));
const paths = (leftovers: Leftover[]) => leftovers.map((l) => l.path);

const line = (id: string, item: string) => `<cac:InvoiceLine><cbc:ID>${id}</cbc:ID><cac:Item>${item}</cac:Item></cac:InvoiceLine>`;

describe("UBL", () => {
  test("a value the model carries is consumed; an ignored attribute is left, at its place, with its term", () => {
    const { invoice, leftovers } = ubl(
      `<Invoice ${UBL_NS}><cbc:ID>INV-1</cbc:ID><cbc:InvoiceTypeCode listID="MY-TYPES">380</cbc:InvoiceTypeCode>` +
        line("1", "<cbc:Name>Chair</cbc:Name>") +
        line("2", `<cbc:Name languageID="en">Desk</cbc:Name><cac:AdditionalItemProperty><cbc:Name>Colour</cbc:Name><cbc:Value>Red</cbc:Value></cac:AdditionalItemProperty><cac:AdditionalItemProperty><cbc:Name>Size</cbc:Name><cbc:Value>L</cbc:Value></cac:AdditionalItemProperty>`) +
        `</Invoice>`,
    );
    expect(invoice.invoiceNumber).toBe("INV-1");
    expect(invoice.lines[1]!.item.attributes).toEqual([
      { name: "Colour", value: "Red" },
      { name: "Size", value: "L" },
    ]);
    expect(leftovers).toEqual([
      { path: "/Invoice/cbc:InvoiceTypeCode/@listID", value: "MY-TYPES", reason: "BT-3 (listID)" },
      { path: "/Invoice/cac:InvoiceLine[2]/cac:Item/cbc:Name/@languageID", value: "en", reason: "BT-153 (languageID)" },
    ]);
  });

  test("an element the model has no place for is left with its positional path", () => {
    const { leftovers } = ubl(
      `<Invoice ${UBL_NS}><cbc:ID>INV-1</cbc:ID>` +
        line("1", "<cbc:Name>Chair</cbc:Name>") +
        line("2", `<cbc:Name>Desk</cbc:Name><cac:AdditionalItemProperty><cbc:Name>Colour</cbc:Name><cbc:NameCode>C</cbc:NameCode><cbc:Value>Red</cbc:Value></cac:AdditionalItemProperty><cac:AdditionalItemProperty><cbc:Name>Size</cbc:Name><cbc:Value>L</cbc:Value></cac:AdditionalItemProperty>`) +
        `</Invoice>`,
    );
    expect(leftovers).toEqual([
      { path: "/Invoice/cac:InvoiceLine[2]/cac:Item/cac:AdditionalItemProperty[1]/cbc:NameCode", value: "C", reason: "not an EN 16931 business term" },
    ]);
  });

  test("extension content is left as a UBL extension", () => {
    const { invoice, leftovers } = ubl(
      `<Invoice ${UBL_NS} ${EXT_NS}><ext:UBLExtensions><ext:UBLExtension><ext:ExtensionURI>urn:x</ext:ExtensionURI><ext:ExtensionContent><Custom xmlns="urn:custom" code="7">kept?</Custom></ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions><cbc:ID>INV-1</cbc:ID></Invoice>`,
    );
    expect(invoice.invoiceNumber).toBe("INV-1");
    expect(leftovers).toEqual([
      { path: "/Invoice/ext:UBLExtensions/ext:UBLExtension/ext:ExtensionURI", value: "urn:x", reason: "UBL extension" },
      { path: "/Invoice/ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/Custom/@code", value: "7", reason: "UBL extension" },
      { path: "/Invoice/ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/Custom", value: "kept?", reason: "UBL extension" },
    ]);
  });

  test("a code that chooses an element is consumed only for the element it chose", () => {
    const { invoice, leftovers } = ubl(
      `<Invoice ${UBL_NS}><cbc:ID>INV-1</cbc:ID><cac:InvoiceLine><cbc:ID>1</cbc:ID>` +
        `<cac:DocumentReference><cbc:ID>R-916</cbc:ID><cbc:DocumentTypeCode>916</cbc:DocumentTypeCode></cac:DocumentReference>` +
        `<cac:DocumentReference><cbc:ID schemeID="ABZ">OBJ-1</cbc:ID><cbc:DocumentTypeCode>130</cbc:DocumentTypeCode></cac:DocumentReference>` +
        `<cac:Item><cbc:Name>Chair</cbc:Name></cac:Item></cac:InvoiceLine></Invoice>`,
    );
    expect(invoice.lines[0]!.objectId).toEqual({ value: "OBJ-1", scheme: "ABZ" });
    expect(paths(leftovers)).toEqual([
      "/Invoice/cac:InvoiceLine/cac:DocumentReference[1]/cbc:ID",
      "/Invoice/cac:InvoiceLine/cac:DocumentReference[1]/cbc:DocumentTypeCode",
    ]);
  });

  test("a credit note's line is named with the line's terms", () => {
    const { leftovers } = ubl(
      `<CreditNote ${UBL_NS.replace("Invoice-2", "CreditNote-2")}><cbc:ID>CN-1</cbc:ID><cac:CreditNoteLine><cbc:ID>1</cbc:ID><cbc:CreditedQuantity unitCode="C62" unitCodeListID="OWN-UNITS">1</cbc:CreditedQuantity><cac:Item><cbc:Name>Chair</cbc:Name></cac:Item></cac:CreditNoteLine></CreditNote>`,
    );
    expect(leftovers).toEqual([
      { path: "/CreditNote/cac:CreditNoteLine/cbc:CreditedQuantity/@unitCodeListID", value: "OWN-UNITS", reason: "BT-129 (unitCodeListID)" },
    ]);
  });
});

describe("CII", () => {
  const document = (inside: string, lines = "") =>
    `<rsm:CrossIndustryInvoice ${CII_NS}><rsm:ExchangedDocument>${inside}</rsm:ExchangedDocument><rsm:SupplyChainTradeTransaction>${lines}</rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>`;

  test("a value the model carries is consumed; what the reader ignores is left with its term or its extension", () => {
    const { invoice, leftovers } = cii(
      document(
        `<ram:ID>INV-1</ram:ID><ram:Name>Rechnung</ram:Name><ram:IssueDateTime><udt:DateTimeString format="102">20250314</udt:DateTimeString></ram:IssueDateTime>`,
        `<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID></ram:AssociatedDocumentLineDocument><ram:SpecifiedTradeProduct><ram:Name>Chair</ram:Name><ram:BrandName>Acme</ram:BrandName></ram:SpecifiedTradeProduct></ram:IncludedSupplyChainTradeLineItem>` +
          `<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>2</ram:LineID></ram:AssociatedDocumentLineDocument><ram:SpecifiedTradeProduct><ram:Name>Desk</ram:Name></ram:SpecifiedTradeProduct></ram:IncludedSupplyChainTradeLineItem>`,
      ),
    );
    expect(invoice.invoiceNumber).toBe("INV-1");
    expect(invoice.issueDate).toBe("2025-03-14");
    expect(invoice.lines.map((l) => l.item.name)).toEqual(["Chair", "Desk"]);
    expect(leftovers).toEqual([
      { path: "/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:Name", value: "Rechnung", reason: "Factur-X EXTENDED" },
      {
        path: "/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem[1]/ram:SpecifiedTradeProduct/ram:BrandName",
        value: "Acme",
        reason: "Factur-X EXTENDED",
      },
    ]);
  });
});

describe("consumption is recorded only when asked", () => {
  const root = parseXml(`<a><b x="1">one</b></a>`).documentElement!;
  const b = root.firstChild as never;

  test("a recorded read holds what it consumed; recordings do not nest, and the slot is free after a throw", () => {
    expect(consumedBy(() => textOf(b)).consumed.has(b)).toBe(true);
    expect(() => consumedBy(() => consumedBy(() => 0))).toThrow("already recording");
    expect(consumedBy(() => 0).consumed.size).toBe(0);
  });

  test("what a read did not touch is left, attributes and text alike", () => {
    const places = { prefixes: {}, terms: {}, keyOf: (s: string) => s, extensionOf: () => undefined, implied: [] };
    const { leftovers } = readWithLeftovers(root, () => (textOf(b), { invoiceNumber: "" }) as never, places);
    expect(leftovers).toEqual([{ path: "/a/b/@x", value: "1", reason: "not an EN 16931 business term" }]);
  });
});

describe("places without a term", () => {
  test("a place sources fill is named for what it holds; another has only no term", () => {
    const { leftovers } = ubl(
      `<Invoice ${UBL_NS}><cbc:ID>INV-1</cbc:ID><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode><cac:PaymentTerms><cbc:Note>30 days</cbc:Note><cbc:Amount currencyID="EUR">100</cbc:Amount><cbc:InstallmentDueDate>2025-01-01</cbc:InstallmentDueDate></cac:PaymentTerms></Invoice>`,
    );
    expect(leftovers).toEqual([
      { path: "/Invoice/cac:PaymentTerms/cbc:Amount", value: "100", reason: "not an EN 16931 business term: the amount of one payment terms instalment" },
      { path: "/Invoice/cac:PaymentTerms/cbc:InstallmentDueDate", value: "2025-01-01", reason: "not an EN 16931 business term" },
    ]);
  });
});

describe("schema location hints", () => {
  const XSI_NS = `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`;

  test("xsi:schemaLocation and xsi:noNamespaceSchemaLocation are markup, not values; xsi:nil is a value", () => {
    const { leftovers } = ubl(
      `<Invoice ${UBL_NS} ${XSI_NS} xsi:schemaLocation="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2 UBL-Invoice-2.1.xsd" xsi:noNamespaceSchemaLocation="x.xsd">` +
        `<cbc:ID>INV-1</cbc:ID><cbc:Note xsi:nil="true"/></Invoice>`,
    );
    expect(leftovers).toEqual([{ path: "/Invoice/cbc:Note/@xsi:nil", value: "true", reason: "BT-22 (BT-21 as its #code# prefix) (xsi:nil)" }]);
  });

  test("CII: the same", () => {
    const { leftovers } = cii(
      `<rsm:CrossIndustryInvoice ${CII_NS} ${XSI_NS} xsi:schemaLocation="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100 CrossIndustryInvoice_100pD16B.xsd">` +
        `<rsm:ExchangedDocument><ram:ID>INV-1</ram:ID></rsm:ExchangedDocument></rsm:CrossIndustryInvoice>`,
    );
    expect(leftovers).toEqual([]);
  });
});

describe("values the model implies", () => {
  const means = (id: string) => `<cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode><cbc:PaymentID>${id}</cbc:PaymentID></cac:PaymentMeans>`;
  const category = (scheme: string, reasonList: string) =>
    `<cac:TaxCategory><cbc:ID schemeID="${scheme}">E</cbc:ID><cbc:TaxExemptionReasonCode listID="${reasonList}">VATEX-EU-132</cbc:TaxExemptionReasonCode>` +
    `<cac:TaxScheme><cbc:ID schemeID="UN/ECE 5153">VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory>`;

  test("UBL: the remittance information each payment means repeats, the version 2.1 and code list labels are carried", () => {
    const { invoice, leftovers } = ubl(
      `<Invoice ${UBL_NS}><cbc:UBLVersionID>2.1</cbc:UBLVersionID><cbc:ID>INV-1</cbc:ID><cbc:InvoiceTypeCode listID="UNCL1001">380</cbc:InvoiceTypeCode>${means("REF-1")}${means("REF-1")}` +
        `<cac:TaxTotal><cac:TaxSubtotal>${category("UNCL5305", "VATEX")}</cac:TaxSubtotal></cac:TaxTotal>` +
        `<cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:InvoicedQuantity unitCode="C62" unitCodeListID="UNECERec20">1</cbc:InvoicedQuantity></cac:InvoiceLine></Invoice>`,
    );
    expect(invoice.paymentInstructions?.remittanceInformation).toBe("REF-1");
    expect(leftovers).toEqual([]);
  });

  test("UBL: another remittance information, version or code list is left over", () => {
    const { leftovers } = ubl(
      `<Invoice ${UBL_NS}><cbc:UBLVersionID>2.2</cbc:UBLVersionID><cbc:ID>INV-1</cbc:ID>${means("REF-1")}${means("REF-2")}` +
        `<cac:TaxTotal><cac:TaxSubtotal>${category("OWN", "OWN-REASONS")}</cac:TaxSubtotal></cac:TaxTotal></Invoice>`,
    );
    const subtotal = "/Invoice/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory";
    expect(leftovers).toEqual([
      { path: "/Invoice/cbc:UBLVersionID", value: "2.2", reason: "not an EN 16931 business term: the UBL version (only 2.1 is implied)" },
      { path: "/Invoice/cac:PaymentMeans[2]/cbc:PaymentID", value: "REF-2", reason: "BT-83" },
      { path: `${subtotal}/cbc:ID/@schemeID`, value: "OWN", reason: "BT-118 (schemeID)" },
      { path: `${subtotal}/cbc:TaxExemptionReasonCode/@listID`, value: "OWN-REASONS", reason: "BT-121 (listID)" },
    ]);
  });

  const document = (date: string, amount: string) =>
    `<rsm:CrossIndustryInvoice ${CII_NS}><rsm:ExchangedDocument><ram:ID>INV-1</ram:ID><ram:IssueDateTime>${date}</ram:IssueDateTime></rsm:ExchangedDocument>` +
    `<rsm:SupplyChainTradeTransaction><ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>` +
    `<ram:SpecifiedTradeSettlementHeaderMonetarySummation>${amount}</ram:SpecifiedTradeSettlementHeaderMonetarySummation></ram:ApplicableHeaderTradeSettlement></rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>`;

  test("the date format 102 and a currency equal to BT-5 are carried; another format or currency is left over", () => {
    const carried = cii(document(`<udt:DateTimeString format="102">20250314</udt:DateTimeString>`, `<ram:TaxTotalAmount currencyID="EUR">19</ram:TaxTotalAmount>`));
    expect(paths(carried.leftovers)).toEqual([]);
    const other = cii(document(`<udt:DateTimeString format="203">202503141200</udt:DateTimeString>`, `<ram:TaxTotalAmount currencyID="USD">19</ram:TaxTotalAmount>`));
    expect(paths(other.leftovers)).toEqual(expect.arrayContaining([
      "/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString/@format",
    ]));
  });
});
