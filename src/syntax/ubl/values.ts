// Value shapes UBL repeats everywhere: identifiers with `schemeID`, amounts with `currencyID`.

import type { Decimal, Identifier } from "../../model/index.ts";
import { leaf, type XmlNode } from "../xml-writer.ts";
import { ubl, type Element } from "./vocabulary.ts";

export function readIdentifier(from: Element, path: string): Identifier | undefined {
  const value = ubl.text(from, path);
  if (value === undefined) return undefined;
  const scheme = ubl.attr(from, path, "schemeID");
  return scheme === undefined ? { value } : { value, scheme };
}

export function writeIdentifier(name: string, id: Identifier | undefined): XmlNode | undefined {
  return id && leaf(name, id.value, { schemeID: id.scheme });
}

/** An amount in the given currency; UBL requires `currencyID` on every amount. */
export function writeAmount(name: string, value: Decimal | undefined, currency: string): XmlNode | undefined {
  return leaf(name, value, { currencyID: currency });
}

/** The VAT tax scheme every EN 16931 tax category and party tax scheme names. */
export const VAT_SCHEME = "VAT";

/** An `xs:boolean` as written: `true` or `1` (and their whitespace variants) are true. */
export function readBoolean(from: Element, path: string): boolean {
  const value = ubl.text(from, path);
  return value === "true" || value === "1";
}
