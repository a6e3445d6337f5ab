/** Generate-with-verify over HTTP: a typical invoice and a 500-line one per standard. */
import { load, type LoadResult } from "./http";
import { LOCALES, SCENARIOS } from "../fixtures/invoices.ts";
import type { InvoiceInput } from "../src/invoice/schema";

export const GENERATE_TARGETS = [
  { name: "XRechnung CII", request: { standard: "xrechnung" }, locale: "de" },
  { name: "XRechnung UBL", request: { standard: "xrechnung", syntax: "ubl" }, locale: "de" },
  { name: "ZUGFeRD EN16931", request: { standard: "zugferd", profile: "en16931" }, locale: "de" },
  { name: "Factur-X EXTENDED", request: { standard: "facturx", profile: "extended" }, locale: "de" },
  { name: "Peppol BIS 3", request: { standard: "peppol-bis" }, locale: "de" },
  { name: "FatturaPA FPR12", request: { standard: "fatturapa" }, locale: "it" },
  { name: "Facturae 3.2.2", request: { standard: "facturae" }, locale: "es" },
  { name: "e-SLOG 2.0", request: { standard: "eslog" }, locale: "si" },
] as const;

/** The typical invoice of the generation matrix in a locale, with its lines repeated `count` times. */
export function invoiceWithLines(count: number, locale: keyof typeof LOCALES = "de"): InvoiceInput {
  const typical = SCENARIOS[0].build(LOCALES[locale]);
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
  for (const lines of [2, 300, 500]) {
    for (const target of GENERATE_TARGETS) {
      const body = JSON.stringify({ ...target.request, output: "xml", invoice: invoiceWithLines(lines, target.locale) });
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

export interface PdfFigure {
  lines: number;
  p50ms: number;
  p95ms: number;
  bytes: number;
  pages: number;
}

/** Hybrid PDF/A-3 generation alone (XML written, then drawn and wrapped), in-process, per invoice size. */
export async function hybridPdfTimings(runs = 20): Promise<PdfFigure[]> {
  const { generateXml } = await import("../src/generate/generate");
  const { renderPdfOutput } = await import("../src/generate/pdf-output");
  const { PDFDocument } = await import("pdf-lib");
  const figures: PdfFigure[] = [];
  for (const lines of [1, 300]) {
    const typical = invoiceWithLines(lines);
    const invoice = lines === 1 ? { ...typical, lines: typical.lines.slice(0, 1), ...oneLineTotals(typical) } : typical;
    const times: number[] = [];
    let pdf: Uint8Array = new Uint8Array();
    for (let i = 0; i < runs + 2; i++) {
      const started = performance.now();
      const generated = generateXml({ standard: "facturx", profile: "en16931", invoice } as never, { livemode: true });
      pdf = await renderPdfOutput(generated, "hybrid", { template: "standard", livemode: true, now: new Date("2026-11-22T00:00:00Z") });
      if (i >= 2) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const pages = (await PDFDocument.load(pdf)).getPageCount();
    figures.push({ lines, p50ms: times[Math.floor(times.length / 2)], p95ms: times[Math.floor(times.length * 0.95)], bytes: pdf.byteLength, pages });
  }
  return figures;
}

function oneLineTotals(invoice: InvoiceInput): Pick<InvoiceInput, "taxSummary" | "totalNetAmount" | "totalTaxAmount" | "totalGrossAmount"> {
  const line = invoice.lines[0];
  const tax = Math.round(line.lineTotal * line.vatRate) / 100;
  return {
    taxSummary: [{ vatCategoryCode: line.vatCategoryCode, vatRate: line.vatRate, taxableAmount: line.lineTotal, taxAmount: tax }],
    totalNetAmount: line.lineTotal,
    totalTaxAmount: tax,
    totalGrossAmount: Math.round((line.lineTotal + tax) * 100) / 100,
  };
}
