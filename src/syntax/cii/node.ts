// The tree the concept writers build. They add elements in any order and without asking which
// target is being written; fit.ts then orders and filters the tree by the target's schema table, so
// the subset and sequence of each profile live in one place (schemas.ts), not in every writer.

export interface XmlNode {
  /** Qualified name with one of the fixed prefixes `rsm`, `ram`, `udt`, `qdt`. */
  name: string;
  attributes?: Record<string, string>;
  text?: string;
  children: XmlNode[];
  /** The business term this element carries, named when a target drops it. */
  bt?: string;
}

type Child = XmlNode | undefined | false | readonly (XmlNode | undefined | false)[];

/** An aggregate; it vanishes when none of its children survived, so optional groups need no guards. */
export function group(name: string, ...children: Child[]): XmlNode | undefined {
  const kept = children.flat().filter((c): c is XmlNode => !!c);
  return kept.length > 0 ? { name, children: kept } : undefined;
}

/** A group that must be written even when empty (schema-mandatory containers). */
export function always(name: string, ...children: Child[]): XmlNode {
  return { name, children: children.flat().filter((c): c is XmlNode => !!c) };
}

/**
 * A leaf holding a value; absent when the value is absent or empty (the reader gives mandatory terms
 * that a source lacks, e.g. BT-106 in Factur-X MINIMUM, as "": nothing to write, nothing lost).
 */
export function leaf(name: string, value: string | undefined, bt?: string, attributes?: Record<string, string | undefined>): XmlNode | undefined {
  if (value === undefined || value === "") return undefined;
  const attrs = Object.fromEntries(Object.entries(attributes ?? {}).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return { name, text: value, children: [], ...(Object.keys(attrs).length > 0 && { attributes: attrs }), ...(bt && { bt }) };
}

/** A date in CII's `format="102"` (CCYYMMDD) wrapper, from an ISO `YYYY-MM-DD` date. */
export function date102(name: string, isoDate: string | undefined, bt?: string): XmlNode | undefined {
  if (!isoDate) return undefined;
  return withBt({ name, children: [leaf("udt:DateTimeString", isoDate.replaceAll("-", ""), undefined, { format: "102" })!] }, bt);
}

/** `udt:DateString` variant (tax point date, BT-7). */
export function dateString(name: string, isoDate: string | undefined, bt?: string): XmlNode | undefined {
  if (!isoDate) return undefined;
  return withBt({ name, children: [leaf("udt:DateString", isoDate.replaceAll("-", ""), undefined, { format: "102" })!] }, bt);
}

/** `qdt:DateTimeString` variant used by referenced documents (BT-26 etc.). */
export function formattedDate(name: string, isoDate: string | undefined, bt?: string): XmlNode | undefined {
  if (!isoDate) return undefined;
  return withBt({ name, children: [leaf("qdt:DateTimeString", isoDate.replaceAll("-", ""), undefined, { format: "102" })!] }, bt);
}

export function indicator(name: string, value: boolean): XmlNode {
  return { name, children: [leaf("udt:Indicator", String(value))!] };
}

function withBt(node: XmlNode, bt: string | undefined): XmlNode {
  return bt ? { ...node, bt } : node;
}
