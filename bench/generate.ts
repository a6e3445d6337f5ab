/** Generate-with-verify over HTTP: a typical invoice and a 500-line one per standard. */
import { load, type LoadResult } from "./http";
import { LOCALES, SCENARIOS } from "../test/generate/fixtures";
import type { InvoiceInput } from "../src/invoice/schema";

export const GENERATE_TARGETS = [
  { name: "XRechnung CII", request: { standard: "xrechnung" } },
  { name: "XRechnung UBL", request: { standard: "xrechnung", syntax: "ubl" } },
  { name: "ZUGFeRD EN16931", request: { standard: "zugferd", profile: "en16931" } },
  { name: "Factur-X EXTENDED", request: { standard: "facturx", profile: "extended" } },
  { name: "Peppol BIS 3", request: { standard: "peppol-bis" } },
] as const;

/** The typical German invoice of the generation matrix, with its lines repeated `count` times. */
export function invoiceWithLines(count: number): InvoiceInput {
  const typical = SCENARIOS[0].build(LOCALES.de);
  if (count <= typical.lines.length) return typical;
  const rate = typical.lines[0].vatRate;
  const lines = Array.from({ length: count }, (_, i) => ({ description: `Item ${i + 1}`, quantity: 2, unitCode: "C62", unitPrice: 12.5, lineTotal: 25, vatRate: rate, vatCategoryCode: "S", itemId: `SKU-${i + 1}` }));
  const net = 25 * count;
  const tax = Math.round(net * rate) / 100;
  return {
    ...typical,
    lines,
    taxSummary: [{ vatCategoryCode: "S", vatRate: rate, taxableAmount: net, taxAmount: tax }],
    totalNetAmount: net,
    totalTaxAmount: tax,
    totalGrossAmount: Math.round((net + tax) * 100) / 100,
  };
}

export interface GenerateFigure {
  name: string;
  lines: number;
  result: LoadResult;
}

export async function generateOverHttp(base: string, keys: string[], clients: number, seconds: number): Promise<GenerateFigure[]> {
  const figures: GenerateFigure[] = [];
  for (const lines of [2, 500]) {
    const invoice = invoiceWithLines(lines);
    for (const target of GENERATE_TARGETS) {
      const body = JSON.stringify({ ...target.request, output: "xml", invoice });
      const result = await load(
        (i) => fetch(`${base}/v1/generate`, { method: "POST", headers: { "x-api-key": keys[i % keys.length], "content-type": "application/json" }, body }),
        clients,
        seconds,
        lines > 100 ? clients * 4 : 10_000,
      );
      figures.push({ name: target.name, lines, result });
    }
  }
  return figures;
}
