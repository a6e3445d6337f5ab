// The Facturae 3.2.2 writer: schema-valid for domestic, EU and foreign buyers, several rates and a
// long invoice; deterministic; arithmetic exact under random amounts; too-long values refused.

import { describe, expect, test } from "bun:test";
import { rulesetBundle } from "../../../src/assets/bundle.ts";
import { DomainError } from "../../../src/errors/domain-error.ts";
import { decimal } from "../../../src/model/index.ts";
import { writeFacturae } from "../../../src/syntax/facturae/write.ts";
import { createEngine } from "../../../src/validation/engine.ts";
import { validateDocument } from "../../../src/validation/validate.ts";
import { ES, national, spanishInvoice, type LineSpec } from "./build.ts";

const engine = createEngine(rulesetBundle());

async function schemaErrors(xml: string) {
  const outcome = await validateDocument(engine, { bytes: new TextEncoder().encode(xml), record: "facturae:spain-facturae-v3-2-2" });
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.result.errors;
}

const element = (xml: string, name: string): string[] => [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, "g"))].map((m) => m[1]!);

const ONE_RATE: LineSpec[] = [
  { quantity: 3, unitPrice: 19.99, vatRate: 21 },
  { quantity: 1.5, unitPrice: 80, vatRate: 21 },
];

const CASES = {
  domestic: spanishInvoice("ES-2025-001", ONE_RATE),
  "EU buyer": spanishInvoice("ES-2025-002", [{ quantity: 2, unitPrice: 150, vatRate: 0, vatCategoryCode: "K" }], { buyer: ES.euBuyer }),
  "foreign buyer": spanishInvoice("ES-2025-003", [{ quantity: 4, unitPrice: 99.95, vatRate: 0, vatCategoryCode: "G" }], { buyer: ES.foreignBuyer }),
  "rates 21, 10 and 4": spanishInvoice("ES-2025-004", [
    { quantity: 3, unitPrice: 12.345, vatRate: 21 },
    { quantity: 7, unitPrice: 0.333, vatRate: 10 },
    { quantity: 1, unitPrice: 2.5, vatRate: 4 },
    { quantity: 2, unitPrice: 9.99, vatRate: 21 },
  ]),
  "300 lines": spanishInvoice(
    "ES-2025-005",
    Array.from({ length: 300 }, (_, i) => ({ quantity: (i % 7) + 1, unitPrice: 1 + i * 0.37, vatRate: [21, 10, 4][i % 3]! })),
  ),
};

