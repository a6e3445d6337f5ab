// Value shapes UBL repeats everywhere: identifiers with `schemeID`, amounts with `currencyID`.

import type { Decimal, Identifier } from "../../model/index.ts";
import { identifier } from "../values.ts";
import { leaf, type XmlNode } from "../xml-writer.ts";
import { ubl, type Element } from "./vocabulary.ts";

export function readIdentifier(from: Element, path: string): Identifier | undefined {
  const value = ubl.text(from, path);
  if (value === undefined) return undefined;
  return identifier(value, ubl.attr(from, path, "schemeID"));
}

export function writeIdentifier(name: string, id: Identifier | undefined): XmlNode | undefined {
  return id && leaf(name, id.value, { schemeID: id.scheme });
}

/** An amount in the given currency; UBL requires `currencyID` on every amount. */
export function writeAmount(name: string, value: Decimal | undefined, currency: string): XmlNode | undefined {
  return leaf(name, value, { currencyID: currency });
}
