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
  /**
   * Business terms by table key (see `keyOf`); several ids when the source tells them apart by a
   * code; for a place with no term that a refusal meets often, what it holds (`notATerm`).
   */
  terms: Record<string, string>;
  /** The table key of a value path without positions. */
  keyOf(shape: string): string;
  /** The extension a value path belongs to (`UBL extension`, `Factur-X EXTENDED`), if any. */
  extensionOf(shape: string): string | undefined;
  /** Values the model or the binding implies, so a read that skips them loses nothing (ImpliedValue). */
  implied: readonly ImpliedValue[];
}

/**
 * A value whose place and content follow from the model: a syntax constant (CII's tax type code
 * `VAT`, UBL's tax scheme `VAT`, the date format `102`) or a copy of a term the model holds once
 * (every amount's currency, the payment means code UBL repeats per account), which the writer
 * writes again; or a label that restates what the binding fixes (the syntax version, the name of
 * the code list a term prescribes), which it need not. Only the values listed count: any other
 * value there is information the model does not hold, a leftover.
 */
export interface ImpliedValue {
  /** Whether a table key (keyOf) is one of its places. */
  at(key: string): boolean;
  values(invoice: Invoice): readonly (string | undefined)[];
}

/** Places whose table key ends in `suffix`. */
export const endingIn = (...suffixes: string[]) => (key: string) => suffixes.some((s) => key === s || key.endsWith(`/${s}`));

/** Every amount's `currencyID`: the invoice currency (BT-5), or the VAT accounting currency (BT-6) on BT-111. */
export const AMOUNT_CURRENCY: ImpliedValue = { at: endingIn("@currencyID"), values: (i) => [i.currencyCode, i.taxCurrencyCode] };

export const NOT_A_TERM = "not an EN 16931 business term";

/** The reason of a place without a term that says what the value is, so a refusal names what it loses. */
export const notATerm = (what: string) => `${NOT_A_TERM}: ${what}`;

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
  const implied = (v: DocumentValue) => {
    const key = places.keyOf(v.shape);
    return places.implied.some((rule) => rule.at(key) && rule.values(invoice).includes(v.value));
  };
  const leftovers = documentValues(root, places.prefixes)
    .filter((v) => !isConsumed(v, consumed) && !implied(v))
    .map((v) => ({ path: v.path, value: v.value, reason: reasonOf(places, v.shape) }));
  return { invoice, leftovers };
}
