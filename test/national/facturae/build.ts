// Spanish invoices for the Facturae writer's tests, with line totals computed as exact decimals so
// the request agrees with what Facturae writes (quantity × unit price in cents).

import { baseInvoice, LOCALES } from "../../../fixtures/invoices.ts";
import type { InvoiceInput } from "../../../src/invoice/schema.ts";
import { toModel } from "../../../src/invoice/to-model.ts";
import { decimal } from "../../../src/model/index.ts";
import type { NationalInput } from "../../../src/syntax/national.ts";

export const ES = LOCALES.es;

export interface LineSpec {
  quantity: number;
  unitPrice: number;
  vatRate: number;
  vatCategoryCode?: string;
}

const cents = (value: string): number => Number(decimal.toFixed(value, 2));

export function spanishInvoice(number: string, specs: readonly LineSpec[], extra: Partial<InvoiceInput> = {}): InvoiceInput {
  const lines = specs.map((s, i) => ({
    description: `Artículo ${i + 1}`,
    quantity: s.quantity,
    unitCode: "C62",
    unitPrice: s.unitPrice,
    lineTotal: cents(decimal.multiply(String(s.quantity), String(s.unitPrice))),
    vatRate: s.vatRate,
    vatCategoryCode: s.vatCategoryCode ?? (s.vatRate === 0 ? "Z" : "S"),
  }));
  const lineTax = (l: (typeof lines)[number]) => decimal.toFixed(decimal.multiply(String(l.lineTotal), decimal.multiply(String(l.vatRate), "0.01")), 2);
  const net = decimal.sum(lines.map((l) => String(l.lineTotal)));
  const tax = decimal.sum(lines.map(lineTax));
  const groups = Map.groupBy(lines, (l) => `${l.vatCategoryCode} ${l.vatRate}`);
  const taxSummary = [...groups.values()].map((g) => ({
    vatCategoryCode: g[0]!.vatCategoryCode,
    vatRate: g[0]!.vatRate,
    taxableAmount: cents(decimal.sum(g.map((l) => String(l.lineTotal)))),
    taxAmount: cents(decimal.sum(g.map(lineTax))),
  }));
  return {
    ...baseInvoice(ES, number),
    lines,
    taxSummary,
    totalNetAmount: cents(net),
    totalTaxAmount: cents(tax),
    totalGrossAmount: cents(decimal.add(net, tax)),
    ...extra,
  };
}

export const national = (invoice: InvoiceInput): NationalInput => ({ invoice, model: toModel(invoice, { specificationIdentifier: "urn:facturae:3.2.2" }) });
