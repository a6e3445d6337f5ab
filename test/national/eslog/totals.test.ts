// The totals e-SLOG writes add up exactly, in cents, over random invoices: G_SG50 against the
// lines and the G_SG52 breakdowns, each line's amount with VAT against its net and tax.

import { expect, test } from "bun:test";
import type { InvoiceInput } from "../../../src/invoice/schema.ts";
import { writeEslog } from "../../../src/syntax/eslog/write.ts";
import { INVOICES, input } from "./invoices.ts";
import { rng } from "../../support/rng.ts";

const random = (seed: number) => rng(seed).next;

const RATES = [
  { vatCategoryCode: "S", vatRate: 22 },
  { vatCategoryCode: "S", vatRate: 9.5 },
  { vatCategoryCode: "S", vatRate: 5 },
  { vatCategoryCode: "E", vatRate: 0 },
];

function randomInvoice(next: () => number, withSummary: boolean): InvoiceInput {
  const count = 1 + Math.floor(next() * 40);
  const lines = Array.from({ length: count }, (_, i) => {
    const rate = RATES[Math.floor(next() * RATES.length)]!;
    const cents = Math.floor(next() * 10_000_000);
    return { description: `Item ${i}`, quantity: 1, unitCode: "C62", unitPrice: cents / 100, lineTotal: cents / 100, ...rate };
  });
  const taxSummary = RATES.filter((r) => lines.some((l) => l.vatRate === r.vatRate && l.vatCategoryCode === r.vatCategoryCode)).map((r) => {
    const base = lines.filter((l) => l.vatRate === r.vatRate && l.vatCategoryCode === r.vatCategoryCode).reduce((s, l) => s + Math.round(l.lineTotal * 100), 0);
    return { ...r, taxableAmount: base / 100, taxAmount: Math.round((base * r.vatRate) / 100) / 100 };
  });
  const { taxSummary: _, ...base } = INVOICES.domestic!;
  return { ...base, lines, ...(withSummary ? { taxSummary } : {}), totalNetAmount: 0, totalTaxAmount: 0, totalGrossAmount: 0 };
}

const cents = (text: string) => BigInt(text.replace(".", ""));
const amounts = (xml: string, qualifier: string) => [...xml.matchAll(new RegExp(`<D_5025>${qualifier}</D_5025>\\s*<D_5004>(-?\\d+\\.\\d{2})</D_5004>`, "g"))].map((m) => cents(m[1]!));
const total = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);
const section = (xml: string, from: string, to: string) => xml.slice(xml.indexOf(from), to ? xml.indexOf(to) : undefined);

test("totals identities hold exactly over 200 random invoices", () => {
  const next = random(20_251_126);
  for (let run = 0; run < 200; run++) {
    const xml = writeEslog(input(randomInvoice(next, run % 2 === 0))).xml;
    const lines = section(xml, "<G_SG26>", "<G_SG50>");
    const breakdowns = section(xml, "<G_SG52>", "");
    const [sum, allowances, charges, exclusive, vat, inclusive, due] = ["79", "260", "259", "389", "176", "388", "9"].map((q) => amounts(section(xml, "<G_SG50>", "<G_SG52>"), q)[0]!);
    expect(sum).toBe(total(amounts(lines, "203")));
    expect(exclusive).toBe(sum! - allowances! + charges!);
    expect(total(amounts(breakdowns, "125"))).toBe(exclusive!);
    expect(vat).toBe(total(amounts(breakdowns, "124")));
    expect(inclusive).toBe(exclusive! + vat!);
    expect(due).toBe(inclusive!);
    const [net, gross, tax] = [amounts(lines, "203"), amounts(lines, "38"), amounts(lines, "124")];
    gross.forEach((g, i) => expect(g).toBe(net[i]! + tax[i]!));
  }
});
