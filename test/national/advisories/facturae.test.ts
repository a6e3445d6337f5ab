// Each FACe / Facturae validator check in the Facturae advisory table fires on a minimal mutation
// of our own document and not on the document itself; the verdict stays valid.

import { describe, expect, test } from "bun:test";
import { FACTURAE_RULES } from "../../../src/validation/national-advisories/facturae.ts";
import { advisoryIds, generated, judge, mutate } from "./support.ts";

// Line 1: 10 × 120 = 1200.00; line 2: 1 × 85.5 = 85.50; all at 21%, InvoiceTotal 1555.46.
const base = generated("facturae", "domestic, one rate")!;
const LINE_1 = "<TotalCost>1200.00</TotalCost>\n          <GrossAmount>1200.00</GrossAmount>";
const withDiscount = (gross: string) =>
  mutate(base, LINE_1, `<TotalCost>1200.00</TotalCost><DiscountsAndRebates><Discount><DiscountReason>Promo</DiscountReason><DiscountAmount>100.00</DiscountAmount></Discount></DiscountsAndRebates><GrossAmount>${gross}</GrossAmount>`);

const CASES: { rule: string; what: string; xml: () => string }[] = [
  { rule: "RCF06001", what: "a line amount with three decimals", xml: () => mutate(base, "<TotalCost>1200.00</TotalCost>", "<TotalCost>1200.001</TotalCost>") },
  { rule: "INVOICE_TOTAL", what: "InvoiceTotal a cent off", xml: () => mutate(base, "<InvoiceTotal>1555.46</InvoiceTotal>", "<InvoiceTotal>1555.47</InvoiceTotal>") },
  { rule: "TOTAL_COST", what: "TotalCost a euro above Quantity × UnitPriceWithoutTax", xml: () => mutate(base, LINE_1, LINE_1.replaceAll("1200.00", "1201.00")) },
  { rule: "GROSS_AMOUNT", what: "GrossAmount not TotalCost", xml: () => mutate(base, "<GrossAmount>1200.00</GrossAmount>", "<GrossAmount>1199.00</GrossAmount>") },
  { rule: "GROSS_AMOUNT", what: "GrossAmount ignoring the line's discount", xml: () => withDiscount("1200.00") },
];

describe("Facturae FACe advisories", () => {
  test("our document draws none, nor one whose line discount is applied", async () => {
    expect(advisoryIds(await judge(base))).toEqual([]);
    expect(advisoryIds(await judge(withDiscount("1100.00")))).toEqual([]);
  });

  test.each(CASES)("$rule fires on $what, as a warning, and the verdict stays valid", async ({ rule, xml }) => {
    const result = await judge(xml());
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(advisoryIds(result)).toEqual([`FACTURAE_${rule}_NOT_ENFORCED`]);
    expect(result.warnings[0]).toMatchObject({ severity: "warning", location: expect.stringMatching(/^\/fe:Facturae\/Invoices\/Invoice/) });
  });

  test("every rule of the table has a case", () => {
    expect(new Set(CASES.map((c) => `FACTURAE_${c.rule}_NOT_ENFORCED`))).toEqual(new Set(FACTURAE_RULES.map((r) => r.id)));
  });

  test("RCF06001 weighs euro invoices only; the unit price keeps its eight decimals", async () => {
    const dollars = mutate(mutate(base, "<TotalCost>1200.00</TotalCost>", "<TotalCost>1200.001</TotalCost>"), "<InvoiceCurrencyCode>EUR</InvoiceCurrencyCode>\n        <TaxCurrencyCode>", "<InvoiceCurrencyCode>USD</InvoiceCurrencyCode>\n        <TaxCurrencyCode>");
    expect(advisoryIds(await judge(dollars))).not.toContain("FACTURAE_RCF06001_NOT_ENFORCED");
    const price = mutate(base, "<UnitPriceWithoutTax>120</UnitPriceWithoutTax>", "<UnitPriceWithoutTax>120.00000001</UnitPriceWithoutTax>");
    expect(advisoryIds(await judge(price))).toEqual([]);
  });

  test("a value that is no number is passed over, never thrown on", async () => {
    const result = await judge(mutate(base, "<InvoiceTotal>1555.46</InvoiceTotal>", "<InvoiceTotal>mil</InvoiceTotal>"));
    expect(result.valid).toBe(false);
    expect(advisoryIds(result)).toEqual([]);
  });
});
