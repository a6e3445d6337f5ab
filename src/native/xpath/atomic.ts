/**
 * The XPath 2.0 atomic values the rule sets meet, and the casts between them as Saxon-HE performs
 * them. Representation, chosen so the common cases cost no allocation:
 * xs:string is a JS string, xs:double a JS number, xs:boolean a JS boolean, xs:decimal and
 * xs:integer a {@link Dec}, xs:untypedAtomic (every node's typed value: the documents are untyped)
 * an {@link Untyped}, xs:date an {@link XDate}.
 */
import { Dec } from "./decimal.ts";
import { fail } from "./errors.ts";

export class Untyped {
  /**
   * Casts, computed on first use: a node's typed value is one object (`XNode.typedValue`), which
   * many rules cast again (every VAT rule reads each line's rate as xs:decimal).
   */
  decimal: Dec | undefined = undefined;
  double: number | undefined = undefined;
  constructor(readonly value: string) {}
}

export class XDate {
  constructor(
    /** Days since 1970-01-01 of the date's start, in its own timezone. */
    readonly day: number,
    /** Timezone offset in minutes, or null when the date has none. */
    readonly timezone: number | null,
    readonly text: string,
  ) {}

  /** A comparable instant; a date without timezone takes the implicit timezone (UTC here, as on the JVM in the container). */
  instant(): number {
    return this.day * 1440 - (this.timezone ?? 0);
  }
}

export type Atomic = string | number | boolean | Dec | Untyped | XDate;

export function isNumeric(value: Atomic): value is number | Dec {
  return typeof value === "number" || value instanceof Dec;
}

export function typeName(value: Atomic): string {
  if (typeof value === "string") return "xs:string";
  if (typeof value === "number") return "xs:double";
  if (typeof value === "boolean") return "xs:boolean";
  if (value instanceof Dec) return value.integer ? "xs:integer" : "xs:decimal";
  if (value instanceof Untyped) return "xs:untypedAtomic";
  return "xs:date";
}

/** The string value (xs:string cast) of an atomic value. */
export function stringOf(value: Atomic): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return doubleToString(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value instanceof Untyped) return value.value;
  if (value instanceof Dec) return value.toString();
  return value.text;
}

/** XPath's xs:double canonical form: plain notation in [1e-6, 1e6), else `1.0E-5`-style scientific. */
function doubleToString(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "INF";
  if (value === -Infinity) return "-INF";
  if (value === 0) return Object.is(value, -0) ? "-0" : "0";
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-6 && magnitude < 1e6) return String(value);
  const [mantissa, exponent] = value.toExponential().split("e");
  return `${mantissa.includes(".") ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

const XML_SPACE = /^[ \t\r\n]+|[ \t\r\n]+$/g;
const DOUBLE_LEXICAL = /^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|-?INF|NaN)$/;

/** The xs:double lexical space; null when the text is not a double. */
function parseDouble(text: string): number | null {
  const trimmed = text.replace(XML_SPACE, "");
  if (!DOUBLE_LEXICAL.test(trimmed)) return null;
  if (trimmed.endsWith("INF")) return trimmed.startsWith("-") ? -Infinity : Infinity;
  return Number(trimmed);
}

export function toDouble(value: Atomic): number {
  if (typeof value === "number") return value;
  if (value instanceof Dec) return value.toNumber();
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof XDate) return fail("XPTY0004", "cannot convert xs:date to xs:double");
  if (value instanceof Untyped) return (value.double ??= parseDouble(value.value) ?? fail("FORG0001", `cannot convert "${value.value}" to xs:double`));
  const parsed = parseDouble(stringOf(value));
  return parsed ?? fail("FORG0001", `cannot convert "${stringOf(value)}" to xs:double`);
}

function toDecimal(value: Atomic, integer: boolean): Dec {
  const target = integer ? "xs:integer" : "xs:decimal";
  if (value instanceof Dec) {
    if (integer) return value.integer ? value : value.truncate();
    return value.asDecimal();
  }
  if (typeof value === "number") return Dec.fromDouble(value, integer);
  if (typeof value === "boolean") return new Dec(value ? 1n : 0n, 0, integer);
  if (value instanceof XDate) return fail("XPTY0004", `cannot convert xs:date to ${target}`);
  if (!integer && value instanceof Untyped && value.decimal !== undefined) return value.decimal;
  const text = stringOf(value).replace(XML_SPACE, "");
  if (!integer && value instanceof Untyped) return (value.decimal = Dec.parse(text) ?? fail("FORG0001", `cannot convert "${text}" to ${target}`));
  return Dec.parse(text, integer) ?? fail("FORG0001", `cannot convert "${text}" to ${target}`);
}

export function toBoolean(value: Atomic): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return !(value === 0 || Number.isNaN(value));
  if (value instanceof Dec) return !value.isZero();
  if (value instanceof XDate) return fail("XPTY0004", "cannot convert xs:date to xs:boolean");
  const text = stringOf(value).replace(XML_SPACE, "");
  if (text === "true" || text === "1") return true;
  if (text === "false" || text === "0") return false;
  return fail("FORG0001", `cannot convert "${text}" to xs:boolean`);
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function toDate(value: Atomic): XDate {
  if (value instanceof XDate) return value;
  if (!(typeof value === "string" || value instanceof Untyped)) return fail("XPTY0004", `cannot convert ${typeName(value)} to xs:date`);
  const text = stringOf(value).replace(XML_SPACE, "");
  const m = /^(-?\d{4,})-(\d{2})-(\d{2})(Z|[+-]\d{2}:\d{2})?$/.exec(text);
  const invalid = () => fail("FORG0001", `invalid date "${text}"`);
  if (!m) return invalid();
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1] || (month === 2 && day === 29 && !leap)) invalid();
  if (year === 0) invalid();
  let timezone: number | null = null;
  if (m[4]) {
    timezone = m[4] === "Z" ? 0 : (m[4][0] === "-" ? -1 : 1) * (Number(m[4].slice(1, 3)) * 60 + Number(m[4].slice(4)));
    if (Math.abs(timezone) > 14 * 60) invalid();
  }
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  const days = new Date(0).setUTCFullYear(year, month - 1, day) / 86_400_000;
  const canonical = m[4] === "+00:00" || m[4] === "-00:00" ? `${m[1]}-${m[2]}-${m[3]}Z` : text;
  return new XDate(days, timezone, canonical);
}

/** `cast as` / constructor functions for the types the rule sets name. */
export function castAtomic(value: Atomic, type: string): Atomic {
  switch (type) {
    case "xs:string":
      return stringOf(value);
    case "xs:untypedAtomic":
      return new Untyped(stringOf(value));
    case "xs:double":
      return toDouble(value);
    case "xs:decimal":
      return toDecimal(value, false);
    case "xs:integer":
      return toDecimal(value, true);
    case "xs:boolean":
      return toBoolean(value);
    case "xs:date":
      return toDate(value);
    default:
      return fail("XPST0051", `unsupported cast target ${type}`);
  }
}

export const CAST_TARGETS = new Set(["xs:string", "xs:untypedAtomic", "xs:double", "xs:decimal", "xs:integer", "xs:boolean", "xs:date"]);
