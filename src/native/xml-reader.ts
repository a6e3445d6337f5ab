/**
 * A small non-validating XML 1.0 reader that builds the {@link XDocument} directly: namespaces,
 * the five predefined entities and character references, CDATA, comments and processing
 * instructions, line-end and attribute-value normalisation. A DOCTYPE is refused, as the service
 * refuses it before any rule runs; the result keeps every text node, whitespace included, because
 * string values of elements (and so the rules' verdicts) depend on it.
 */
import { Kind, nameIdOf, namedList, XDocument, XNode, type NodeIndex } from "./xpath/document.ts";
import { decodeXml } from "../syntax/decode.ts";

const XML_NS = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";

export class XmlError extends Error {
  constructor(message: string, offset: number) {
    super(`not well-formed XML at offset ${offset}: ${message}`);
    this.name = "XmlError";
  }
}

/** ASCII characters that end a name: XML whitespace and JS `\s` (as the earlier regex `[^\s/>=<"']+`), and `/>=<"'`. */
const NAME_STOP = new Uint8Array(128);
for (const char of "\t\n\v\f\r /><=\"'") NAME_STOP[char.charCodeAt(0)] = 1;
const WIDE_SPACE = /\s/;

/** Where the name starting at `pos` ends (`pos` itself when there is none); scanned by code, no regex match per tag. */
function nameEnd(text: string, pos: number): number {
  const length = text.length;
  while (pos < length) {
    const code = text.charCodeAt(pos);
    if (code < 128 ? NAME_STOP[code] === 1 : WIDE_SPACE.test(text[pos])) break;
    pos++;
  }
  return pos;
}

const NO_PREFIXES: readonly string[] = [];

const BANG = 33;
const QUESTION = 63;
const SLASH = 47;
const GT = 62;