describe("Facturae 3.2.2 writer", () => {
  for (const [name, invoice] of Object.entries(CASES)) {
    test(`${name}: valid under the pinned XSD`, async () => {
      const { xml } = writeFacturae(national(invoice));
      expect(await schemaErrors(xml)).toEqual([]);
    });
  }

  test("deterministic: the same request gives the same bytes", () => {
    expect(writeFacturae(national(CASES["rates 21, 10 and 4"])).xml).toBe(writeFacturae(national(CASES["rates 21, 10 and 4"])).xml);
  });

  test("parties: J and R for a Spanish company, U in the EU, E with an overseas address elsewhere", () => {
    const domestic = writeFacturae(national(CASES.domestic)).xml;
    expect(element(domestic, "PersonTypeCode")).toEqual(["J", "J"]);
    expect(element(domestic, "ResidenceTypeCode")).toEqual(["R", "R"]);
    expect(element(domestic, "TaxIdentificationNumber")).toEqual(["B12345674", "A87654321"]);
    expect(element(domestic, "BatchIdentifier")).toEqual(["B12345674-ES-2025-001"]);
    expect(element(writeFacturae(national(CASES["EU buyer"])).xml, "ResidenceTypeCode")).toEqual(["R", "U"]);
    const foreign = writeFacturae(national(CASES["foreign buyer"])).xml;
    expect(element(foreign, "ResidenceTypeCode")).toEqual(["R", "E"]);
    expect(element(foreign, "PostCodeAndTown")).toEqual(["02114 Boston"]);
    expect(element(foreign, "CountryCode")).toEqual(["ESP", "USA"]);
  });

  test("an intra-Community supply and an export say why they carry no VAT", () => {
    expect(element(writeFacturae(national(CASES["EU buyer"])).xml, "SpecialTaxableEventReason")).toEqual(["Intra-Community supply"]);
    expect(element(writeFacturae(national(CASES["foreign buyer"])).xml, "SpecialTaxableEventCode")).toEqual(["01"]);
    expect(element(writeFacturae(national(CASES.domestic)).xml, "SpecialTaxableEventCode")).toEqual([]);
  });

  test("a DNI makes the seller an individual, its name split into given name and surnames", () => {
    const invoice = spanishInvoice("ES-2025-006", ONE_RATE, { seller: { ...ES.seller, name: "Lucía García López", vatId: "ES12345678Z" } });
    const { xml } = writeFacturae(national(invoice));
    expect(element(xml, "PersonTypeCode")[0]).toBe("F");
    expect(element(xml, "Name")).toEqual(["Lucía"]);
    expect(element(xml, "FirstSurname")).toEqual(["García López"]);
  });

  test("several rates: one Tax per rate, line taxes summing exactly to it", () => {
    const { xml } = writeFacturae(national(CASES["rates 21, 10 and 4"]));
    const invoiceTaxes = xml.split("<Items>")[0]!;
    expect(element(invoiceTaxes, "TaxRate")).toEqual(["21.00", "10.00", "4.00"]);
    const lineTaxes = xml.split("<Items>")[1]!.split("<InvoiceLine>").slice(1).map((l) => ({ rate: element(l, "TaxRate")[0]!, tax: element(l, "TotalAmount")[1]! }));
    const rateTaxes = element(invoiceTaxes.split("</InvoiceIssueData>")[1]!, "TotalAmount").filter((_, i) => i % 2 === 1);
    expect(["21.00", "10.00", "4.00"].map((r) => decimal.toFixed(decimal.sum(lineTaxes.filter((l) => l.rate === r).map((l) => l.tax)), 2))).toEqual(rateTaxes);
    expect(element(xml, "TotalCost")).toEqual(["37.04", "2.33", "2.50", "19.98"]);
    expect(element(xml, "UnitPriceWithoutTax")).toEqual(["12.345", "0.333", "2.5", "9.99"]);
  });

  test("payment: a SEPA credit transfer (58) is Facturae 04 to the seller's IBAN", () => {
    const { xml } = writeFacturae(national(CASES.domestic));
    expect(element(xml, "PaymentMeans")).toEqual(["04"]);
    expect(element(xml, "IBAN")).toEqual([ES.iban]);
    expect(element(xml, "InstallmentAmount")).toEqual(element(xml, "InvoiceTotal"));
  });

  test("property: random amounts, quantities and rates keep two-decimal euros and the totals identity", () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let run = 0; run < 200; run++) {
      const specs = Array.from({ length: 1 + Math.floor(random() * 12) }, () => ({
        quantity: Math.round(random() * 10000) / 1000 + 0.001,
        unitPrice: Math.round(random() * 1e7) / 1e4,
        vatRate: [21, 10, 4, 0, 5, 7.5][Math.floor(random() * 6)]!,
      }));
      const { xml } = writeFacturae(national(spanishInvoice(`P-${run}`, specs)));
      for (const name of ["TotalAmount", "TotalCost", "GrossAmount", "TotalGrossAmount", "TotalGrossAmountBeforeTaxes", "TotalTaxOutputs", "TotalTaxesWithheld", "InvoiceTotal", "TotalOutstandingAmount", "TotalExecutableAmount", "InstallmentAmount"]) {
        for (const value of element(xml, name)) expect(value).toMatch(/^-?\d+\.\d{2}$/);
      }
      const [before] = element(xml, "TotalGrossAmountBeforeTaxes");
      const [taxes] = element(xml, "TotalTaxOutputs");
      const [withheld] = element(xml, "TotalTaxesWithheld");
      const [total] = element(xml, "InvoiceTotal");
      expect(decimal.sameDecimal(decimal.add(decimal.add(before!, taxes!), decimal.negate(withheld!)), total!)).toBe(true);
      expect(decimal.sameDecimal(decimal.sum(element(xml, "TotalCost")), before!)).toBe(true);
    }
  });

  test("request fields Facturae has no place for are reported lost, with an unmapped unit", () => {
    const invoice = spanishInvoice("ES-2025-009", ONE_RATE);
    const { lost } = writeFacturae(national({ ...invoice, lines: [{ ...invoice.lines[0]!, unitCode: "ZZ" }, invoice.lines[1]!] }));
    expect(lost).toContainEqual({ bt: "BT-22", xpath: "/invoice/note" });
    expect(lost).toContainEqual({ bt: "BT-130", xpath: "/invoice/lines/0/unitCode" });
  });

  function refusal(run: () => unknown): DomainError {
    try {
      run();
    } catch (e) {
      if (e instanceof DomainError) return e;
      throw e;
    }
    throw new Error("not refused");
  }

  test("a value too long for its Facturae field is a 400 naming the request's pointer", () => {
    const invoice = spanishInvoice("ES-2025-007", ONE_RATE, { buyer: { ...ES.buyer, address: { ...ES.buyer.address, city: "C".repeat(51) } } });
    const e = refusal(() => writeFacturae(national(invoice)));
    expect(e.status).toBe(400);
    expect(e.code).toBe("VALIDATION_ERROR");
    expect(e.details).toEqual({ fields: [{ path: "/invoice/buyer/address/city", message: expect.stringContaining("at most 50"), keyword: "maxLength" }] });
    const number = refusal(() => writeFacturae(national(spanishInvoice("N".repeat(21), ONE_RATE))));
    expect(number.details).toEqual({ fields: [{ path: "/invoice/number", message: expect.stringContaining("InvoiceNumber (TextMax20Type) holds at most 20"), keyword: "maxLength" }] });
  });

  test("a line total other than quantity × unit price is refused, not silently rewritten", () => {
    const invoice = spanishInvoice("ES-2025-008", ONE_RATE);
    const e = refusal(() => writeFacturae(national({ ...invoice, lines: [{ ...invoice.lines[0]!, lineTotal: 60 }, invoice.lines[1]!] })));
    expect(e.details).toEqual({ fields: [{ path: "/invoice/lines/0/lineTotal", message: expect.any(String), keyword: "const" }] });
  });
});
