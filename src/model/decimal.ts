// Decimal arithmetic on the model's decimal strings, exact, on BigInt: a value is an integer
// `units` scaled by 10^-scale, so "12.50" is (1250n, 2). No float ever touches an amount.

import type { Decimal } from "./common.ts";

interface Scaled {
  units: bigint;
  scale: number;
}

const DECIMAL = /^([+-])?(\d+)(?:\.(\d*))?$|^([+-])?\.(\d+)$/;

/** True for a plain decimal literal as XML Schema `xs:decimal` allows it ("-1.50", ".5", "+3."). */
export function isDecimal(text: string): boolean {
  return DECIMAL.test(text.trim());
}

function parse(value: Decimal): Scaled {
  const m = DECIMAL.exec(value.trim());
  if (!m) throw new RangeError(`not a decimal: ${JSON.stringify(value)}`);
  const sign = m[1] ?? m[4];
  const whole = m[2] ?? "0";
  const fraction = m[3] ?? m[5] ?? "";
  const units = BigInt(whole + fraction);
  return { units: sign === "-" ? -units : units, scale: fraction.length };
}

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

function rescale(x: Scaled, scale: number): bigint {
  return x.units * pow10(scale - x.scale);
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  return [rescale(x, scale), rescale(y, scale), scale];
}

function render(units: bigint, scale: number): Decimal {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const body = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${body}` : body;
}

/** a + b, exact; the result keeps the larger number of decimals ("1.5" + "2.25" = "3.75"). */
export function add(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b);
  return render(x + y, scale);
}

/** a × b, exact; the result has the decimals of both ("1.5" × "0.25" = "0.375"). */
export function multiply(a: Decimal, b: Decimal): Decimal {
  const x = parse(a);
  const y = parse(b);
  return render(x.units * y.units, x.scale + y.scale);
}

/** -1, 0 or 1 as a is less than, equal to or greater than b ("1.50" and "1.5" are equal). */
export function compare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Sum of any number of decimals; "0" for none. */
export function sum(values: readonly Decimal[]): Decimal {
  return values.reduce(add, "0");
}

/**
 * Exactly `places` decimals (>= 0), a tie rounded away from zero, the commercial rule ("5" -> "5.00",
 * "2.345" -> "2.35", "-2.345" -> "-2.35").
 */
export function toFixed(value: Decimal, places: number): Decimal {
  if (!Number.isInteger(places) || places < 0) throw new RangeError(`bad number of places: ${places}`);
  const x = parse(value);
  if (x.scale <= places) return render(rescale(x, places), places);
  const divisor = pow10(x.scale - places);
  const negative = x.units < 0n;
  const magnitude = negative ? -x.units : x.units;
  const quotient = magnitude / divisor;
  const twiceRemainder = (magnitude % divisor) * 2n;
  const roundsAway = twiceRemainder >= divisor;
  const rounded = roundsAway ? quotient + 1n : quotient;
  return render(negative ? -rounded : rounded, places);
}

/** -a. */
export function negate(value: Decimal): Decimal {
  const x = parse(value);
  return render(-x.units, x.scale);
}

/** The canonical form: no sign on zero, no leading zeros, no trailing fractional zeros ("01.50" -> "1.5"). */
export function normalize(value: Decimal): Decimal {
  let { units, scale } = parse(value);
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale--;
  }
  return render(units, scale);
}

/** Whether two texts are decimals of the same value, however written ("12.50" and "12.5"). */
export const sameDecimal = (a: string, b: string): boolean => isDecimal(a) && isDecimal(b) && normalize(a) === normalize(b);

/** Number of decimals as written ("1.50" -> 2), what BR-DEC-* rules count. */
export function decimalPlaces(value: Decimal): number {
  return parse(value).scale;
}