export function readXml(input: string | Uint8Array): XDocument {
  // Bytes are decoded as every route decodes caller XML (src/syntax/decode.ts).
  const decoded = typeof input === "string" ? input : decodeXml(input);
  const text = decoded.includes("\r") ? decoded.replace(/\r\n?/g, "\n") : decoded;
  const document = new XNode(Kind.Document, null, "", "", "", "");
  // Nodes are created in document order, so they are numbered and indexed here, as they come.
  const built: NodeIndex = { nodes: [document], elements: [], byName: new Map(), attributesByName: new Map() };
  const nodes = built.nodes;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let current = document;
  // The namespace bindings in scope: per prefix, the URIs its open declarations bind, innermost
  // last; per open element, the prefixes it declared, unbound when it closes. (Copying every
  // binding in scope for each declaring element was quadratic in a document of many declarations.)
  const bindings = new Map<string, string[]>([["xml", [XML_NS]]]);
  const declaredBy: (readonly string[])[] = [];
  const unbind = (prefixes: readonly string[]) => {
    for (const prefix of prefixes) bindings.get(prefix)!.pop();
  };
  const fail = (message: string): never => {
    throw new XmlError(message, pos);
  };
  const resolve = (prefix: string): string => bindings.get(prefix)?.at(-1) ?? (prefix === "" ? "" : fail(`undeclared prefix "${prefix}"`));
  let sawRoot = false;
  const names = new Map<string, Name>();
  // Attribute names and values of the start tag being read, reused from tag to tag.
  const rawNames: string[] = [];
  const rawValues: string[] = [];

  while (pos < text.length) {
    const lt = text.indexOf("<", pos);
    if (lt !== pos) {
      const to = lt < 0 ? text.length : lt;
      const chunk = indentation(text, pos, to) ?? text.slice(pos, to);
      if (current === document) {
        if (/\S/.test(chunk)) fail("text outside the root element");
      } else addText(current, unescape(chunk, pos, fail), nodes);
      if (lt < 0) break;
      pos = lt;
    }
    const next = text.charCodeAt(pos + 1);
    if (next === BANG) {
      if (text.startsWith("<!--", pos)) {
        const close = text.indexOf("-->", pos + 4);
        if (close < 0) fail("unterminated comment");
        current.children.push(place(new XNode(Kind.Comment, current, "", "", "", text.slice(pos + 4, close)), nodes));
        pos = close + 3;
      } else if (text.startsWith("<![CDATA[", pos)) {
        const close = text.indexOf("]]>", pos + 9);
        if (close < 0 || current === document) fail("misplaced or unterminated CDATA section");
        addText(current, text.slice(pos + 9, close), nodes);
        pos = close + 3;
      } else fail("DOCTYPE declarations are not accepted");
    } else if (next === QUESTION) {
      const close = text.indexOf("?>", pos + 2);
      if (close < 0) fail("unterminated processing instruction");
      const body = text.slice(pos + 2, close);
      const target = /^[^\s?]+/.exec(body)?.[0] ?? fail("processing instruction without target");
      if (target.toLowerCase() !== "xml") {
        const content = body.slice(target.length).replace(/^\s+/, "");
        current.children.push(place(new XNode(Kind.ProcessingInstruction, current, "", target, target, content), nodes));
      }
      pos = close + 2;
    } else if (next === SLASH) {
      const from = pos + 2;
      const to = nameEnd(text, from);
      if (to === from) fail("missing end tag name");
      const open = current.qname;
      if (current === document || to - from !== open.length || !text.startsWith(open, from)) fail(`end tag </${text.slice(from, to)}> does not match <${open}>`);
      pos = to;
      while (isSpace(text.charCodeAt(pos))) pos++;
      if (text.charCodeAt(pos) !== GT) fail("malformed end tag");
      pos++;
      unbind(declaredBy.pop()!);
      current.end = nodes.length - 1;
      current = current.parent!;
    } else {
      if (current === document && sawRoot) fail("more than one root element");
      const nameTo = nameEnd(text, pos + 1);
      if (nameTo === pos + 1) fail("missing element name");
      const qname = text.slice(pos + 1, nameTo);
      pos = nameTo;
      rawNames.length = rawValues.length = 0;
      let selfClosing = false;
      for (;;) {
        const before = pos;
        while (isSpace(text.charCodeAt(pos))) pos++;
        const code = text.charCodeAt(pos);
        if (code === GT) {
          pos++;
          break;
        }
        if (code === SLASH && text.charCodeAt(pos + 1) === GT) {
          selfClosing = true;
          pos += 2;
          break;
        }
        if (pos === before) fail("expected whitespace between attributes");
        const attributeTo = nameEnd(text, pos);
        if (attributeTo === pos) fail("malformed attribute");
        const name = text.slice(pos, attributeTo);
        pos = attributeTo;
        while (isSpace(text.charCodeAt(pos))) pos++;
        if (text[pos] !== "=") fail(`attribute ${name} without value`);
        pos++;
        while (isSpace(text.charCodeAt(pos))) pos++;
        const quote = text[pos];
        if (quote !== '"' && quote !== "'") fail("attribute value not quoted");
        const close = text.indexOf(quote, pos + 1);
        if (close < 0) fail("unterminated attribute value");
        const rawValue = text.slice(pos + 1, close);
        if (rawValue.includes("<")) fail("'<' in attribute value");
        rawNames.push(name);
        rawValues.push(unescape(rawValue.replace(TAB_OR_NEWLINE, " "), pos, fail));
        pos = close + 1;
      }
      const count = rawNames.length;
      let declared: string[] | undefined;
      for (let i = 0; i < count; i++) {
        const name = rawNames[i];
        if (name !== "xmlns" && !name.startsWith("xmlns:")) continue;
        const prefix = name === "xmlns" ? "" : name.slice(6);
        (declared ??= []).push(prefix);
        let uris = bindings.get(prefix);
        if (!uris) bindings.set(prefix, (uris = []));
        uris.push(rawValues[i]);
      }
      const declarations = declared?.length ?? 0;
      declaredBy.push(declared ?? NO_PREFIXES);
      const elementName = split(qname);
      const ns = resolve(elementName.prefix);
      const attributes: XNode[] | undefined = count > declarations ? [] : undefined;
      const element = place(new XNode(Kind.Element, current, ns, elementName.local, elementName.qname, "", attributes), nodes);
      built.elements.push(element);
      if (elementName.elementNs !== ns) {
        elementName.elementNs = ns;
        elementName.elements = namedList(built.byName, ns, elementName.local);
        elementName.elementId = nameIdOf(ns, elementName.local);
      }
      element.nameId = elementName.elementId!;
      elementName.elements!.push(element);
      if (attributes) {
        // A scan finds a duplicate among the usual few attributes; many would make it quadratic.
        const seen = count > 8 ? new Set<string>() : null;
        for (let i = 0; i < count; i++) {
          const name = rawNames[i];
          if (name === "xmlns" || name.startsWith("xmlns:")) continue;
          const attributeName = split(name);
          const attributeLocal = attributeName.local;
          const attributeNs = attributeName.prefix ? resolve(attributeName.prefix) : "";
          const duplicate = seen ? seen.size === seen.add(`{${attributeNs}}${attributeLocal}`).size : hasAttribute(attributes, attributeNs, attributeLocal);
          if (duplicate || attributeNs === XMLNS_NS) fail(`duplicate attribute ${name}`);
          const attribute = place(new XNode(Kind.Attribute, element, attributeNs, attributeLocal, attributeName.qname, rawValues[i]), nodes);
          attributes.push(attribute);
          if (attributeName.attributeNs !== attributeNs) {
            attributeName.attributeNs = attributeNs;
            attributeName.attributes = namedList(built.attributesByName, attributeNs, attributeLocal);
            attributeName.attributeId = nameIdOf(attributeNs, attributeLocal);
          }
          attribute.nameId = attributeName.attributeId!;
          attributeName.attributes!.push(attribute);
        }
        element.end = nodes.length - 1;
      }
      current.children.push(element);
      if (current === document) sawRoot = true;
      if (selfClosing) unbind(declaredBy.pop()!);
      else current = element;
    }
  }
  if (current !== document) fail(`unclosed element <${current.qname}>`);
  if (!sawRoot) fail("no root element");
  document.end = nodes.length - 1;
  return new XDocument(document, built);

  /**
   * Prefix, local name and the name itself, one string object per distinct name, so that the
   * indexes and name tests compare and hash the same few strings instead of a copy per node.
   */
  function split(qname: string): Name {
    let name = names.get(qname);
    if (!name) {
      const colon = qname.indexOf(":");
      const prefix = colon < 0 ? "" : qname.slice(0, colon);
      name = { prefix, local: colon < 0 ? qname : qname.slice(colon + 1), qname, elementNs: undefined, elements: undefined, elementId: undefined, attributeNs: undefined, attributes: undefined, attributeId: undefined };
      names.set(qname, name);
    }
    return name;
  }
}

