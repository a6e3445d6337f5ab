// UBL 2.1 Invoice or CreditNote XML -> EN 16931 model.

import type { DocumentKind, Invoice } from "../../model/index.ts";
import { parseXml } from "../xml-reader.ts";
import { readDocument } from "./document.ts";
import { KINDS } from "./vocabulary.ts";

class NotUblError extends Error {}

/** Reads a UBL Invoice or CreditNote; throws on anything else, on malformed XML and on a DOCTYPE. */
export function readUbl(xml: Uint8Array | string): Invoice {
  const root = parseXml(xml).documentElement;
  const kind = (Object.keys(KINDS) as DocumentKind[]).find(
    (k) => root?.localName === KINDS[k].root && root.namespaceURI === KINDS[k].namespace,
  );
  if (!root || !kind) {
    throw new NotUblError(`not a UBL 2.1 Invoice or CreditNote: root is {${root?.namespaceURI ?? ""}}${root?.localName ?? "(none)"}`);
  }
  return readDocument(root, kind);
}
