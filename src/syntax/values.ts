// Value rules both syntax bindings share: how an identifier with an optional scheme is made, what
// an `xs:boolean` says, what a zero price discount is, the tax scheme EN 16931 names for VAT, and
// the currencies amounts are in.

import { isDecimal, normalize } from "../model/decimal.ts";
import type { Decimal, Identifier } from "../model/index.ts";

/** An identifier; the scheme is left out when absent or empty. */
export function identifier(value: string, scheme: string | undefined): Identifier {
  return scheme ? { value, scheme } : { value };
}

/** An `xs:boolean` as written: `true` or `1` are true, anything else false. */
export function isTrue(value: string | undefined): boolean {
  return value === "true" || value === "1";
}

/**
 * BT-147 as the model keeps it: a zero price discount is none (gross minus zero is gross). UBL must
 * write an amount beside a gross price (BT-148) given alone, so it cannot tell the two apart; both
 * readers reading zero as none keeps a conversion from inventing a zero discount or losing one.
 */
export function priceDiscount(amount: Decimal | undefined): Decimal | undefined {
  return amount !== undefined && isDecimal(amount) && normalize(amount) === "0" ? undefined : amount;
}

/**
 * The first value `read` gives for the items, reading no further: where the model keeps one of a
 * repeated term, the copies it does not keep stay unread, so they show as leftovers (xml-reader.ts).
 */
export function firstRead<T, V>(items: readonly T[], read: (item: T) => V | undefined): V | undefined {
  for (const item of items) {
    const value = read(item);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The VAT tax scheme (UBL `cac:TaxScheme/cbc:ID`, CII `ram:TypeCode`) of every EN 16931 tax category. */
export const VAT_SCHEME = "VAT";

/** The invoice currency (BT-5) and the VAT accounting currency (BT-6), which a line's VAT totals are in. */
export interface Currencies {
  invoice: string;
  tax?: string;
}
