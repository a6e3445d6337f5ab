// The conversion losses users found in other converters (docs research, wave 2, §1.3 items 1-4, 6
// and 9), each in both syntaxes: a generated document is given the construct, and every value
// added must reach the model or come back as a leftover at its place, never vanish; what reaches
// the model crosses into the other syntax and back unchanged.

import { describe, expect, test } from "bun:test";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";
import { generateXml } from "../../src/generate/generate.ts";
import type { Invoice } from "../../src/model/index.ts";
import type { En16931Syntax } from "../../src/profiles/ids.ts";
import type { Leftover } from "../../src/syntax/leftovers.ts";
import { recordById } from "../../src/profiles/lookup.ts";
import { bindingOf } from "../../src/syntax/registry.ts";
import { modelDifferences } from "../../src/convert/model-diff.ts";

function generated(syntax: En16931Syntax): string {
  const standard = syntax === "ubl" ? "peppol-bis" : "facturx";
  return new TextDecoder().decode(generateXml({ standard, syntax, invoice: SCENARIOS[0]!.build(LOCALES.de) }, { livemode: true }).bytes);
}

const SOURCES = { ubl: generated("ubl"), cii: generated("cii") };
const read = (syntax: En16931Syntax, xml: string) => bindingOf(syntax).readWithLeftovers(new TextEncoder().encode(xml));
const BASELINE = { ubl: read("ubl", SOURCES.ubl), cii: read("cii", SOURCES.cii) };

/** The generated document with each `[anchor, replacement]` applied to the anchor's first occurrence. */
function mutated(syntax: En16931Syntax, ...edits: [string, string][]): string {
  return edits.reduce((xml, [anchor, replacement]) => {
    expect(xml).toContain(anchor);
    return xml.replace(anchor, replacement);
  }, SOURCES[syntax]);
}

/**
 * Reads a mutated document: its model, and the leftovers the generated document did not have. What
 * reached the model must also cross into the other syntax and back unchanged, as convert carries it
 * (written as the plain EN 16931 record, read back, compared like convert's read-back).
 */
function outcome(syntax: En16931Syntax, xml: string): { invoice: Invoice; added: Leftover[] } {
  const { invoice, leftovers } = read(syntax, xml);
  const before = new Set(BASELINE[syntax].leftovers.map((l) => l.path));
  const other = syntax === "ubl" ? "cii" : "ubl";
  const crossed = bindingOf(other).write(structuredClone(invoice), recordById(`${other}:en16931`).write!);
  const back = bindingOf(other).read(new TextEncoder().encode(crossed.xml));
  expect({ crossed: crossed.lost, differences: modelDifferences(invoice, back) }).toEqual({ crossed: [], differences: [] });
  return { invoice, added: leftovers.filter((l) => !before.has(l.path)) };
}

const CII = "/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction";

describe("1. payment means 1, 70 or ZZZ with IBAN, account name and BIC", () => {
  for (const code of ["1", "70", "ZZZ"]) {
    const transfer = { accountId: "DE02120300000000202051", accountName: "Lieferant GmbH", serviceProviderId: "BYLADEM1001" };

    test(`UBL, code ${code}: every value reaches the model`, () => {
      const { invoice, added } = outcome(
        "ubl",
        mutated(
          "ubl",
          ["<cbc:PaymentMeansCode>58</cbc:PaymentMeansCode>", `<cbc:PaymentMeansCode>${code}</cbc:PaymentMeansCode>`],
          ["</cac:PayeeFinancialAccount>", "<cac:FinancialInstitutionBranch><cbc:ID>BYLADEM1001</cbc:ID></cac:FinancialInstitutionBranch></cac:PayeeFinancialAccount>"],
        ),
      );
      expect(invoice.paymentInstructions?.meansTypeCode).toBe(code);
      expect(invoice.paymentInstructions?.creditTransfers).toEqual([transfer]);
      expect(added).toEqual([]);
    });

    test(`CII, code ${code}: every value reaches the model`, () => {
      const { invoice, added } = outcome(
        "cii",
        mutated(
          "cii",
          ["<ram:TypeCode>58</ram:TypeCode>", `<ram:TypeCode>${code}</ram:TypeCode>`],
          [
            "</ram:PayeePartyCreditorFinancialAccount>",
            "</ram:PayeePartyCreditorFinancialAccount><ram:PayeeSpecifiedCreditorFinancialInstitution><ram:BICID>BYLADEM1001</ram:BICID></ram:PayeeSpecifiedCreditorFinancialInstitution>",
          ],
        ),
      );
      expect(invoice.paymentInstructions?.meansTypeCode).toBe(code);
      expect(invoice.paymentInstructions?.creditTransfers).toEqual([transfer]);
      expect(added).toEqual([]);
    });
  }
});

