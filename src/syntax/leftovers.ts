// What a read left of its source: every value (a leaf element's text, an attribute) the reader did
// not consume (xml-reader.ts, Reader, says what consuming is), where it is in the source and the
// business term the syntax binding gives that place. A conversion's loss report starts here:
// whatever the model does not carry cannot reach the target.

import type { Invoice } from "../model/index.ts";
import { consumedBy, documentValues, type DocumentValue, type Element } from "./xml-reader.ts";

/** A value of the source the read did not consume. */
export interface Leftover {
  /** XPath in the source, positions where a name repeats, prefixes as the binding names them. */
  path: string;
  value: string;
  /** The business term the binding gives the place (`BT-41`, `BT-131 (currencyID)`), or why it has none. */
  reason: string;
}

/** How a syntax names the places of its values. */
export interface TermPlaces {
  /** The prefix each namespace is named with in a path; "" for none (the UBL root's namespace). */
  prefixes: Record<string, string>;
  /** Business terms by table key (see `keyOf`); several ids when the source tells them apart by a code. */
  terms: Record<string, string>;
  /** The table key of a value path without positions. */
  keyOf(shape: string): string;
  /** The extension a value path belongs to (`UBL extension`, `Factur-X EXTENDED`), if any. */
  extensionOf(shape: string): string | undefined;
}

export const NOT_A_TERM = "not an EN 16931 business term";

/** The reason a leftover at `shape` gets: its term, its element's term for an attribute, its extension, or none. */
export function reasonOf(places: TermPlaces, shape: string): string {
  const key = places.keyOf(shape);
  const term = places.terms[key];
  if (term) return term;
  const at = key.lastIndexOf("/@");
  const owner = at < 0 ? undefined : places.terms[key.slice(0, at)];
  if (owner) return `${owner} (${key.slice(at + 2)})`;
  return places.extensionOf(shape) ?? NOT_A_TERM;
}

/** Whether the read consumed a value: the attribute itself, or the element's text or an ancestor's. */
function isConsumed(value: DocumentValue, consumed: ReadonlySet<unknown>): boolean {
  if (value.node.nodeType !== 1) return consumed.has(value.node);
  // Reading an element's text reads the text of everything under it.
  for (let n: unknown = value.node; n; n = (n as Element).parentNode) if (consumed.has(n)) return true;
  return false;
}

/** Runs `read` over the document `root` and reports every value of it the read left. */
export function readWithLeftovers(root: Element, read: () => Invoice, places: TermPlaces): { invoice: Invoice; leftovers: Leftover[] } {
  const { result: invoice, consumed } = consumedBy(read);
  const leftovers = documentValues(root, places.prefixes)
    .filter((v) => !isConsumed(v, consumed))
    .map((v) => ({ path: v.path, value: v.value, reason: reasonOf(places, v.shape) }));
  return { invoice, leftovers };
}
