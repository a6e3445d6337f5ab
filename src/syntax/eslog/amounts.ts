// Every amount e-SLOG carries, derived from the model's decimals so the totals agree by
// construction. Rounding rule: amounts are two-decimal values (the model's, or fixed to two places),
// and sums and differences of them are exact. The one rounding step is a VAT amount computed here,
// taxable × rate / 100 fixed to two decimals with a tie away from zero (decimal.toFixed's commercial
// rule): per line (MOA 124/38, informative) and per breakdown when the request gave no tax amount
// for that category and rate. A breakdown's taxable amount is always the sum of its lines (less
// allowances, plus charges of that category and rate), so MOA 125 over G_SG52 adds up to MOA 389.

import { decimal, type Decimal, type Invoice, type InvoiceLine, type VatBreakdown } from "../../model/index.ts";

const cents = (value: Decimal): Decimal => decimal.toFixed(value, 2);
const minus = (a: Decimal, b: Decimal): Decimal => decimal.add(a, decimal.negate(b));

/** VAT on a taxable amount, half-up at two decimals; no rate (category O) is no VAT. */
export function vatOn(taxable: Decimal, rate: Decimal | undefined): Decimal {
  return cents(rate === undefined ? "0" : decimal.multiply(decimal.multiply(taxable, rate), "0.01"));
}

export interface LineAmounts {
  net: Decimal;
  tax: Decimal;
  gross: Decimal;
}

export function lineAmounts(line: InvoiceLine): LineAmounts {
  const net = cents(line.netAmount);
  const tax = vatOn(net, line.vat.rate);
  return { net, tax, gross: decimal.add(net, tax) };
}

export interface Breakdown {
  categoryCode: string;
  rate?: Decimal;
  taxable: Decimal;
  tax: Decimal;
  exemptionReason?: string;
  exemptionReasonCode?: string;
}

export interface Totals {
  lineTotal: Decimal;
  allowanceTotal: Decimal;
  chargeTotal: Decimal;
  taxExclusive: Decimal;
  taxTotal: Decimal;
  taxInclusive: Decimal;
  prepaid?: Decimal;
  rounding?: Decimal;
  payable: Decimal;
  breakdowns: Breakdown[];
}

const keyOf = (categoryCode: string, rate: Decimal | undefined) => `${categoryCode}|${rate === undefined ? "" : decimal.normalize(rate)}`;

/** One breakdown per VAT category and rate, in the order lines (then allowances, charges) first name them. */
function breakdowns(model: Invoice): Breakdown[] {
  const given = new Map<string, VatBreakdown>(model.vatBreakdown.map((b) => [keyOf(b.categoryCode, b.rate), b]));
  const groups = new Map<string, { categoryCode: string; rate?: Decimal; amounts: Decimal[] }>();
  const enter = (categoryCode: string, rate: Decimal | undefined, amount: Decimal) => {
    const key = keyOf(categoryCode, rate);
    const entry = groups.get(key) ?? { categoryCode, rate, amounts: [] };
    entry.amounts.push(amount);
    groups.set(key, entry);
  };
  for (const line of model.lines) enter(line.vat.categoryCode, line.vat.rate, cents(line.netAmount));
  for (const a of model.allowances) enter(a.vatCategoryCode, a.vatRate, decimal.negate(cents(a.amount)));
  for (const c of model.charges) enter(c.vatCategoryCode, c.vatRate, cents(c.amount));
  return [...groups.entries()].map(([key, g]) => {
    const taxable = decimal.sum(g.amounts);
    // A category O line has no rate while its breakdown states one (to-model.ts), so O is matched by category.
    const stated = given.get(key) ?? (g.rate === undefined ? model.vatBreakdown.find((b) => b.categoryCode === g.categoryCode) : undefined);
    return {
      categoryCode: g.categoryCode,
      rate: g.rate,
      taxable,
      tax: stated ? cents(stated.taxAmount) : vatOn(taxable, g.rate),
      exemptionReason: stated?.exemptionReason,
      exemptionReasonCode: stated?.exemptionReasonCode,
    };
  });
}

export function totals(model: Invoice): Totals {
  const lineTotal = decimal.sum(model.lines.map((l) => cents(l.netAmount)));
  const allowanceTotal = cents(decimal.sum(model.allowances.map((a) => cents(a.amount))));
  const chargeTotal = cents(decimal.sum(model.charges.map((c) => cents(c.amount))));
  const taxExclusive = cents(decimal.add(minus(lineTotal, allowanceTotal), chargeTotal));
  const parts = breakdowns(model);
  const taxTotal = cents(decimal.sum(parts.map((b) => b.tax)));
  const taxInclusive = decimal.add(taxExclusive, taxTotal);
  const prepaid = model.totals.prepaidAmount === undefined ? undefined : cents(model.totals.prepaidAmount);
  const rounding = model.totals.roundingAmount === undefined ? undefined : cents(model.totals.roundingAmount);
  return {
    lineTotal: cents(lineTotal),
    allowanceTotal,
    chargeTotal,
    taxExclusive,
    taxTotal,
    taxInclusive,
    prepaid,
    rounding,
    payable: decimal.add(minus(taxInclusive, prepaid ?? "0"), rounding ?? "0"),
    breakdowns: parts,
  };
}
