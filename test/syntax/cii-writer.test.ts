// CII binding details the corpus round trip found: terms CII places once although the model has
// them at document level (BT-7), text that must keep its line breaks (BT-20), and Factur-X
// EXTENDED forms of EN 16931 terms: the logistics service fee (BT-X-272), which must stay counted
// in the totals, and several gross price allowances, which together are the price discount.

import { describe, expect, test } from "bun:test";
import type { Invoice } from "../../src/model/index.ts";
import { readCii } from "../../src/syntax/cii/read.ts";
import { writeCii, type CiiTarget } from "../../src/syntax/cii/write.ts";

function sample(): Invoice {
  return {
    kind: "invoice",
    invoiceNumber: "INV-1",
    issueDate: "2025-01-31",
    typeCode: "380",
    currencyCode: "EUR",
    taxPointDate: "2025-01-15",
    notes: [],
    processControl: { specificationIdentifier: "urn:cen.eu:en16931:2017" },
    precedingInvoices: [],
    seller: { name: "Seller GmbH", identifiers: [], vatId: "DE123456789", address: { countryCode: "DE" } },
    buyer: { name: "Buyer AG", address: { countryCode: "DE" } },
    allowances: [],
    charges: [],
    totals: { lineNetTotal: "200.00", taxExclusiveTotal: "200.00", vatTotal: "26.00", taxInclusiveTotal: "226.00", payableAmount: "226.00" },
    vatBreakdown: [
      { taxableAmount: "100.00", taxAmount: "19.00", categoryCode: "S", rate: "19" },
      { taxableAmount: "100.00", taxAmount: "7.00", categoryCode: "S", rate: "7" },
    ],
    supportingDocuments: [],
    lines: [
      {
        id: "1",
        quantity: "1",
        unitCode: "C62",
        netAmount: "100.00",
        allowances: [],
        charges: [],
        price: { netPrice: "100.00" },
        vat: { categoryCode: "S", rate: "19" },
        item: { name: "Widget", classifications: [], attributes: [] },
      },
      {
        id: "2",
        quantity: "1",
        unitCode: "C62",
        netAmount: "100.00",
        allowances: [],
        charges: [],
        price: { netPrice: "100.00" },
        vat: { categoryCode: "S", rate: "7" },
        item: { name: "Book", classifications: [], attributes: [] },
      },
    ],
  };
}

const D16B: CiiTarget = { version: "D16B" };
const EXTENDED: CiiTarget = { version: "D22B", profile: "extended" };
const count = (xml: string, name: string) => xml.split(`<${name}>`).length - 1;

