// Reads the facts of a hybrid PDF's XMP packet that the BR-HYBRID rules judge (the PDF/A part, the
// Factur-X / ZUGFeRD invoice properties, the extension schemas that declare them): the reader beside
// the writer (xmp.ts), namespace-aware and bounded, run in a worker on a caller's PDF.

import type { Element, Node } from "@xmldom/xmldom";
import { parseXml } from "../syntax/xml-reader.ts";
import { FACTURX_NAMESPACE } from "./xmp.ts";

/** ZUGFeRD 2.0's extension schema namespace (kept by ZUGFeRD 2.1 as its legacy schema). */
export const ZUGFERD2_XMP_NAMESPACE = "urn:zugferd:pdfa:CrossIndustryDocument:invoice:2p0#";
/** The legacy schema of ZUGFeRD 2.2 onward (deprecated there): the ZUGFeRD URI with 1p0. */
export const ZUGFERD22_LEGACY_XMP_NAMESPACE = "urn:zugferd:pdfa:CrossIndustryDocument:invoice:1p0#";
/** The URI BR-HYBRID-04's own text gives: Factur-X's without ":invoice" (Order-X's namespace). */
export const BR_HYBRID_04_TEXT_NAMESPACE = "urn:factur-x:pdfa:CrossIndustryDocument:1p0#";

interface InvoiceNamespace {
  uri: string;
  /** The `pdfaSchema:prefix` values its specification gives. */
  prefixes: readonly string[];
  /** Taken for the invoice properties, but reported: BR-HYBRID-04 disagrees with the schema section. */
  irregular?: true;
}

/**
 * The namespaces the invoice properties are recognised in, as phive recognises them (ZUGFeRD 1.0's
 * aside: its invoices are not judged here), preferred first: Factur-X's (Factur-X 1.0x, ZUGFeRD
 * 2.1+), the ZUGFeRD legacy schemas (ZUGFeRD 2.0.1 wrote them with fx, the legacy entries of
 * ZUGFeRD 2.1 and 2.2+ give zf), and the rule text's URI.
 */
export const INVOICE_NAMESPACES: readonly InvoiceNamespace[] = [
  { uri: FACTURX_NAMESPACE, prefixes: ["fx"] },
  { uri: ZUGFERD2_XMP_NAMESPACE, prefixes: ["fx", "zf"] },
  { uri: ZUGFERD22_LEGACY_XMP_NAMESPACE, prefixes: ["zf"] },
  { uri: BR_HYBRID_04_TEXT_NAMESPACE, prefixes: ["fx"], irregular: true },
];

/** The properties the extension schema must declare. */
export const FX_PROPERTIES = ["DocumentType", "DocumentFileName", "Version", "ConformanceLevel"] as const;
export type FxProperty = (typeof FX_PROPERTIES)[number];

/** An extension schema description (`pdfaExtension:schemas/rdf:Bag/rdf:li`). */
export interface XmpExtensionSchema {
  namespaceURI: string;
  prefix?: string;
  /** `pdfaProperty:name` of every declared property. */
  properties: string[];
}

export interface XmpFacts {
  /** Why the packet could not be read; everything else is then empty. */
  unreadable?: string;
  pdfaPart?: string;
  pdfaConformance?: string;
  /** Namespace of the invoice properties found in the packet (an accepted one first). */
  fxNamespace?: string;
  fx: Partial<Record<FxProperty, string>>;
  schemas: XmpExtensionSchema[];
}

const RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
const PDFAID = "http://www.aiim.org/pdfa/ns/id/";
const PDFA_EXTENSION = "http://www.aiim.org/pdfa/ns/extension/";
const PDFA_SCHEMA = "http://www.aiim.org/pdfa/ns/schema#";
const PDFA_PROPERTY = "http://www.aiim.org/pdfa/ns/property#";
/** Tags (`<`) in one packet: a PDF/A packet has a few hundred, and each costs a DOM node. */
const MAX_XMP_TAGS = 20_000;

/**
 * Reads the facts the rules need from an XMP packet, namespace-aware: a simple property may be
 * written as an attribute of `rdf:Description` or as an element (RDF/XML allows both).
 */
