// Every figure the document states, computed once from the model by the line-level rule of
// values.ts; the writers only place them. Totals are sums of rounded line values, never
// recomputed from unrounded ones, which is what makes the arithmetic hold by construction.

import { decimal, type Decimal, type Invoice } from "../../model/index.ts";
import { fieldErrors } from "../../errors/domain-error.ts";
import { money, percentOf, precise, rate } from "./values.ts";

interface LineFigures {
  quantity: Decimal;
  unitPrice: Decimal;
  /** TotalCost = GrossAmount: quantity × unit price in cents (the API has no line discounts or charges). */
  cost: Decimal;
  rate: Decimal;
  tax: Decimal;
}

export interface RateFigures {
  rate: Decimal;
  base: Decimal;
  tax: Decimal;
}

export interface Figures {
  lines: LineFigures[];
  /** One entry per rate, in the order the lines first use it. */
  rates: RateFigures[];
  /** TotalGrossAmount and TotalGrossAmountBeforeTaxes: no general discounts or surcharges are written. */
  gross: Decimal;
  taxOutputs: Decimal;
  withheld: Decimal;
  /** InvoiceTotal, which is also the outstanding and the executable amount (nothing paid on account). */
  total: Decimal;
}

function lineFigures(line: Invoice["lines"][number]): LineFigures {
  const quantity = precise(line.quantity);
  const unitPrice = precise(line.price.netPrice);
  const cost = money(decimal.multiply(quantity, unitPrice));
  // Category O carries no rate (BR-O-05): outside the scope of VAT is 0 % for Facturae.
  const lineRate = rate(line.vat.rate ?? "0");
  return { quantity, unitPrice, cost, rate: lineRate, tax: percentOf(cost, lineRate) };
}

function byRate(lines: readonly LineFigures[]): RateFigures[] {
  const rates = new Map<string, RateFigures>();
  for (const l of lines) {
    const entry = rates.get(l.rate) ?? { rate: l.rate, base: "0.00", tax: "0.00" };
    rates.set(l.rate, { rate: l.rate, base: decimal.add(entry.base, l.cost), tax: decimal.add(entry.tax, l.tax) });
  }
  return [...rates.values()];
}

export function figuresOf(model: Invoice): Figures {
  const lines = model.lines.map(lineFigures);
  const rates = byRate(lines);
  const gross = money(decimal.sum(lines.map((l) => l.cost)));
  const taxOutputs = money(decimal.sum(rates.map((r) => r.tax)));
  const withheld = "0.00";
  const total = money(decimal.add(decimal.add(gross, taxOutputs), decimal.negate(withheld)));
  return { lines, rates, gross, taxOutputs, withheld, total };
}

/**
 * A line whose stated net amount is not its quantity × unit price in cents is refused: Facturae
 * states both and the amount it writes is the product, so writing it would silently change the
 * caller's figure.
 */
export function assertLineTotals(model: Invoice, figures: Figures): void {
  const wrong = model.lines.flatMap((line, i) =>
    decimal.sameDecimal(line.netAmount, figures.lines[i]!.cost)
      ? []
      : [{ path: `/invoice/lines/${i}/lineTotal`, message: `is ${line.netAmount}, but quantity × unitPrice is ${figures.lines[i]!.cost}, the amount Facturae writes`, keyword: "const" }],
  );
  if (wrong.length > 0) throw fieldErrors(wrong);
}
