// Reading helpers shared by the syntax bindings: a hardened parse and namespace-aware lookups by
// prefixed paths ("cac:Party/cbc:EndpointID"), the prefixes bound by the binding, not the document.

import { DOMParser, type Attr, type Document, type Element, type Node } from "@xmldom/xmldom";
import { DOM_LIMITS, readXmlText } from "./xml-policy.ts";

export type { Element } from "@xmldom/xmldom";

/**
 * Parses XML bytes or text under the XML reading policy (xml-policy.ts), which refuses, among
 * others, a DOCTYPE before parsing: invoices never need one, and it is the door to entity
 * expansion and external fetches, and more elements than a tree of them should cost
 * (`DOM_LIMITS`). A policy refusal is thrown as is (`XmlRefused`).
 */
export function parseXml(xml: Uint8Array | string): Document {
  const text = readXmlText(xml, DOM_LIMITS);
  try {
    return new DOMParser({
      // Throwing from onError makes xmldom stop on errors it would otherwise recover from.
      onError: (level, message) => {
        if (level !== "warning") throw new Error(message);
      },
      // XML 1.0 line ends, as libxml2 reads them; xmldom's default adds XML 1.1's NEL, U+2028 and U+2029.
      normalizeLineEndings: (input) => input.replace(/\r\n?/g, "\n"),
    }).parseFromString(text, "text/xml");
  } catch (e) {
    throw new Error(`not well-formed XML: ${(e as Error).message}`);
  }
}

function isElement(node: unknown): node is Element {
  return (node as { nodeType?: number } | null)?.nodeType === 1;
}

/** Element children of a node, in document order. */
export function elementChildren(parent: Element): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (isElement(n)) out.push(n);
  return out;
}

/**
 * Lookups bound to one set of namespace prefixes; an absent starting element finds nothing.
 *
 * What counts as consumed (see `consumedBy`): a value is consumed when a reader takes it, through
 * `text`, `attr` or `matches` here or `textOf`, `contentOf`, `attrOf`: the one path to a value.
 * Finding elements (`all`, `one`) consumes nothing: an aggregate is navigation, and so is testing
 * that an element is there; its values answer for themselves. A default given for an absent value
 * consumes nothing, since nothing is there. A value read only to choose an element (a type code, an
 * indicator, a scheme, a currency) goes through `matches`, which consumes it only when it chooses:
 * the model records the choice (where the element's terms landed) and a writer writes it back from
 * there, while a value that turns its element away is carried by nothing and stays a leftover.
 */
export interface Reader {
  /** Every element at the path below `from`, in document order. */
  all(from: Element | undefined, path: string): Element[];
  /** The first element at the path, if any. */
  one(from: Element | undefined, path: string): Element | undefined;
  /** Trimmed text of the first element at the path; absent when missing or empty. */
  text(from: Element | undefined, path: string): string | undefined;
  /** An attribute of the first element at the path; absent when missing or empty. */
  attr(from: Element | undefined, path: string, name: string): string | undefined;
  /**
   * Whether the value at the path (`a/b`, an attribute as `a/b/@name` or `@name`), as `text` or
   * `attr` gives it, passes `test`; consumed only when it does.
   */
  matches(from: Element | undefined, path: string, test: (value: string | undefined) => boolean): boolean;
}

// The values the running read consumed (elements whose text it read, attributes it read) while a
// caller asked for them (`consumedBy`); undefined otherwise, so a plain read pays one check per
// value. Reads are synchronous and a worker runs one at a time, so one slot does: claimed for the
// call, released on every path.
let consumed: Set<Node> | undefined;

/** Runs `read`, recording every value it consumes (the rule is on `Reader`). */
export function consumedBy<T>(read: () => T): { result: T; consumed: ReadonlySet<Node> } {
  if (consumed) throw new Error("a read is already recording what it consumes");
  const record = new Set<Node>();
  consumed = record;
  try {
    return { result: read(), consumed: record };
  } finally {
    consumed = undefined;
  }
}

const trimmedText = (element: Element | undefined) => element?.textContent?.trim() || undefined;
const trimmedAttr = (element: Element | undefined, name: string) => element?.getAttribute(name)?.trim() || undefined;

function consumeText(element: Element | undefined): void {
  if (consumed && element) consumed.add(element);
}

function consumeAttr(element: Element | undefined, name: string): void {
  const attr = consumed && element?.getAttributeNode(name);
  if (attr) consumed!.add(attr);
}

/** Trimmed text content of an element; absent when empty. */
export function textOf(element: Element | undefined): string | undefined {
  consumeText(element);
  return trimmedText(element);
}

/** Text content of an element as written, untrimmed (free text); absent when blank. */
export function contentOf(element: Element | undefined): string | undefined {
  consumeText(element);
  const text = element?.textContent;
  return text?.trim() ? text : undefined;
}

/** Trimmed value of an attribute of an element; absent when missing or empty. */
export function attrOf(element: Element | undefined, name: string): string | undefined {
  consumeAttr(element, name);
  return trimmedAttr(element, name);
}