export function readXmp(packet: string): XmpFacts {
  const facts: XmpFacts = { fx: {}, schemas: [] };
  if (tagCount(packet) > MAX_XMP_TAGS) return { ...facts, unreadable: `the XMP packet has more than ${MAX_XMP_TAGS.toLocaleString("en-US")} tags, more than is read from one packet` };
  const start = packet.indexOf("<");
  let root: Element | null;
  try {
    root = parseXml(start > 0 ? packet.slice(start) : packet).documentElement;
  } catch (error) {
    return { ...facts, unreadable: `the XMP packet is not readable XML (${(error as Error).message.split("\n")[0]})` };
  }
  if (!root) return { ...facts, unreadable: "the XMP packet is empty" };

  const elements = allElements(root);
  facts.pdfaPart = property(elements, PDFAID, "part");
  facts.pdfaConformance = property(elements, PDFAID, "conformance");

  // The invoice properties: in an accepted namespace if present there, else wherever they are.
  const namespaces = [...INVOICE_NAMESPACES.map((n) => n.uri), ...namespacesOf(elements, "ConformanceLevel"), ...namespacesOf(elements, "DocumentFileName")];
  for (const ns of namespaces) {
    const values: Partial<Record<FxProperty, string>> = {};
    for (const p of FX_PROPERTIES) {
      const v = property(elements, ns, p);
      if (v !== undefined) values[p] = v;
    }
    if (Object.keys(values).length) {
      facts.fxNamespace = ns;
      facts.fx = values;
      break;
    }
  }

  facts.schemas = extensionSchemas(root);
  return facts;
}

/**
 * The schema descriptions inside `pdfaExtension:schemas` (elements with a `pdfaSchema:namespaceURI`)
 * and the `pdfaProperty:name` values below each, up to the next description: one walk, so nested
 * descriptions cost no more than side-by-side ones.
 */
function extensionSchemas(root: Element): XmpExtensionSchema[] {
  const schemas: { namespaceURI: string; prefix?: string; properties: Set<string> }[] = [];
  type Visit = { element: Element; inHolder: boolean; schema?: (typeof schemas)[number] };
  const stack: Visit[] = [{ element: root, inHolder: false }];
  while (stack.length) {
    const { element, inHolder: above, schema: enclosing } = stack.pop()!;
    const inHolder = above || (element.namespaceURI === PDFA_EXTENSION && element.localName === "schemas");
    const namespaceURI = inHolder ? ownValue(element, PDFA_SCHEMA, "namespaceURI") : undefined;
    let schema = enclosing;
    if (namespaceURI !== undefined) {
      const prefix = ownValue(element, PDFA_SCHEMA, "prefix");
      schema = { namespaceURI, ...(prefix !== undefined ? { prefix } : {}), properties: new Set() };
      schemas.push(schema);
    } else if (schema) {
      const name = ownValue(element, PDFA_PROPERTY, "name");
      if (name !== undefined) schema.properties.add(name);
    }
    for (let n = element.lastChild; n; n = n.previousSibling) if (isElement(n)) stack.push({ element: n, inHolder, ...(schema ? { schema } : {}) });
  }
  return schemas.map((s) => ({ ...s, properties: [...s.properties] }));
}

function isElement(node: Node | null): node is Element {
  return node?.nodeType === 1;
}

function tagCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf("<"); at !== -1 && count <= MAX_XMP_TAGS; at = text.indexOf("<", at + 1)) count++;
  return count;
}

/** The element and its descendants, in document order. */
function allElements(root: Element): Element[] {
  const out: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length) {
    const e = stack.pop()!;
    out.push(e);
    // Last child first, so the first is taken next; one push per child (a spread of many children overflows the stack).
    for (let n = e.lastChild; n; n = n.previousSibling) if (isElement(n)) stack.push(n);
  }
  return out;
}

/** A property's value on this very node: its attribute, or the text of a child element. */
function ownValue(node: Element, ns: string, localName: string): string | undefined {
  const attr = node.getAttributeNodeNS(ns, localName);
  if (attr) return attr.value.trim();
  for (let n = node.firstChild; n; n = n.nextSibling) {
    if (isElement(n) && n.namespaceURI === ns && n.localName === localName) return (n.textContent ?? "").trim();
  }
  return undefined;
}

/** First value of a simple property anywhere in the packet (attribute or element form). */
function property(elements: Element[], ns: string, localName: string): string | undefined {
  for (const e of elements) {
    if (e.namespaceURI === RDF && e.localName === "Description") {
      const v = ownValue(e, ns, localName);
      if (v !== undefined) return v;
    }
  }
  // Properties outside rdf:Description (a stray element form) still count.
  const element = elements.find((e) => e.namespaceURI === ns && e.localName === localName);
  return element ? (element.textContent ?? "").trim() : undefined;
}

/** Namespaces in which a property of that local name occurs, outside the extension schema vocabulary. */
function namespacesOf(elements: Element[], localName: string): string[] {
  const found = new Set<string>();
  const skip = (ns: string | null) => !ns || ns.startsWith("http://www.aiim.org/pdfa/ns/") || ns === RDF;
  for (const e of elements) {
    if (e.localName === localName && !skip(e.namespaceURI)) found.add(e.namespaceURI!);
    if (e.namespaceURI === RDF && e.localName === "Description") {
      for (let i = 0; i < e.attributes.length; i++) {
        const a = e.attributes.item(i)!;
        if (a.localName === localName && !skip(a.namespaceURI)) found.add(a.namespaceURI!);
      }
    }
  }
  return [...found];
}
