/**
 * The `location` and message text of a finding, reproducing what the generator's XSLT writes into
 * SVRL. The ISO skeleton (and `src/schematron/emit-xslt.ts`): an element's path in the
 * `/*:Invoice[namespace-uri()='…'][1]/…` form, an attribute's string value (the skeleton's
 * built-in template quirk), and for the document node its root element's path. SchXslt: its
 * `schxslt:location` function's `/Q{ns}Invoice[1]/@Q{}currencyID` form.
 */
import { INDEXED_CHILDREN, Kind, XNode } from "./xpath/document.ts";
import { lowerBound } from "./xpath/axes.ts";
import { fail } from "./xpath/errors.ts";
import { itemString, type Sequence } from "./xpath/values.ts";

export type LocationStyle = "skeleton" | "skeleton-prefixed" | "schxslt";

/** Writes the `location` of a finding from its subject nodes, in one generator's form. */
export interface FindingLocator {
  /** Raises the error the generator's location code raises on this subject, if any, without writing the path. */
  check(subject: Sequence): void;
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
class Locator implements FindingLocator {
  private readonly paths = new Map<XNode, string>();

  check(subject: Sequence): void {
    checkNodes(subject);
  }

  /** What `<xsl:apply-templates select="SUBJECT" mode="schematron-select-full-path"/>` writes. */
  locate(subject: Sequence): string {
    checkNodes(subject);
    let out = "";
    for (const item of subject as XNode[]) out += this.locateNode(item);
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
    const step = element.ns ? `*:${element.local}[namespace-uri()='${element.ns}']` : element.qname;
    const path = `${prefix}/${step}[${elementNumber(element)}]`;
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
  private readonly numbers = new SiblingNumbers(schxsltNumberKey);

  check(subject: Sequence): void {
    this.node(subject);
  }

  locate(subject: Sequence): string {
    const node = this.node(subject);
    return node.kind === Kind.Document ? "/" : this.path(node);
  }

  private node(subject: Sequence): XNode {
    // The function's parameter is declared `as="node()"`: exactly one node, else the call fails.
    if (subject.length !== 1) fail("XPTY0004", `${subject.length ? "a sequence of more than one item" : "an empty sequence"} is not allowed as the first argument of schxslt:location()`);
    const node = subject[0];
    if (!(node instanceof XNode)) return fail("XPTY0004", "the first argument of schxslt:location() must be a node");
    return node;
  }

  private path(node: XNode): string {
    const cached = this.paths.get(node);
    if (cached !== undefined) return cached;
    const parent = node.parent;
    const prefix = parent && parent.kind !== Kind.Document ? this.path(parent) : "";
    const path = `${prefix}/${this.step(node)}`;
    if (node.kind === Kind.Element) this.paths.set(node, path);
    return path;
  }

  private step(node: XNode): string {
    switch (node.kind) {
      case Kind.Element:
        return `Q{${node.ns}}${node.local}[${elementNumber(node)}]`;
      case Kind.Attribute:
        return `@Q{${node.ns}}${node.local}`;
      case Kind.Text:
        return `text()[${this.numbers.of(node)}]`;
      case Kind.Comment:
        return `comment()[${this.numbers.of(node)}]`;
      case Kind.ProcessingInstruction:
        return `processing-instruction("${node.local}")[${this.numbers.of(node)}]`;
      default:
        return "";
    }
  }
}

/**
 * What `xsl:number level="single"` counts for SchXslt's other steps: siblings of the same kind
 * (processing instructions: of the same target).
 */
function schxsltNumberKey(node: XNode): string | undefined {
  switch (node.kind) {
    case Kind.Text:
      return "text";
    case Kind.Comment:
      return "comment";
    case Kind.ProcessingInstruction:
      return `pi ${node.local}`;
    default:
      return undefined;
  }
}

/**
 * 1 + the number of preceding siblings with the element's expanded name: the skeleton's and
 * SchXslt's step index. Counting them for every finding made a document whose many like-named
 * siblings all fail a rule quadratic in their number; among many children, the element's place in
 * its parent's by-name index is found by order number instead.
 */
function elementNumber(element: XNode): number {
  const parent = element.parent;
  if (!parent) return 1;
  if (parent.children.length < INDEXED_CHILDREN) {
    let number = 1;
    for (const sibling of parent.children) {
      if (sibling === element) break;
      if (sibling.kind === Kind.Element && sibling.local === element.local && sibling.ns === element.ns) number++;
    }
    return number;
  }
  return lowerBound(parent.childrenNamed(element.ns, element.local), element.order) + 1;
}

/**
 * Each node's number among its preceding siblings of the same key (1 for the first), where no
 * by-name index serves: a parent's children are numbered all at once, the first time one of them
 * is asked for, not once per finding (see {@link elementNumber}).
 */
class SiblingNumbers {
  private readonly numbers = new Map<XNode, number>();

  constructor(private readonly keyOf: (node: XNode) => string | undefined) {}

  of(node: XNode): number {
    const known = this.numbers.get(node);
    if (known !== undefined) return known;
    if (!node.parent) return 1;
    const counts = new Map<string, number>();
    for (const sibling of node.parent.children) {
      const key = this.keyOf(sibling);
      if (key === undefined) continue;
      const number = (counts.get(key) ?? 0) + 1;
      counts.set(key, number);
      this.numbers.set(sibling, number);
    }
    return this.numbers.get(node) ?? 1;
  }
}

/**
 * The skeleton build whose `schematron-select-full-path` applies `schematron-get-full-path-3`
 * (XRechnung 2.4.0): `/ubl:Invoice/cac:X[2]/cbc:Y[1]`, lexical names, every step below the root
 * numbered among preceding siblings of the same lexical name. Only elements reach that template;
 * the other kinds of subject get the built-in templates, as with {@link Locator}.
 */
class PrefixedLocator implements FindingLocator {
  private readonly paths = new Map<XNode, string>();
  private readonly numbers = new SiblingNumbers((node) => (node.kind === Kind.Element ? node.qname : undefined));

  check(subject: Sequence): void {
    checkNodes(subject);
  }

  locate(subject: Sequence): string {
    checkNodes(subject);
    let out = "";
    for (const item of subject as XNode[]) {
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
    else path = `${this.elementPath(parent)}/${element.qname}[${this.numbers.of(element)}]`;
    this.paths.set(element, path);
    return path;
  }
}

/** The skeleton applies templates to the subject: any item that is not a node stops the transformation. */
function checkNodes(subject: Sequence): void {
  for (const item of subject) if (!(item instanceof XNode)) fail("XTTE0520", "the subject of a finding is not a node");
}

/** `xsl:value-of`: the items' string values joined by a space. */
export function valueOf(items: Sequence): string {
  return items.map(itemString).join(" ");
}

/** `svrl:text` as `parseSvrl` reads it: whitespace normalized like normalize-space(). */
export function normalizeMessage(text: string): string {
  return text.replace(/[ \t\r\n]+/g, " ").trim();
}
