// Value shapes CII repeats everywhere: leaves labelled with the business term they carry (which
// fit.ts names when a target drops them), dates in the `format="102"` wrappers, indicators, and
// groups read from elements that held no term.

import { isTrue } from "../values.ts";
import { always, carrying, leaf, type XmlNode } from "../xml-writer.ts";
import { cii, type Element } from "./vocabulary.ts";

/**
 * A leaf carrying a business term; absent when the value is absent or empty (the reader gives
 * mandatory terms that a source lacks, e.g. BT-106 in Factur-X MINIMUM, as "": nothing to write,
 * nothing lost).
 */
export function term(name: string, value: string | undefined, bt?: string, attributes?: Record<string, string | undefined>): XmlNode | undefined {
  if (value === "") return undefined;
  return carrying(leaf(name, value, attributes), bt);
}

/** The string wrappers of CII dates: `udt:DateTimeString` (most), `udt:DateString` (BT-7), `qdt:DateTimeString` (referenced documents). */
type DateWrapper = "udt:DateTimeString" | "udt:DateString" | "qdt:DateTimeString";

/** A date as CII writes it, `format="102"` (CCYYMMDD) in a wrapper, from an ISO `YYYY-MM-DD` date. */
export function writeDate(name: string, isoDate: string | undefined, bt?: string, wrapper: DateWrapper = "udt:DateTimeString"): XmlNode | undefined {
  if (!isoDate) return undefined;
  return carrying(always(name, term(wrapper, isoDate.replaceAll("-", ""), undefined, { format: "102" })), bt);
}

/** A CII date (any of the wrappers) as ISO `YYYY-MM-DD` when written as format 102. */
export function readDate(parent: Element | undefined, path: string): string | undefined {
  const holder = cii.one(parent, path);
  const value = cii.text(holder, "udt:DateTimeString") ?? cii.text(holder, "udt:DateString") ?? cii.text(holder, "qdt:DateTimeString");
  if (value === undefined) return undefined;
  return /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : value;
}

export function writeIndicator(name: string, value: boolean): XmlNode {
  return always(name, leaf("udt:Indicator", String(value)));
}

/** `udt:Indicator` content as a boolean. */
export function readIndicator(parent: Element | undefined, path: string): boolean | undefined {
  const value = cii.text(cii.one(parent, path), "udt:Indicator");
  return value === undefined ? undefined : isTrue(value);
}

/** A group read from an element that held no term at all is no group. */
export function unlessEmpty<T extends object>(value: T): T | undefined {
  return Object.values(value).some((v) => v !== undefined) ? value : undefined;
}
