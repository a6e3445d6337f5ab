// Reading helpers shared by the syntax bindings: a hardened parse and namespace-aware lookups by
// prefixed paths ("cac:Party/cbc:EndpointID"), the prefixes bound by the binding, not the document.

import { DOMParser, type Document, type Element } from "@xmldom/xmldom";
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

/** Lookups bound to one set of namespace prefixes; an absent starting element finds nothing. */
export interface Reader {
  /** Every element at the path below `from`, in document order. */
  all(from: Element | undefined, path: string): Element[];
  /** The first element at the path, if any. */
  one(from: Element | undefined, path: string): Element | undefined;
  /** Trimmed text of the first element at the path; absent when missing or empty. */
  text(from: Element | undefined, path: string): string | undefined;
  /** An attribute of the first element at the path; absent when missing or empty. */
  attr(from: Element | undefined, path: string, name: string): string | undefined;
}

/** Trimmed text content of an element; absent when empty. */
export function textOf(element: Element | undefined): string | undefined {
  const value = element?.textContent?.trim();
  return value ? value : undefined;
}

/** Trimmed value of an attribute of an element; absent when missing or empty. */
export function attrOf(element: Element | undefined, name: string): string | undefined {
  return element?.getAttribute(name)?.trim() || undefined;
}

export function createReader(namespaces: Record<string, string>): Reader {
  const steps = new Map<string, { uri: string; local: string }[]>();
  const parsePath = (path: string) => {
    let parsed = steps.get(path);
    if (!parsed) {
      parsed = path.split("/").map((step) => {
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
      (current, step) => current.flatMap((e) => elementChildren(e).filter((c) => c.localName === step.local && c.namespaceURI === step.uri)),
      from ? [from] : [],
    );
  const one = (from: Element | undefined, path: string) => all(from, path)[0];
  return {
    all,
    one,
    text: (from, path) => textOf(one(from, path)),
    attr: (from, path, name) => attrOf(one(from, path), name),
  };
}

/**
 * Every element and attribute below the root that holds a value, as a path of names without
 * positions (`/Invoice/cac:InvoiceLine/cbc:ID`, `.../cbc:ID/@schemeID`). Element names take the
 * prefix `prefixes` gives their namespace (none when unlisted), so documents that bind other
 * prefixes compare equal. Comparing the sets of two documents shows what a read-write cycle lost.
 */
export function valuePaths(doc: Document, prefixes: Record<string, string>): Set<string> {
  const paths = new Set<string>();
  const nameOf = (e: Element) => {
    const prefix = prefixes[e.namespaceURI ?? ""];
    return prefix ? `${prefix}:${e.localName}` : e.localName;
  };
  const walk = (e: Element, path: string) => {
    const here = `${path}/${nameOf(e)}`;
    for (let i = 0; i < e.attributes.length; i++) {
      const a = e.attributes.item(i)!;
      if (a.name !== "xmlns" && a.prefix !== "xmlns") paths.add(`${here}/@${a.name}`);
    }
    const kids = elementChildren(e);
    if (kids.length === 0 && textOf(e) !== undefined) paths.add(here);
    for (const k of kids) walk(k, here);
  };
  const root = doc.documentElement;
  if (root) walk(root, "");
  return paths;
}
