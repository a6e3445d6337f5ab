// FatturaPA numbers and the one rounding rule every amount follows, so SDI's arithmetic controls
// hold by construction:
//   PrezzoUnitario, Quantita: the model's value rounded half-up to 8 decimals, written as rounded;
//   PrezzoTotale = round2(PrezzoUnitario × Quantita) of the values as written (control 00423);
//   ImponibileImporto = Σ PrezzoTotale of the lines with that AliquotaIVA and Natura (00422);
//   Imposta = round2(ImponibileImporto × AliquotaIVA / 100) (00421).
// round2 is half-up (away from zero on a tie), the commercial rule SDI applies. Exact decimals only.

import type { Decimal } from "../../model/common.ts";
import { multiply, normalize, sum, toFixed } from "../../model/decimal.ts";

/** At least two decimals and at most eight, no trailing zeros beyond two (Amount8DecimalType, QuantitaType). */
export function eightDecimals(value: Decimal): string {
  const short = normalize(toFixed(value, 8));
  const places = short.includes(".") ? short.length - short.indexOf(".") - 1 : 0;
  return places >= 2 ? short : toFixed(short, 2);
}

/** Exactly two decimals (Amount2DecimalType, RateType). */
export const twoDecimals = (value: Decimal): string => toFixed(value, 2);

/** PrezzoTotale of a line from the unit price and quantity as written. */
export const lineTotal = (unitPrice: string, quantity: string): string => twoDecimals(multiply(unitPrice, quantity));

/** Imposta on a taxable amount at a rate in percent. */
export const taxOn = (taxable: string, rate: string): string => twoDecimals(multiply(taxable, multiply(rate, "0.01")));

/** A sum of two-decimal amounts, written with two decimals. */
export const total = (amounts: readonly string[]): string => twoDecimals(sum(amounts));