describe("2. a line's referenced documents with scheme and type code (BT-128, BT-128-1)", () => {
  test("UBL: the invoiced object reaches the model, another document is left", () => {
    const { invoice, added } = outcome(
      "ubl",
      mutated("ubl", [
        "<cac:Item>",
        `<cac:DocumentReference><cbc:ID schemeID="ABZ">OBJ-77</cbc:ID><cbc:DocumentTypeCode>130</cbc:DocumentTypeCode></cac:DocumentReference>` +
          `<cac:DocumentReference><cbc:ID>SPEC-9</cbc:ID><cbc:DocumentTypeCode>916</cbc:DocumentTypeCode></cac:DocumentReference><cac:Item>`,
      ]),
    );
    expect(invoice.lines[0]!.objectId).toEqual({ value: "OBJ-77", scheme: "ABZ" });
    expect(added).toEqual([
      { path: "/Invoice/cac:InvoiceLine[1]/cac:DocumentReference[2]/cbc:ID", value: "SPEC-9", reason: "BT-128" },
      { path: "/Invoice/cac:InvoiceLine[1]/cac:DocumentReference[2]/cbc:DocumentTypeCode", value: "916", reason: "BT-128 (type code)" },
    ]);
  });

  test("CII: the invoiced object reaches the model; a scheme on its id and another document are left", () => {
    const { invoice, added } = outcome(
      "cii",
      mutated("cii", [
        "<ram:SpecifiedTradeSettlementLineMonetarySummation>",
        `<ram:AdditionalReferencedDocument><ram:IssuerAssignedID schemeID="X1">OBJ-77</ram:IssuerAssignedID><ram:TypeCode>130</ram:TypeCode><ram:ReferenceTypeCode>ABZ</ram:ReferenceTypeCode></ram:AdditionalReferencedDocument>` +
          `<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>SPEC-9</ram:IssuerAssignedID><ram:TypeCode>916</ram:TypeCode></ram:AdditionalReferencedDocument><ram:SpecifiedTradeSettlementLineMonetarySummation>`,
      ]),
    );
    expect(invoice.lines[0]!.objectId).toEqual({ value: "OBJ-77", scheme: "ABZ" });
    const at = `${CII}/ram:IncludedSupplyChainTradeLineItem[1]/ram:SpecifiedLineTradeSettlement/ram:AdditionalReferencedDocument`;
    expect(added).toEqual([
      { path: `${at}[1]/ram:IssuerAssignedID/@schemeID`, value: "X1", reason: "BT-128 (schemeID)" },
      { path: `${at}[2]/ram:IssuerAssignedID`, value: "SPEC-9", reason: "BT-128" },
      { path: `${at}[2]/ram:TypeCode`, value: "916", reason: "BT-128 (type code)" },
    ]);
  });
});

describe("3. price base quantity and unit (BT-149, BT-150) on net and gross price, discount on the gross price (BT-147, BT-148)", () => {
  test("UBL: every value reaches the model", () => {
    const { invoice, added } = outcome(
      "ubl",
      mutated("ubl", [
        `<cbc:PriceAmount currencyID="EUR">120</cbc:PriceAmount>`,
        `<cbc:PriceAmount currencyID="EUR">120</cbc:PriceAmount><cbc:BaseQuantity unitCode="HUR">1</cbc:BaseQuantity>` +
          `<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount currencyID="EUR">30</cbc:Amount><cbc:BaseAmount currencyID="EUR">150</cbc:BaseAmount></cac:AllowanceCharge>`,
      ]),
    );
    expect(invoice.lines[0]!.price).toEqual({ netPrice: "120", discount: "30", grossPrice: "150", baseQuantity: "1", baseQuantityUnitCode: "HUR" });
    // The new amounts' currencies are the invoice's, which the model implies (leftovers.ts).
    expect(added).toEqual([]);
  });

  test("CII: the net price's base quantity reaches the model, the gross price's is left", () => {
    const { invoice, added } = outcome(
      "cii",
      mutated(
        "cii",
        [
          "<ram:NetPriceProductTradePrice>",
          `<ram:GrossPriceProductTradePrice><ram:ChargeAmount>150</ram:ChargeAmount><ram:BasisQuantity unitCode="DAY">2</ram:BasisQuantity>` +
            `<ram:AppliedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>false</udt:Indicator></ram:ChargeIndicator><ram:ActualAmount>30</ram:ActualAmount></ram:AppliedTradeAllowanceCharge></ram:GrossPriceProductTradePrice><ram:NetPriceProductTradePrice>`,
        ],
        ["<ram:ChargeAmount>120</ram:ChargeAmount>", `<ram:ChargeAmount>120</ram:ChargeAmount><ram:BasisQuantity unitCode="HUR">1</ram:BasisQuantity>`],
      ),
    );
    expect(invoice.lines[0]!.price).toEqual({ netPrice: "120", discount: "30", grossPrice: "150", baseQuantity: "1", baseQuantityUnitCode: "HUR" });
    const gross = `${CII}/ram:IncludedSupplyChainTradeLineItem[1]/ram:SpecifiedLineTradeAgreement/ram:GrossPriceProductTradePrice/ram:BasisQuantity`;
    expect(added).toEqual([
      { path: `${gross}/@unitCode`, value: "DAY", reason: "BT-150" },
      { path: gross, value: "2", reason: "BT-149" },
    ]);
  });
});

