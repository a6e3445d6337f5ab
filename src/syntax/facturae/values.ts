// How Facturae numbers are written. The rounding rule, line level (josemmo/Facturae-PHP's
// PRECISION_LINE, the mode FACe accepts): each line's cost and tax are rounded to cents half-up,
// and every total is a sum of those rounded values, so InvoiceTotal = TotalGrossAmountBeforeTaxes
// + TotalTaxOutputs - TotalTaxesWithheld holds to the cent and no euro amount carries a third
// decimal (FACe RCF06001, Orden HAP/1650/2015 annex II rule 6a, stricter than the XSD's eight).

import { decimal, type Decimal } from "../../model/index.ts";

/** An amount as FACe wants it: exactly two decimals, half-up. */
export const money = (value: Decimal): Decimal => decimal.toFixed(value, 2);

/** Unit prices and quantities keep their precision, within DoubleUpToEightDecimalType's eight decimals. */
export const precise = (value: Decimal): Decimal => decimal.normalize(decimal.toFixed(value, 8));

/** A VAT rate in percent, written with two decimals as the Facturae examples do ("21.00"). */
export const rate = (value: Decimal): Decimal => decimal.toFixed(value, 2);

/** `base` × `percent` / 100 rounded to cents: a line's tax. */
export const percentOf = (base: Decimal, percent: Decimal): Decimal => money(decimal.multiply(decimal.multiply(base, percent), "0.01"));
