/**
 * The `location` and message text of a finding, reproducing what the ISO skeleton's XSLT writes
 * into SVRL (see `src/schematron/emit-xslt.ts`): an element's path in the
 * `/*:Invoice[namespace-uri()='…'][1]/…` form, an attribute's string value (the skeleton's
 * built-in template quirk), and for the document node its root element's path.
 */
import { Kind, XNode } from "./document.ts";
import { fail } from "./xpath/errors.ts";
import { itemString, type Sequence } from "./xpath/values.ts";

export type LocationStyle = "skeleton" | "schxslt";

/** Writes the `location` of a finding from its subject nodes, in one generator's form. */
export interface FindingLocator {
  locate(subject: Sequence): string;
}

export function locatorFor(style: LocationStyle): FindingLocator {
  switch (style) {
    case "skeleton":
      return new Locator();
    case "schxslt":
      return fail("XTSE0010", "SchXslt locations are not supported natively yet");
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

/** `xsl:value-of`: the items' string values joined by a space. */
export function valueOf(items: Sequence): string {
  return items.map(itemString).join(" ");
}

/** `svrl:text` as `parseSvrl` reads it: whitespace normalized like normalize-space(). */
export function normalizeMessage(text: string): string {
  return text.replace(/[ \t\r\n]+/g, " ").trim();
}