describe("CII writer", () => {
  test("writes the VAT point date (BT-7) once, in the first VAT breakdown (CII-SR-461)", () => {
    for (const target of [D16B, EXTENDED]) {
      const { xml } = writeCii(sample(), target);
      expect(count(xml, "ram:ApplicableTradeTax")).toBe(4); // two lines, two breakdowns
      expect(count(xml, "ram:TaxPointDate")).toBe(1);
      const settlement = xml.slice(xml.indexOf("<ram:ApplicableHeaderTradeSettlement>"));
      const first = settlement.slice(settlement.indexOf("<ram:ApplicableTradeTax>"), settlement.indexOf("</ram:ApplicableTradeTax>"));
      expect(first).toContain('<udt:DateString format="102">20250115</udt:DateString>');
      expect(readCii(xml).taxPointDate).toBe("2025-01-15");
    }
  });

  test("repeats the VAT point date code (BT-8) with one value, as CII-SR-462 allows", () => {
    const invoice = { ...sample(), taxPointDate: undefined, taxPointDateCode: "432" };
    const { xml } = writeCii(invoice, D16B);
    expect(count(xml, "ram:DueDateTypeCode")).toBe(2);
    expect(readCii(xml).taxPointDateCode).toBe("432");
  });

  test("keeps the payment terms (BT-20) untrimmed: XRechnung discount lines end with a line break (BR-DE-18)", () => {
    const terms = "#SKONTO#TAGE=7#PROZENT=2.00#\n#SKONTO#TAGE=14#PROZENT=1.00#\n";
    const { xml } = writeCii({ ...sample(), paymentTerms: terms }, D16B);
    expect(xml).toContain(`<ram:Description>${terms}</ram:Description>`);
    expect(readCii(xml).paymentTerms).toBe(terms);
    expect(writeCii(readCii(xml), D16B).xml).toBe(xml);
  });

  test("reads blank payment terms as none", () => {
    const { xml } = writeCii({ ...sample(), paymentTerms: "x" }, D16B);
    expect(readCii(xml.replace("<ram:Description>x</ram:Description>", "<ram:Description>\n  </ram:Description>")).paymentTerms).toBeUndefined();
  });

  test("sums several gross price allowances (Factur-X EXTENDED) into the one item price discount (BT-147)", () => {
    const invoice = sample();
    invoice.lines[0]!.price = { netPrice: "1.45", grossPrice: "1.50", discount: "0.05" };
    const { xml } = writeCii(invoice, EXTENDED);
    const one = /<ram:AppliedTradeAllowanceCharge>[\s\S]*?<\/ram:AppliedTradeAllowanceCharge>/.exec(xml)![0];
    expect(one).toContain("<ram:ActualAmount>0.05</ram:ActualAmount>");
    const two = [one.replace("0.05", "0.0300"), one.replace("0.05", "0.0200")].join("");
    expect(readCii(xml.replace(one, two)).lines[0]!.price).toEqual({ netPrice: "1.45", grossPrice: "1.50", discount: "0.0500" });
    expect(readCii(xml).lines[0]!.price.discount).toBe("0.05");
  });

  describe("logistics service fees (Factur-X EXTENDED BT-X-272)", () => {
    const fee = { amount: "15.00", reason: "Transportkosten", vatCategoryCode: "S", vatRate: "19", logisticsService: true };
    const freight = { amount: "10.00", reason: "Freight", vatCategoryCode: "S", vatRate: "19" };
    const withFee = (): Invoice => ({
      ...sample(),
      charges: [freight, fee],
      totals: { ...sample().totals, chargeTotal: "25.00", taxExclusiveTotal: "225.00" },
    });

    test("are read as document level charges and written back as such in EXTENDED", () => {
      const { xml, lost } = writeCii(withFee(), EXTENDED);
      expect(lost).toEqual([]);
      expect(count(xml, "ram:SpecifiedLogisticsServiceCharge")).toBe(1);
      expect(count(xml, "ram:SpecifiedTradeAllowanceCharge")).toBe(1);
      expect(xml).toMatch(
        /<ram:SpecifiedLogisticsServiceCharge>\s*<ram:Description>Transportkosten<\/ram:Description>\s*<ram:AppliedAmount>15\.00<\/ram:AppliedAmount>\s*<ram:AppliedTradeTax>\s*<ram:TypeCode>VAT<\/ram:TypeCode>\s*<ram:CategoryCode>S<\/ram:CategoryCode>\s*<ram:RateApplicablePercent>19<\/ram:RateApplicablePercent>/,
      );
      const read = readCii(xml);
      expect(read.charges).toEqual([freight, fee]);
      expect(writeCii(read, EXTENDED).xml).toBe(xml);
    });

    test("are plain charges for every other target, so BT-108 stays their sum", () => {
      for (const target of [D16B, { version: "D22B", profile: "en16931" } as CiiTarget]) {
        const { xml, lost } = writeCii(withFee(), target);
        expect(lost).toEqual([]);
        expect(xml).not.toContain("ram:SpecifiedLogisticsServiceCharge");
        expect(count(xml, "ram:SpecifiedTradeAllowanceCharge")).toBe(2);
        const { logisticsService: _, ...plainFee } = fee;
        expect(readCii(xml).charges).toEqual([freight, plainFee]);
      }
    });

    test("a marked charge the fee form cannot hold (reason code, percentage) stays a plain charge", () => {
      const coded = { ...fee, reasonCode: "FC" };
      const { xml } = writeCii({ ...withFee(), charges: [coded] }, EXTENDED);
      expect(xml).not.toContain("ram:SpecifiedLogisticsServiceCharge");
      expect(readCii(xml).charges).toEqual([{ ...coded, logisticsService: undefined }]);
    });
  });
});
