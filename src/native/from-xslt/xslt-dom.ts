/**
 * Reading a published XSLT as a tree: the stylesheet is parsed by the engine's own XML reader,
 * which keeps names and values but not the namespace declarations, so these helpers recover the
 * bindings from the text and serialize declarations back with every binding they may need.
 */
import { Kind, type XNode } from "../xpath/document.ts";
import { fail } from "../xpath/errors.ts";

export const XSL_NS = "http://www.w3.org/1999/XSL/Transform";
export const SVRL_NS = "http://purl.oclc.org/dsdl/svrl";

const XMLNS_DECLARATION = /\sxmlns:([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/**
 * Every prefix the stylesheet declares anywhere, with its namespace. XPath expressions resolve
 * prefixes against the declarations in scope where they are written; one map stands for all of
 * those scopes only while no prefix is bound to two namespaces in the file, so that is refused.
 */
export function declaredPrefixes(text: string, file: string): Map<string, string> {
  const prefixes = new Map<string, string>();
  for (const m of text.matchAll(XMLNS_DECLARATION)) {
    const uri = m[2] ?? m[3];
    const bound = prefixes.get(m[1]);
    if (bound !== undefined && bound !== uri) fail("XTSE0010", `${file}: prefix "${m[1]}" bound to both ${bound} and ${uri} is not supported natively`);
    prefixes.set(m[1], uri);
  }
  return prefixes;
}

export function isXsl(node: XNode, local: string): boolean {
  return node.kind === Kind.Element && node.ns === XSL_NS && node.local === local;
}

export function isSvrl(node: XNode, local: string): boolean {
  return node.kind === Kind.Element && node.ns === SVRL_NS && node.local === local;
}

export function attribute(element: XNode, local: string): string | undefined {
  return element.attributes.find((a) => a.ns === "" && a.local === local)?.value;
}

export function isWhitespace(text: string): boolean {
  return /^[ \t\r\n]*$/.test(text);
}

/** What the XSLT processor sees of an element's content: comments and whitespace-only text are stripped from stylesheets. */
export function instructions(element: XNode): XNode[] {
  return element.children.filter((child) => child.kind === Kind.Element || (child.kind === Kind.Text && !isWhitespace(child.value)));
}

/**
 * An element as standalone XML: its prefixes declared on it (all of the stylesheet's bindings) and
 * the default namespace made explicit on every unprefixed element.
 */
export function serializeElement(element: XNode, prefixes: ReadonlyMap<string, string>): string {
  const declarations = [...prefixes].map(([prefix, uri]) => ` xmlns:${prefix}="${escape(uri)}"`).join("");
  return serialize(element, declarations);
}

function serialize(node: XNode, declarations: string): string {
  switch (node.kind) {
    case Kind.Element: {
      const defaultNs = node.qname.includes(":") ? "" : ` xmlns="${escape(node.ns)}"`;
      const attributes = node.attributes.map((a) => ` ${a.qname}="${escape(a.value)}"`).join("");
      return `<${node.qname}${declarations}${defaultNs}${attributes}>${node.children.map((child) => serialize(child, "")).join("")}</${node.qname}>`;
    }
    case Kind.Text:
      return escape(node.value);
    default:
      return "";
  }
}

function escape(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/\t/g, "&#9;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;");
}

/**
 * A canonical text of a subtree for comparing generator boilerplate with the form it is known to
 * have: attributes sorted, whitespace in attribute values collapsed, stripped text dropped.
 */
export function canonical(node: XNode): string {
  if (node.kind === Kind.Text) return isWhitespace(node.value) ? "" : node.value;
  if (node.kind !== Kind.Element) return "";
  const attributes = node.attributes
    .map((a) => `${a.qname}="${a.value.replace(/[ \t\r\n]+/g, " ").trim()}"`)
    .sort()
    .join(" ");
  return `<${node.qname}${attributes ? ` ${attributes}` : ""}>${node.children.map(canonical).join("")}</${node.qname}>`;
}
