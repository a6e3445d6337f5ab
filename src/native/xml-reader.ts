/**
 * A small non-validating XML 1.0 reader that builds the {@link XDocument} directly: namespaces,
 * the five predefined entities and character references, CDATA, comments and processing
 * instructions, line-end and attribute-value normalisation. A DOCTYPE is refused, as the service
 * refuses it before any rule runs; the result keeps every text node, whitespace included, because
 * string values of elements (and so the rules' verdicts) depend on it.
 */
import { Kind, XDocument, XNode } from "./document.ts";

const XML_NS = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";

export class XmlError extends Error {
  constructor(message: string, offset: number) {
    super(`not well-formed XML at offset ${offset}: ${message}`);
    this.name = "XmlError";
  }
}

const NAME = /[^\s/>=<"']+/y;

export function readXml(input: string | Uint8Array): XDocument {
  const text = (typeof input === "string" ? input : decode(input)).replace(/\r\n?/g, "\n");
  const document = new XNode(Kind.Document, null, "", "", "", "");
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let current = document;
  // The namespace bindings in scope, copied only where an element declares some; one entry per open element.
  let bindings = new Map([["xml", XML_NS]]);
  const scopes: Map<string, string>[] = [];
  const fail = (message: string): never => {
    throw new XmlError(message, pos);
  };
  const resolve = (prefix: string): string => bindings.get(prefix) ?? (prefix === "" ? "" : fail(`undeclared prefix "${prefix}"`));
  let sawRoot = false;
  const names = new Map<string, Name>();

  while (pos < text.length) {
    const lt = text.indexOf("<", pos);
    if (lt !== pos) {
      const chunk = text.slice(pos, lt < 0 ? text.length : lt);
      if (current === document) {
        if (/\S/.test(chunk)) fail("text outside the root element");
      } else addText(current, unescape(chunk, pos, fail));
      if (lt < 0) break;
      pos = lt;
    }
    if (text.startsWith("<!--", pos)) {
      const close = text.indexOf("-->", pos + 4);
      if (close < 0) fail("unterminated comment");
      current.children.push(new XNode(Kind.Comment, current, "", "", "", text.slice(pos + 4, close)));
      pos = close + 3;
    } else if (text.startsWith("<![CDATA[", pos)) {
      const close = text.indexOf("]]>", pos + 9);
      if (close < 0 || current === document) fail("misplaced or unterminated CDATA section");
      addText(current, text.slice(pos + 9, close));
      pos = close + 3;
    } else if (text.startsWith("<?", pos)) {
      const close = text.indexOf("?>", pos + 2);
      if (close < 0) fail("unterminated processing instruction");
      const body = text.slice(pos + 2, close);
      const target = /^[^\s?]+/.exec(body)?.[0] ?? fail("processing instruction without target");
      if (target.toLowerCase() !== "xml") {
        const content = body.slice(target.length).replace(/^\s+/, "");
        current.children.push(new XNode(Kind.ProcessingInstruction, current, "", target, target, content));
      }
      pos = close + 2;
    } else if (text.startsWith("<!", pos)) {
      fail("DOCTYPE declarations are not accepted");
    } else if (text[pos + 1] === "/") {
      NAME.lastIndex = pos + 2;
      const name = NAME.exec(text)?.[0] ?? fail("missing end tag name");
      if (current === document || name !== current.qname) fail(`end tag </${name}> does not match <${current.qname}>`);
      pos = NAME.lastIndex;
      while (isSpace(text.charCodeAt(pos))) pos++;
      if (text[pos] !== ">") fail("malformed end tag");
      pos++;
      bindings = scopes.pop()!;
      current = current.parent!;
    } else {
      if (current === document && sawRoot) fail("more than one root element");
      NAME.lastIndex = pos + 1;
      const qname = NAME.exec(text)?.[0] ?? fail("missing element name");
      pos = NAME.lastIndex;
      const raw: [string, string][] = [];
      let selfClosing = false;
      for (;;) {
        const before = pos;
        while (isSpace(text.charCodeAt(pos))) pos++;
        if (text[pos] === ">") {
          pos++;
          break;
        }
        if (text.startsWith("/>", pos)) {
          selfClosing = true;
          pos += 2;
          break;
        }
        if (pos === before) fail("expected whitespace between attributes");
        NAME.lastIndex = pos;
        const name = NAME.exec(text)?.[0] ?? fail("malformed attribute");
        pos = NAME.lastIndex;
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
        raw.push([name, unescape(rawValue.replace(/[\t\n]/g, " "), pos, fail)]);
        pos = close + 1;
      }
      scopes.push(bindings);
      for (const [name, value] of raw) {
        if (name !== "xmlns" && !name.startsWith("xmlns:")) continue;
        if (bindings === scopes[scopes.length - 1]) bindings = new Map(bindings);
        bindings.set(name === "xmlns" ? "" : name.slice(6), value);
      }
      const [prefix, local, name] = split(qname);
      const element = new XNode(Kind.Element, current, resolve(prefix), local, name, "");
      // A scan finds a duplicate among the usual few attributes; many would make it quadratic.
      const seen = raw.length > 8 ? new Set<string>() : null;
      for (const [name, value] of raw) {
        if (name === "xmlns" || name.startsWith("xmlns:")) continue;
        const [attributePrefix, attributeLocal, attributeName] = split(name);
        const ns = attributePrefix ? resolve(attributePrefix) : "";
        const duplicate = seen
          ? seen.size === seen.add(`{${ns}}${attributeLocal}`).size
          : element.attributes.some((other) => other.local === attributeLocal && other.ns === ns);
        if (duplicate || ns === XMLNS_NS) fail(`duplicate attribute ${name}`);
        element.attributes.push(new XNode(Kind.Attribute, element, ns, attributeLocal, attributeName, value));
      }
      current.children.push(element);
      if (current === document) sawRoot = true;
      if (selfClosing) bindings = scopes.pop()!;
      else current = element;
    }
  }
  if (current !== document) fail(`unclosed element <${current.qname}>`);
  if (!sawRoot) fail("no root element");
  return new XDocument(document);

  /**
   * Prefix, local name and the name itself, one string object per distinct name, so that the
   * indexes and name tests compare and hash the same few strings instead of a copy per node.
   */
  function split(qname: string): Name {
    let name = names.get(qname);
    if (!name) {
      const colon = qname.indexOf(":");
      name = colon < 0 ? ["", qname, qname] : [qname.slice(0, colon), qname.slice(colon + 1), qname];
      names.set(qname, name);
    }
    return name;
  }
}

type Name = [prefix: string, local: string, qname: string];

function addText(parent: XNode, value: string): void {
  if (!value) return;
  const last = parent.children[parent.children.length - 1];
  // Adjacent text (around a CDATA section or a comment-free entity) is one text node in XPath.
  if (last?.kind === Kind.Text) parent.children[parent.children.length - 1] = new XNode(Kind.Text, parent, "", "", "", last.value + value);
  else parent.children.push(new XNode(Kind.Text, parent, "", "", "", value));
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", apos: "'", quot: '"' };

function unescape(text: string, offset: number, fail: (message: string) => never): string {
  if (!text.includes("&")) return text;
  return text.replace(/&([^;&]*);?/g, (match, name: string) => {
    if (!match.endsWith(";")) fail(`unterminated reference at ${offset}`);
    if (name.startsWith("#x")) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? fail(`unknown entity &${name};`);
  });
}

/** Decodes bytes by their BOM or XML declaration; UTF-8 otherwise. */
function decode(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes);
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 200));
  const encoding = /^(?:\uFEFF|\xEF\xBB\xBF)?<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/.exec(head)?.[1] ?? "utf-8";
  return new TextDecoder(encoding.toLowerCase(), { fatal: true }).decode(bytes);
}