export function createReader(namespaces: Record<string, string>): Reader {
  const steps = new Map<string, { uri: string; local: string }[]>();
  const parsePath = (path: string) => {
    let parsed = steps.get(path);
    if (!parsed) {
      parsed = path.split("/").map((step) => {
        // An unprefixed step is an element in no namespace (FatturaPA and Facturae qualify only their root).
        if (!step.includes(":")) return { uri: "", local: step };
        const [prefix, local] = step.split(":");
        const uri = namespaces[prefix!];
        if (uri === undefined || !local) throw new Error(`unbound step ${step} in ${path}`);
        return { uri, local };
      });
      steps.set(path, parsed);
    }
    return parsed;
  };
  const all = (from: Element | undefined, path: string): Element[] =>
    parsePath(path).reduce<Element[]>(
      (current, step) => current.flatMap((e) => elementChildren(e).filter((c) => c.localName === step.local && (c.namespaceURI ?? "") === step.uri)),
      from ? [from] : [],
    );
  const one = (from: Element | undefined, path: string) => all(from, path)[0];
  return {
    all,
    one,
    text: (from, path) => textOf(one(from, path)),
    attr: (from, path, name) => attrOf(one(from, path), name),
    matches(from, path, test) {
      const at = path.lastIndexOf("@");
      const element = at < 0 ? one(from, path) : at === 0 ? from : one(from, path.slice(0, at - 1));
      const name = path.slice(at + 1);
      if (!test(at < 0 ? trimmedText(element) : trimmedAttr(element, name))) return false;
      if (at < 0) consumeText(element);
      else consumeAttr(element, name);
      return true;
    },
  };
}

/**
 * Where an element is, as the schema layer's findings say it: names as written, a position where
 * the name repeats among its siblings (`/p:FatturaElettronica/FatturaElettronicaBody/DatiBeniServizi/DettaglioLinee[2]`).
 */
export function pathOf(element: Element): string {
  const steps: string[] = [];
  for (let e: Element | null = element; e; e = isElement(e.parentNode) ? e.parentNode : null) {
    const parent = e.parentNode;
    const twins = isElement(parent) ? elementChildren(parent).filter((c) => c.nodeName === e!.nodeName) : [e];
    steps.unshift(twins.length > 1 ? `${e.nodeName}[${twins.indexOf(e) + 1}]` : e.nodeName);
  }
  return `/${steps.join("/")}`;
}

/** One value of a document: the text of a leaf element or an attribute's, where it is, and the node. */
export interface DocumentValue {
  node: Element | Attr;
  /** XPath with positions where a name repeats among siblings (`/Invoice/cac:InvoiceLine[2]/cbc:ID`). */
  path: string;
  /** The same without positions (`/Invoice/cac:InvoiceLine/cbc:ID`). */
  shape: string;
  value: string;
}

const XSI = "http://www.w3.org/2001/XMLSchema-instance";

/**
 * Where the sender's validator found its schema (XML Schema 1.0 Part 1, §4.3.2: "hints", which a
 * processor may ignore): markup about the document, like a namespace declaration, and no value in
 * it. A path on the sender's disk means nothing to a receiver, so no writer writes it back and a
 * conversion loses nothing by leaving it. `xsi:type` and `xsi:nil` do say something, and stay.
 */
const isSchemaHint = (a: Attr) => a.namespaceURI === XSI && (a.localName === "schemaLocation" || a.localName === "noNamespaceSchemaLocation");

/**
 * Every element and attribute below the root that holds a value: leaf elements with non-blank text
 * and attributes other than namespace declarations and schema location hints. Element names take the prefix `prefixes` gives
 * their namespace ("" for none), so documents that bind other prefixes to those compare equal;
 * a namespace it does not list keeps the document's own name, so the path still finds the node.
 */
export function documentValues(root: Element, prefixes: Record<string, string>): DocumentValue[] {
  const out: DocumentValue[] = [];
  const nameOf = (e: Element) => {
    const prefix = prefixes[e.namespaceURI ?? ""];
    if (prefix === undefined) return e.nodeName;
    return prefix ? `${prefix}:${e.localName}` : (e.localName ?? e.nodeName);
  };
  const walk = (e: Element, path: string, shape: string) => {
    for (let i = 0; i < e.attributes.length; i++) {
      const a = e.attributes.item(i)!;
      if (a.name !== "xmlns" && a.prefix !== "xmlns" && !isSchemaHint(a)) out.push({ node: a, path: `${path}/@${a.name}`, shape: `${shape}/@${a.name}`, value: a.value });
    }
    const kids = elementChildren(e);
    const value = kids.length === 0 ? trimmedText(e) : undefined;
    if (value !== undefined) out.push({ node: e, path, shape, value });
    const counts = new Map<string, number>();
    const named = kids.map((k) => {
      const name = nameOf(k);
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return name;
    });
    const index = new Map<string, number>();
    kids.forEach((k, i) => {
      const name = named[i]!;
      const n = (index.get(name) ?? 0) + 1;
      index.set(name, n);
      walk(k, `${path}/${name}${counts.get(name)! > 1 ? `[${n}]` : ""}`, `${shape}/${name}`);
    });
  };
  const top = `/${nameOf(root)}`;
  walk(root, top, top);
  return out;
}

/**
 * Every value path of a document without positions (`/Invoice/cac:InvoiceLine/cbc:ID`,
 * `.../cbc:ID/@schemeID`): comparing the sets of two documents shows what a read-write cycle lost.
 */
export function valuePaths(doc: Document, prefixes: Record<string, string>): Set<string> {
  const root = doc.documentElement;
  return new Set(root ? documentValues(root, prefixes).map((v) => v.shape) : []);
}