describe("3b. the base quantity CII repeats on the gross price (BT-149, BT-150)", () => {
  const withGross = (quantity: string, unit: string) =>
    mutated(
      "cii",
      [
        "<ram:NetPriceProductTradePrice>",
        `<ram:GrossPriceProductTradePrice><ram:ChargeAmount>150</ram:ChargeAmount><ram:BasisQuantity unitCode="${unit}">${quantity}</ram:BasisQuantity></ram:GrossPriceProductTradePrice><ram:NetPriceProductTradePrice>`,
      ],
      ["<ram:ChargeAmount>120</ram:ChargeAmount>", `<ram:ChargeAmount>120</ram:ChargeAmount><ram:BasisQuantity unitCode="HUR">1</ram:BasisQuantity>`],
    );
  const gross = `${CII}/ram:IncludedSupplyChainTradeLineItem[1]/ram:SpecifiedLineTradeAgreement/ram:GrossPriceProductTradePrice/ram:BasisQuantity`;

  test("CII: the same quantity and unit, however the number is written, is the net price's, carried", () => {
    const { invoice, added } = outcome("cii", withGross("1.00", "HUR"));
    expect(invoice.lines[0]!.price).toMatchObject({ baseQuantity: "1", baseQuantityUnitCode: "HUR" });
    expect(added).toEqual([]);
  });

  test("CII: another unit for the same number is left whole", () => {
    expect(outcome("cii", withGross("1", "DAY")).added).toEqual([
      { path: `${gross}/@unitCode`, value: "DAY", reason: "BT-150" },
      { path: gross, value: "1", reason: "BT-149" },
    ]);
  });

  test("UBL -> CII -> model: the copy the CII writer adds reads back as nothing left", () => {
    const ubl = mutated("ubl", [`<cbc:PriceAmount currencyID="EUR">120</cbc:PriceAmount>`, `<cbc:PriceAmount currencyID="EUR">120</cbc:PriceAmount><cbc:BaseQuantity unitCode="HUR">2</cbc:BaseQuantity><cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount currencyID="EUR">30</cbc:Amount><cbc:BaseAmount currencyID="EUR">150</cbc:BaseAmount></cac:AllowanceCharge>`]);
    const model = read("ubl", ubl).invoice;
    const written = bindingOf("cii").write(model, recordById("cii:en16931").write!).xml;
    expect(written).toMatch(/<ram:GrossPriceProductTradePrice>\s*<ram:ChargeAmount>150<\/ram:ChargeAmount>\s*<ram:BasisQuantity unitCode="HUR">2</);
    const back = read("cii", written);
    expect(back.invoice.lines[0]!.price).toEqual(model.lines[0]!.price);
    expect(back.leftovers.filter((l) => l.path.includes("GrossPrice"))).toEqual([]);
  });
});