interface Name {
  prefix: string;
  local: string;
  qname: string;
  /**
   * The index lists of the elements and attributes so named, for the namespace the prefix last
   * resolved to: one array push per node instead of two map lookups.
   */
  elementNs?: string;
  elements?: XNode[];
  /** The name's number (see `nameIdOf`) for that namespace. */
  elementId?: number;
  attributeNs?: string;
  attributes?: XNode[];
  attributeId?: number;
}

/** Numbers a node created next in document order. */
function place(node: XNode, nodes: XNode[]): XNode {
  node.order = node.end = nodes.length;
  nodes.push(node);
  return node;
}

function addText(parent: XNode, value: string, nodes: XNode[]): void {
  if (!value) return;
  const last = parent.children[parent.children.length - 1];
  // Adjacent text (around a CDATA section or a comment-free entity) is one text node in XPath.
  // Nothing was created after that text node (it is its parent's last child), so it is the last numbered.
  if (last?.kind === Kind.Text) {
    const merged = new XNode(Kind.Text, parent, "", "", "", last.value + value);
    merged.order = merged.end = last.order;
    nodes[last.order] = merged;
    parent.children[parent.children.length - 1] = merged;
  } else parent.children.push(place(new XNode(Kind.Text, parent, "", "", "", value), nodes));
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", apos: "'", quot: '"' };

/**
 * Whitespace between elements, a line end and an indentation of spaces or of tabs, as one string per
 * form and length: it is most of an invoice's text nodes, and the tree keeps them all (see above).
 */
function indentation(text: string, from: number, to: number): string | undefined {
  const length = to - from;
  if (length > INDENT_LIMIT || text.charCodeAt(from) !== 10) return undefined;
  const fill = length > 1 ? text.charCodeAt(from + 1) : 32;
  if (fill !== 32 && fill !== 9) return undefined;
  for (let i = from + 2; i < to; i++) if (text.charCodeAt(i) !== fill) return undefined;
  const forms = fill === 32 ? SPACE_INDENTS : TAB_INDENTS;
  return (forms[length] ??= "\n" + String.fromCharCode(fill).repeat(length - 1));
}
const INDENT_LIMIT = 256;
const SPACE_INDENTS: string[] = [];
const TAB_INDENTS: string[] = [];

const TAB_OR_NEWLINE = /[\t\n]/g;

function hasAttribute(attributes: readonly XNode[], ns: string, local: string): boolean {
  for (const other of attributes) if (other.local === local && other.ns === ns) return true;
  return false;
}

/** Without a reference the text is as written; the replacing closure is made only for text that has one. */
function unescape(text: string, offset: number, fail: (message: string) => never): string {
  return text.includes("&") ? unescapeReferences(text, offset, fail) : text;
}

function unescapeReferences(text: string, offset: number, fail: (message: string) => never): string {
  return text.replace(/&([^;&]*);?/g, (match, name: string) => {
    if (!match.endsWith(";")) fail(`unterminated reference at ${offset}`);
    if (name.startsWith("#x")) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? fail(`unknown entity &${name};`);
  });
}

