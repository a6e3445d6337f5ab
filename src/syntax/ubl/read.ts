// UBL 2.1 Invoice or CreditNote XML -> EN 16931 model.

import type { DocumentKind, Invoice } from "../../model/index.ts";
import { readWithLeftovers, type Leftover } from "../leftovers.ts";
import { parseXml, type Element } from "../xml-reader.ts";
import { readDocument } from "./document.ts";
import { UBL_PLACES } from "./terms.ts";
import { KINDS } from "./vocabulary.ts";

class NotUblError extends Error {}

/** The root of a UBL Invoice or CreditNote and its kind; throws on anything else, on malformed XML and on a DOCTYPE. */
function parseUbl(xml: Uint8Array | string): { root: Element; kind: DocumentKind } {
  const root = parseXml(xml).documentElement;
  const kind = (Object.keys(KINDS) as DocumentKind[]).find(
    (k) => root?.localName === KINDS[k].root && root.namespaceURI === KINDS[k].namespace,
  );
  if (!root || !kind) {
    throw new NotUblError(`not a UBL 2.1 Invoice or CreditNote: root is {${root?.namespaceURI ?? ""}}${root?.localName ?? "(none)"}`);
  }
  return { root, kind };
}

/** Reads a UBL Invoice or CreditNote; throws on anything else, on malformed XML and on a DOCTYPE. */
export function readUbl(xml: Uint8Array | string): Invoice {
  const { root, kind } = parseUbl(xml);
  return readDocument(root, kind);
}

/** `readUbl`, and every value of the source it left unread. */
export function readUblWithLeftovers(xml: Uint8Array | string): { invoice: Invoice; leftovers: Leftover[] } {
  const { root, kind } = parseUbl(xml);
  return readWithLeftovers(root, () => readDocument(root, kind), UBL_PLACES);
}