describe("3c. a zero price discount (BT-147) is none, the one thing UBL can say of a gross price alone", () => {
  const ublGross = (amount: string) =>
    mutated("ubl", [
      `<cbc:PriceAmount currencyID="EUR">120</cbc:PriceAmount>`,
      `<cbc:PriceAmount currencyID="EUR">120</cbc:PriceAmount><cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount currencyID="EUR">${amount}</cbc:Amount><cbc:BaseAmount currencyID="EUR">120</cbc:BaseAmount></cac:AllowanceCharge>`,
    ]);
  const ciiGross = (allowance: string) =>
    mutated("cii", ["<ram:NetPriceProductTradePrice>", `<ram:GrossPriceProductTradePrice><ram:ChargeAmount>120</ram:ChargeAmount>${allowance}</ram:GrossPriceProductTradePrice><ram:NetPriceProductTradePrice>`]);
  const zero = `<ram:AppliedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>false</udt:Indicator></ram:ChargeIndicator><ram:ActualAmount>0.00</ram:ActualAmount></ram:AppliedTradeAllowanceCharge>`;

  test("UBL: the mandatory zero amount beside a gross price reads as no discount; a real one reaches the model", () => {
    const { invoice, added } = outcome("ubl", ublGross("0.00"));
    expect(invoice.lines[0]!.price).toEqual({ netPrice: "120", discount: undefined, grossPrice: "120", baseQuantity: undefined, baseQuantityUnitCode: undefined });
    expect(added).toEqual([]);
    expect(outcome("ubl", ublGross("5")).invoice.lines[0]!.price.discount).toBe("5");
  });

  test("CII: a zero discount reads as none, like a gross price without one", () => {
    const { invoice, added } = outcome("cii", ciiGross(zero));
    expect(invoice.lines[0]!.price).toEqual(outcome("cii", ciiGross("")).invoice.lines[0]!.price);
    expect(invoice.lines[0]!.price).toMatchObject({ grossPrice: "120", netPrice: "120" });
    expect(added).toEqual([]);
  });

  test("both ways through the other syntax, a gross price without a discount comes back as it was", () => {
    const through = (from: En16931Syntax, xml: string) => {
      const to = from === "ubl" ? "cii" : "ubl";
      const model = read(from, xml).invoice;
      const there = read(to, bindingOf(to).write(model, recordById(`${to}:en16931`).write!).xml).invoice;
      const back = read(from, bindingOf(from).write(there, recordById(`${from}:en16931`).write!).xml).invoice;
      return [model.lines[0]!.price, there.lines[0]!.price, back.lines[0]!.price];
    };
    for (const [from, xml] of [["cii", ciiGross("")], ["ubl", ublGross("0")]] as const) {
      const [model, there, back] = through(from, xml);
      expect(there).toEqual(model!);
      expect(back).toEqual(model!);
    }
  });
});

describe("4. contact by department (BT-41, BT-56), trading and legal names (BT-27, BT-28, BT-44, BT-45)", () => {
  test("UBL: the names reach the model; UBL's contact has no department, and a contact note is left", () => {
    const { invoice, added } = outcome(
      "ubl",
      mutated(
        "ubl",
        [`<cbc:EndpointID schemeID="9930">DE123456789</cbc:EndpointID>`, `<cbc:EndpointID schemeID="9930">DE123456789</cbc:EndpointID><cac:PartyName><cbc:Name>Lieferant</cbc:Name></cac:PartyName>`],
        [`<cbc:EndpointID schemeID="9930">DE987654321</cbc:EndpointID>`, `<cbc:EndpointID schemeID="9930">DE987654321</cbc:EndpointID><cac:PartyName><cbc:Name>Kunde</cbc:Name></cac:PartyName>`],
        ["<cbc:ElectronicMail>einkauf@kunde.example</cbc:ElectronicMail>", "<cbc:ElectronicMail>einkauf@kunde.example</cbc:ElectronicMail><cbc:Note>Einkauf</cbc:Note>"],
      ),
    );
    expect([invoice.seller.name, invoice.seller.tradingName, invoice.buyer.name, invoice.buyer.tradingName]).toEqual(["Lieferant GmbH", "Lieferant", "Kunde AG", "Kunde"]);
    expect(added).toEqual([{ path: "/Invoice/cac:AccountingCustomerParty/cac:Party/cac:Contact/cbc:Note", value: "Einkauf", reason: "not an EN 16931 business term" }]);
  });

  test("CII: a department alone is the contact, beside a person's name it is left; the names reach the model", () => {
    const { invoice, added } = outcome(
      "cii",
      mutated(
        "cii",
        ["<ram:PersonName>Hans Muster</ram:PersonName>", "<ram:DepartmentName>Buchhaltung</ram:DepartmentName>"],
        ["<ram:PersonName>Erika Beispiel</ram:PersonName>", "<ram:PersonName>Erika Beispiel</ram:PersonName><ram:DepartmentName>Einkauf</ram:DepartmentName>"],
        ["<ram:ID>HRB 12345</ram:ID>", "<ram:ID>HRB 12345</ram:ID><ram:TradingBusinessName>Lieferant</ram:TradingBusinessName>"],
      ),
    );
    expect(invoice.seller.contact?.name).toBe("Buchhaltung");
    expect(invoice.buyer.contact?.name).toBe("Erika Beispiel");
    expect([invoice.seller.name, invoice.seller.tradingName]).toEqual(["Lieferant GmbH", "Lieferant"]);
    expect(added).toEqual([
      { path: `${CII}/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:DefinedTradeContact/ram:DepartmentName`, value: "Einkauf", reason: "BT-56" },
    ]);
  });
});

