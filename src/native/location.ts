/**
 * The `location` and message text of a finding, reproducing what the generator's XSLT writes into
 * SVRL. The ISO skeleton (and `src/schematron/emit-xslt.ts`): an element's path in the
 * `/*:Invoice[namespace-uri()='…'][1]/…` form, an attribute's string value (the skeleton's
 * built-in template quirk), and for the document node its root element's path. SchXslt: its
 * `schxslt:location` function's `/Q{ns}Invoice[1]/@Q{}currencyID` form.
 */
import { Kind, XNode } from "./document.ts";
import { fail } from "./xpath/errors.ts";
import { itemString, type Sequence } from "./xpath/values.ts";

export type LocationStyle = "skeleton" | "skeleton-prefixed" | "schxslt";

/** Writes the `location` of a finding from its subject nodes, in one generator's form. */
export interface FindingLocator {
  locate(subject: Sequence): string;
}

export function locatorFor(style: LocationStyle): FindingLocator {
  switch (style) {
    case "skeleton":
      return new Locator();
    case "skeleton-prefixed":
      return new PrefixedLocator();
    case "schxslt":
      return new SchxsltLocator();
  }
}

/** Paths of elements already located in this document run. */
export class Locator implements FindingLocator {
  private readonly paths = new Map<XNode, string>();

  /** What `<xsl:apply-templates select="SUBJECT" mode="schematron-select-full-path"/>` writes. */
  locate(subject: Sequence): string {
    let out = "";
    for (const item of subject) {
      if (!(item instanceof XNode)) fail("XTTE0520", "the subject of a finding is not a node");
      out += this.locateNode(item);
    }
    return out;
  }

  private locateNode(node: XNode): string {
    switch (node.kind) {
      case Kind.Element:
        return this.elementPath(node);
      case Kind.Document:
        return node.children.filter((child) => child.kind === Kind.Element).map((child) => this.elementPath(child)).join("");
      case Kind.Attribute:
      case Kind.Text:
        return node.value;
      default:
        return "";
    }
  }

  private elementPath(element: XNode): string {
    const cached = this.paths.get(element);
    if (cached !== undefined) return cached;
    const parent = element.parent!;
    const prefix = parent.kind === Kind.Element ? this.elementPath(parent) : "";
    let index = 1;
    for (const sibling of parent.children) {
      if (sibling === element) break;
      if (sibling.kind === Kind.Element && sibling.local === element.local && sibling.ns === element.ns) index++;
    }
    const step = element.ns ? `*:${element.local}[namespace-uri()='${element.ns}']` : element.qname;
    const path = `${prefix}/${step}[${index}]`;
    this.paths.set(element, path);
    return path;
  }
}

/**
 * What SchXslt 1.10's `schxslt:location(.)` returns: `/` then one step per node of
 * `ancestor-or-self::node()` below the document node, joined by `/`: `Q{ns}local[n]` for an element
 * (n from `xsl:number level="single"`: among preceding siblings of the same expanded name),
 * `@Q{ns}local` for an attribute, `text()[n]`, `comment()[n]`, `processing-instruction("target")[n]`.
 */
class SchxsltLocator implements FindingLocator {
  private readonly paths = new Map<XNode, string>();

  locate(subject: Sequence): string {
    // The function's parameter is declared `as="node()"`: exactly one node, else the call fails.
    if (subject.length !== 1) fail("XPTY0004", `${subject.length ? "a sequence of more than one item" : "an empty sequence"} is not allowed as the first argument of schxslt:location()`);
    const node = subject[0];
    if (!(node instanceof XNode)) return fail("XPTY0004", "the first argument of schxslt:location() must be a node");
    return node.kind === Kind.Document ? "/" : this.path(node);
  }

  private path(node: XNode): string {
    const cached = this.paths.get(node);
    if (cached !== undefined) return cached;
    const parent = node.parent;
    const prefix = parent && parent.kind !== Kind.Document ? this.path(parent) : "";
    const path = `${prefix}/${schxsltStep(node)}`;
    if (node.kind === Kind.Element) this.paths.set(node, path);
    return path;
  }
}

function schxsltStep(node: XNode): string {
  switch (node.kind) {
    case Kind.Element:
      return `Q{${node.ns}}${node.local}[${numberAmongSiblings(node, (other) => other.kind === Kind.Element && other.local === node.local && other.ns === node.ns)}]`;
    case Kind.Attribute:
      return `@Q{${node.ns}}${node.local}`;
    case Kind.Text:
      return `text()[${numberAmongSiblings(node, (other) => other.kind === Kind.Text)}]`;
    case Kind.Comment:
      return `comment()[${numberAmongSiblings(node, (other) => other.kind === Kind.Comment)}]`;
    case Kind.ProcessingInstruction:
      return `processing-instruction("${node.local}")[${numberAmongSiblings(node, (other) => other.kind === Kind.ProcessingInstruction && other.local === node.local)}]`;
    default:
      return "";
  }
}

/** `xsl:number level="single"` with the default count pattern: 1 + the matching preceding siblings. */
function numberAmongSiblings(node: XNode, counts: (sibling: XNode) => boolean): number {
  if (!node.parent) return 1;
  let index = 1;
  for (const sibling of node.parent.children) {
    if (sibling === node) break;
    if (counts(sibling)) index++;
  }
  return index;
}

/**
 * The skeleton build whose `schematron-select-full-path` applies `schematron-get-full-path-3`
 * (XRechnung 2.4.0): `/ubl:Invoice/cac:X[2]/cbc:Y[1]`, lexical names, every step below the root
 * numbered among preceding siblings of the same lexical name. Only elements reach that template;
 * the other kinds of subject get the built-in templates, as with {@link Locator}.
 */
class PrefixedLocator implements FindingLocator {
  private readonly paths = new Map<XNode, string>();

  locate(subject: Sequence): string {
    let out = "";
    for (const item of subject) {
      if (!(item instanceof XNode)) fail("XTTE0520", "the subject of a finding is not a node");
      if (item.kind === Kind.Element) out += this.elementPath(item);
      else if (item.kind === Kind.Document) out += item.children.filter((child) => child.kind === Kind.Element).map((child) => this.elementPath(child)).join("");
      else if (item.kind === Kind.Attribute || item.kind === Kind.Text) out += item.value;
    }
    return out;
  }

  private elementPath(element: XNode): string {
    const cached = this.paths.get(element);
    if (cached !== undefined) return cached;
    const parent = element.parent!;
    let path: string;
    if (parent.kind !== Kind.Element) path = `/${element.qname}`;
    else {
      let index = 1;
      for (const sibling of parent.children) {
        if (sibling === element) break;
        if (sibling.kind === Kind.Element && sibling.qname === element.qname) index++;
      }
      path = `${this.elementPath(parent)}/${element.qname}[${index}]`;
    }
    this.paths.set(element, path);
    return path;
  }
}

/** `xsl:value-of`: the items' string values joined by a space. */
export function valueOf(items: Sequence): string {
  return items.map(itemString).join(" ");
}

/** `svrl:text` as `parseSvrl` reads it: whitespace normalized like normalize-space(). */
export function normalizeMessage(text: string): string {
  return text.replace(/[ \t\r\n]+/g, " ").trim();
}
