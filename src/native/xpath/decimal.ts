/**
 * xs:decimal and xs:integer as Saxon-HE computes them: exact BigInt values with a scale (Java
 * BigDecimal semantics), so that amounts, half-cent rounding and IBAN check digits come out
 * exactly as on the reference engine.
 */
import { fail } from "./errors.ts";

/** Digits Saxon keeps at least when a decimal division does not terminate. */
const DIVIDE_PRECISION = 18;

const pow10Cache: bigint[] = [];
function pow10(n: number): bigint {
  return (pow10Cache[n] ??= 10n ** BigInt(n));
}

export class Dec {
  /** value = unscaled / 10^scale; `integer` marks an xs:integer (always scale 0). */
  constructor(
    readonly unscaled: bigint,
    readonly scale: number,
    readonly integer: boolean,
  ) {}

  static integer(value: bigint): Dec {
    return new Dec(value, 0, true);
  }

  /** Parses the xs:decimal lexical form (no exponent); null when it is not one. */
  static parse(text: string, integer = false): Dec | null {
    const m = (integer ? /^([+-]?)(\d+)()$/ : /^([+-]?)(\d*)(?:\.(\d*))?$/).exec(text);
    if (!m || (m[2] === "" && (m[3] ?? "") === "")) return null;
    const fraction = m[3] ?? "";
    const unscaled = BigInt((m[2] || "0") + fraction);
    return new Dec(m[1] === "-" ? -unscaled : unscaled, fraction.length, integer);
  }