describe("6. VAT point date (BT-7) and its code (BT-8), both present", () => {
  test("UBL: both reach the model", () => {
    const { invoice, added } = outcome(
      "ubl",
      mutated("ubl", [
        "<cbc:DocumentCurrencyCode>",
        "<cbc:TaxPointDate>2025-03-10</cbc:TaxPointDate><cac:InvoicePeriod><cbc:DescriptionCode>35</cbc:DescriptionCode></cac:InvoicePeriod><cbc:DocumentCurrencyCode>",
      ]),
    );
    expect([invoice.taxPointDate, invoice.taxPointDateCode]).toEqual(["2025-03-10", "35"]);
    expect(added).toEqual([]);
  });

  test("CII: both reach the model, the date's format 102 with them", () => {
    const { invoice, added } = outcome(
      "cii",
      mutated("cii", [
        "<ram:BasisAmount>1285.50</ram:BasisAmount>",
        `<ram:BasisAmount>1285.50</ram:BasisAmount><ram:TaxPointDate><udt:DateString format="102">20250310</udt:DateString></ram:TaxPointDate><ram:DueDateTypeCode>29</ram:DueDateTypeCode>`,
      ]),
    );
    expect([invoice.taxPointDate, invoice.taxPointDateCode]).toEqual(["2025-03-10", "35"]);
    expect(added).toEqual([]);
  });

  test("the code crosses lists between the syntaxes: UNTDID 2005 in UBL and the model, 2475 in CII", () => {
    const ubl = mutated(
      "ubl",
      ["<cbc:DocumentCurrencyCode>", "<cac:InvoicePeriod><cbc:DescriptionCode>432</cbc:DescriptionCode></cac:InvoicePeriod><cbc:DocumentCurrencyCode>"],
      ["</cac:TaxSubtotal>", `</cac:TaxSubtotal><cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">0</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">0</cbc:TaxAmount><cac:TaxCategory><cbc:ID>Z</cbc:ID><cbc:Percent>0</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal>`],
    );
    const model = read("ubl", ubl).invoice;
    const cii = bindingOf("cii").write(model, recordById("cii:en16931").write!).xml;
    expect(cii.match(/<ram:DueDateTypeCode>72<\/ram:DueDateTypeCode>/g)).toHaveLength(2);
    const back = read("cii", cii).invoice;
    expect(back.taxPointDateCode).toBe("432");
    // Each VAT breakdown entry repeats the code: the copies are the writer's, nothing left.
    expect(read("cii", cii).leftovers.filter((l) => l.path.includes("DueDateTypeCode"))).toEqual([]);
    expect(bindingOf("ubl").write(back, recordById("ubl:en16931").write!).xml).toContain("<cbc:DescriptionCode>432</cbc:DescriptionCode>");
  });
});

describe("9. several notes, with subject codes (BT-21, BT-22)", () => {
  test("UBL: each note and its #code# subject reach the model", () => {
    const { invoice, added } = outcome(
      "ubl",
      mutated("ubl", ["<cbc:Note>Thank you for your order.</cbc:Note>", "<cbc:Note>#AAI#Thank you for your order.</cbc:Note><cbc:Note>Second note</cbc:Note>"]),
    );
    expect(invoice.notes).toEqual([{ subjectCode: "AAI", text: "Thank you for your order." }, { text: "Second note" }]);
    expect(added).toEqual([]);
  });

  test("CII: each note and its subject code reach the model; a content code is left as Factur-X EXTENDED", () => {
    const { invoice, added } = outcome(
      "cii",
      mutated("cii", [
        "<ram:Content>Thank you for your order.</ram:Content>",
        "<ram:ContentCode>ST1</ram:ContentCode><ram:Content>Thank you for your order.</ram:Content><ram:SubjectCode>AAI</ram:SubjectCode></ram:IncludedNote><ram:IncludedNote><ram:Content>Second note</ram:Content>",
      ]),
    );
    expect(invoice.notes).toEqual([{ text: "Thank you for your order.", subjectCode: "AAI" }, { text: "Second note" }]);
    expect(added).toEqual([
      { path: "/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:IncludedNote[1]/ram:ContentCode", value: "ST1", reason: "Factur-X EXTENDED" },
    ]);
  });
});

