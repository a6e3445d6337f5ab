// The e-SLOG test invoices: the shared scenarios in the Slovenian locale (22 % and 9.5 %), a long
// invoice, and the writer's input built the way generate builds it (request + its model).

import type { InvoiceInput } from "../../../src/invoice/schema.ts";
import { toModel } from "../../../src/invoice/to-model.ts";
import type { NationalInput } from "../../../src/syntax/national.ts";
import { LOCALES, SCENARIOS } from "../../../fixtures/invoices.ts";

const si = LOCALES.si;

const scenario = (name: string): InvoiceInput => {
  const found = SCENARIOS.find((s) => s.name === name);
  if (!found) throw new Error(`no scenario ${name}`);
  return found.build(si);
};

/** `count` lines at the two rates, with the totals a caller would send (cents, rounded per breakdown). */
export function manyLines(count: number): InvoiceInput {
  const base = scenario("domestic, one rate");
  const lines = Array.from({ length: count }, (_, i) => {
    const vatRate = i % 2 ? si.rates[1] : si.rates[0];
    const unitPrice = 1 + (i % 97) / 100;
    return { description: `Item ${i + 1}`, quantity: 1 + (i % 5), unitCode: "C62", unitPrice, lineTotal: Math.round((1 + (i % 5)) * unitPrice * 100) / 100, vatRate, vatCategoryCode: "S" };
  });
  const taxSummary = si.rates.map((vatRate) => {
    const base = lines.filter((l) => l.vatRate === vatRate).reduce((s, l) => s + Math.round(l.lineTotal * 100), 0);
    return { vatCategoryCode: "S", vatRate, taxableAmount: base / 100, taxAmount: Math.round((base * vatRate) / 100) / 100 };
  });
  const net = lines.reduce((s, l) => s + Math.round(l.lineTotal * 100), 0);
  const tax = taxSummary.reduce((s, t) => s + Math.round(t.taxAmount * 100), 0);
  return { ...base, number: "INV-2025-300", lines, taxSummary, totalNetAmount: net / 100, totalTaxAmount: tax / 100, totalGrossAmount: (net + tax) / 100 };
}

/** Category O: the line has no rate, its breakdown names the reason. */
function notSubject(): InvoiceInput {
  const base = scenario("domestic, one rate");
  const lines = [{ description: "Court fee passed on", quantity: 1, unitCode: "C62", unitPrice: 40, lineTotal: 40, vatRate: 0, vatCategoryCode: "O" }];
  const taxSummary = [{ vatCategoryCode: "O", vatRate: 0, taxableAmount: 40, taxAmount: 0, exemptionReasonText: "Not subject to VAT" }];
  return { ...base, number: "INV-2025-O", lines, taxSummary, totalNetAmount: 40, totalTaxAmount: 0, totalGrossAmount: 40 };
}

export const INVOICES: Record<string, InvoiceInput> = {
  domestic: scenario("domestic, one rate"),
  "several rates": scenario("domestic, two rates"),
  "foreign buyer": scenario("export outside the EU (G)"),
  "EU buyer, reverse charge": scenario("cross-border reverse charge (AE)"),
  exempt: scenario("exempt (E) with reason"),
  "credit note": scenario("credit note with preceding invoice"),
  "not subject to VAT (O)": notSubject(),
  "300 lines": manyLines(300),
};

export const input = (invoice: InvoiceInput): NationalInput => ({ invoice, model: toModel(invoice, { specificationIdentifier: "urn:cen.eu:en16931:2017" }) });