  /** The exact value of a finite double, as Java's `new BigDecimal(double)` gives it. */
  static fromDouble(value: number, integer = false): Dec {
    if (!Number.isFinite(value)) fail("FOCA0002", `cannot convert ${value} to a decimal`);
    if (integer) value = Math.trunc(value);
    if (value === 0) return new Dec(0n, 0, integer);
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, value);
    const bits = view.getBigUint64(0);
    const negative = bits >> 63n === 1n;
    const biased = Number((bits >> 52n) & 0x7ffn);
    let mantissa = bits & 0xfffffffffffffn;
    let exponent: number;
    if (biased === 0) exponent = -1074;
    else {
      mantissa |= 1n << 52n;
      exponent = biased - 1075;
    }
    while (mantissa % 2n === 0n && exponent < 0) {
      mantissa /= 2n;
      exponent++;
    }
    let unscaled: bigint;
    let scale = 0;
    if (exponent >= 0) unscaled = mantissa << BigInt(exponent);
    else {
      scale = -exponent;
      unscaled = mantissa * 5n ** BigInt(scale);
    }
    return new Dec(negative ? -unscaled : unscaled, scale, integer);
  }

  toNumber(): number {
    return Number(this.toString());
  }

  isZero(): boolean {
    return this.unscaled === 0n;
  }

  sign(): number {
    return this.unscaled === 0n ? 0 : this.unscaled < 0n ? -1 : 1;
  }

  /** The canonical xs:decimal / xs:integer string: no exponent, no trailing zeros, no ".0". */
  toString(): string {
    if (this.scale === 0) return this.unscaled.toString();
    const negative = this.unscaled < 0n;
    const digits = (negative ? -this.unscaled : this.unscaled).toString().padStart(this.scale + 1, "0");
    const whole = digits.slice(0, digits.length - this.scale);
    const fraction = digits.slice(digits.length - this.scale).replace(/0+$/, "");
    const text = fraction ? `${whole}.${fraction}` : whole;
    return negative && text !== "0" ? `-${text}` : text;
  }

  asDecimal(): Dec {
    return this.integer ? new Dec(this.unscaled, 0, false) : this;
  }

  neg(): Dec {
    return new Dec(-this.unscaled, this.scale, this.integer);
  }

  abs(): Dec {
    return this.unscaled < 0n ? this.neg() : this;
  }

  add(other: Dec): Dec {
    const [a, b, scale] = align(this, other);
    return new Dec(a + b, scale, this.integer && other.integer);
  }

  sub(other: Dec): Dec {
    const [a, b, scale] = align(this, other);
    return new Dec(a - b, scale, this.integer && other.integer);
  }

  mul(other: Dec): Dec {
    return new Dec(this.unscaled * other.unscaled, this.scale + other.scale, this.integer && other.integer);
  }

  /**
   * `div`: always xs:decimal; exact when the quotient terminates, else rounded at max(18, the
   * operands' scales) digits, as Saxon-HE does (a non-terminating quotient has no exact half, so
   * the rounding rule cannot matter).
   */
  div(other: Dec): Dec {
    if (other.unscaled === 0n) fail("FOAR0001", "decimal division by zero");
    // this / other = numerator / denominator with both as integers.
    let numerator = this.unscaled * pow10(other.scale);
    let denominator = other.unscaled * pow10(this.scale);
    if (denominator < 0n) {
      numerator = -numerator;
      denominator = -denominator;
    }
    const divisor = gcd(numerator < 0n ? -numerator : numerator, denominator);
    numerator /= divisor;
    denominator /= divisor;
    const exactScale = terminatingScale(denominator);
    if (exactScale !== null) return new Dec(numerator * (pow10(exactScale) / denominator), exactScale, false);
    const scale = Math.max(DIVIDE_PRECISION, this.scale, other.scale);
    return new Dec(roundHalfUp(numerator * pow10(scale), denominator), scale, false);
  }

  idiv(other: Dec): Dec {
    if (other.unscaled === 0n) fail("FOAR0001", "integer division by zero");
    const [a, b] = align(this, other);
    return Dec.integer(a / b);
  }

  mod(other: Dec): Dec {
    if (other.unscaled === 0n) fail("FOAR0001", "modulus by zero");
    const [a, b, scale] = align(this, other);
    return new Dec(a % b, scale, this.integer && other.integer);
  }

  compare(other: Dec): number {
    const [a, b] = align(this, other);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** fn:round: half towards positive infinity. */
  round(): Dec {
    if (this.scale === 0) return this;
    const unit = pow10(this.scale);
    return new Dec(floorDiv(2n * this.unscaled + unit, 2n * unit), 0, this.integer);
  }

  floor(): Dec {
    return this.scale === 0 ? this : new Dec(floorDiv(this.unscaled, pow10(this.scale)), 0, this.integer);
  }

  ceiling(): Dec {
    return this.scale === 0 ? this : new Dec(-floorDiv(-this.unscaled, pow10(this.scale)), 0, this.integer);
  }

  /** Truncation towards zero, as a cast to xs:integer does. */
  truncate(): Dec {
    return Dec.integer(this.unscaled / pow10(this.scale));
  }
}

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  if (a.scale === b.scale) return [a.unscaled, b.unscaled, a.scale];
  if (a.scale > b.scale) return [a.unscaled, b.unscaled * pow10(a.scale - b.scale), a.scale];
  return [a.unscaled * pow10(b.scale - a.scale), b.unscaled, b.scale];
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n) && ((a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** Rounds numerator / denominator (denominator > 0) to an integer, halves away from zero. */
function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  const q = numerator / denominator;
  const r = numerator % denominator;
  if (2n * (r < 0n ? -r : r) < denominator) return q;
  return numerator < 0n ? q - 1n : q + 1n;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) {
    const rest = a % b;
    a = b;
    b = rest;
  }
  return a === 0n ? 1n : a;
}

/** The number of decimal places of 1/denominator when it terminates (only factors 2 and 5), else null. */
function terminatingScale(denominator: bigint): number | null {
  let twos = 0;
  let fives = 0;
  while (denominator % 2n === 0n) {
    denominator /= 2n;
    twos++;
  }
  while (denominator % 5n === 0n) {
    denominator /= 5n;
    fives++;
  }
  return denominator === 1n ? Math.max(twos, fives) : null;
}