describe("10. a buyer's tax registration under a scheme other than VAT (no EN 16931 term; both syntaxes hold it)", () => {
  const ublBuyer = mutated("ubl", [
    "<cac:PartyLegalEntity>\n        <cbc:RegistrationName>Kunde AG",
    "<cac:PartyTaxScheme><cbc:CompanyID>04523249415</cbc:CompanyID><cac:TaxScheme><cbc:ID>FC</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme><cac:PartyLegalEntity><cbc:RegistrationName>Kunde AG",
  ]);
  const ciiBuyer = mutated("cii", [
    `<ram:ID schemeID="VA">DE987654321</ram:ID>\n        </ram:SpecifiedTaxRegistration>`,
    `<ram:ID schemeID="VA">DE987654321</ram:ID>\n        </ram:SpecifiedTaxRegistration><ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">04523249415</ram:ID></ram:SpecifiedTaxRegistration>`,
  ]);
  const writtenAs = (syntax: En16931Syntax, model: Invoice) => bindingOf(syntax).write(model, recordById(`${syntax}:en16931`).write!).xml;

  test("UBL: it reaches the model beside BT-48, and CII writes it as scheme FC", () => {
    const { invoice, added } = outcome("ubl", ublBuyer);
    expect([invoice.buyer.vatId, invoice.buyer.taxRegistrationId]).toEqual(["DE987654321", "04523249415"]);
    expect(added).toEqual([]);
    expect(writtenAs("cii", invoice)).toContain(`<ram:ID schemeID="FC">04523249415</ram:ID>`);
    expect(read("cii", writtenAs("cii", invoice)).invoice.buyer).toEqual(invoice.buyer);
  });

  test("CII: scheme FC reaches the model beside BT-48, and UBL writes it under a tax scheme other than VAT", () => {
    const { invoice, added } = outcome("cii", ciiBuyer);
    expect([invoice.buyer.vatId, invoice.buyer.taxRegistrationId]).toEqual(["DE987654321", "04523249415"]);
    expect(added).toEqual([]);
    expect(writtenAs("ubl", invoice)).toMatch(/<cbc:CompanyID>04523249415<\/cbc:CompanyID>\s*<cac:TaxScheme>\s*<cbc:ID>TAX<\/cbc:ID>/);
    expect(read("ubl", writtenAs("ubl", invoice)).invoice.buyer).toEqual(invoice.buyer);
  });
});

describe("11. the payment means text (BT-82) CII repeats per account", () => {
  const withSecond = (text: string) =>
    mutated(
      "cii",
      ["<ram:TypeCode>58</ram:TypeCode>", "<ram:TypeCode>58</ram:TypeCode><ram:Information>Überweisung</ram:Information>"],
      [
        "</ram:SpecifiedTradeSettlementPaymentMeans>",
        `</ram:SpecifiedTradeSettlementPaymentMeans><ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode><ram:Information>${text}</ram:Information>` +
          "<ram:PayeePartyCreditorFinancialAccount><ram:IBANID>DE75512108001245126199</ram:IBANID></ram:PayeePartyCreditorFinancialAccount></ram:SpecifiedTradeSettlementPaymentMeans>",
      ],
    );

  test("CII: the same text on the second account is the copy the writer repeats; another text is left", () => {
    const same = outcome("cii", withSecond("Überweisung"));
    expect(same.invoice.paymentInstructions?.meansText).toBe("Überweisung");
    expect(same.invoice.paymentInstructions?.creditTransfers).toHaveLength(2);
    expect(same.added).toEqual([]);
    expect(outcome("cii", withSecond("Lastschrift")).added).toEqual([
      { path: `${CII}/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementPaymentMeans[2]/ram:Information`, value: "Lastschrift", reason: "BT-82" },
    ]);
  });
});
