// The markup part of the XML reading policy (xml-policy.ts), checked in one linear pass before any
// parser sees the text. The service reads XML with three parsers (libxml2 for the XSD step, xmldom
// for parse and the hybrid checks, its own reader for the rule engines) and they are not equally
// strict; these are the points where they part: a DOCTYPE anywhere, libxml2's limits without
// XML_PARSE_HUGE (depth, name and text lengths), references other than the five predefined
// entities and XML characters, a bare `&`, `]]>` in text, unquoted or unseparated attributes,
// and unterminated comments, CDATA sections, processing instructions and tags.

import { XmlRefused } from "./xml-refused.ts";
import { codePointName, isXmlChar } from "./xml-chars.ts";

export interface MarkupLimits {
  /** Elements open at once, the root included (libxml2 refuses the 257th level). */
  maxDepth: number;
  /** Characters in one element or attribute name. */
  maxNameLength: number;
  /** Characters in one text run, attribute value, comment or CDATA section. */
  maxTextLength: number;
  /** Elements in the whole document, for readers that build a tree of them (libxml2 has no such limit). */
  maxElements?: number;
}

/** "line 3, column 14" of a UTF-16 index, for messages. */
export function positionOf(text: string, index: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line}, column ${index - lineStart + 1}`;
}

const PREDEFINED = new Set(["lt", "gt", "amp", "apos", "quot"]);
const REFERENCE = /&(?:#x([0-9A-Fa-f]+)|#([0-9]+)|([A-Za-z_:][\w.:-]*));/y;
const DOCTYPE_MESSAGE = "document type declarations (DOCTYPE) are not accepted: DTDs and entity declarations are refused for security";

const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
/** Characters that end a name: whitespace and the markup delimiters. */
const endsName = (code: number) => isSpace(code) || code === 0x2f || code === 0x3e || code === 0x3d || code === 0x3c || code === 0x22 || code === 0x27 || Number.isNaN(code);

/** Throws `XmlRefused` at the first markup the policy refuses; returns when there is none. */
export function checkMarkup(text: string, limits: MarkupLimits): void {
  const malformed = (index: number, message: string): never => {
    throw new XmlRefused("XML_MALFORMED", `not well-formed XML at ${positionOf(text, index)}: ${message}`);
  };

  const checkLength = (from: number, to: number, what: string) => {
    if (to - from > limits.maxTextLength) malformed(from, `${what} of ${to - from} characters is longer than the limit of ${limits.maxTextLength}`);
  };

  // The next '&', ']]>' and '<' at or after the scan position. Data ranges come in document
  // order, so each pointer only moves forward: one linear pass however the text is cut up.
  const next: Record<"&" | "]]>" | "<", number> = { "&": -1, "]]>": -1, "<": -1 };
  /** Where `what` first occurs in [from, to), or -1. */
  const nextIn = (what: keyof typeof next, from: number, to: number) => {
    if (next[what] < from) {
      const found = text.indexOf(what, from);
      next[what] = found < 0 ? Infinity : found;
    }
    return next[what] < to ? next[what] : -1;
  };

  const checkData = (from: number, to: number, inAttribute: boolean) => {
    checkLength(from, to, inAttribute ? "an attribute value" : "a text");
    for (let amp = nextIn("&", from, to); amp >= 0; amp = nextIn("&", amp + 1, to)) {
      REFERENCE.lastIndex = amp;
      const ref = REFERENCE.exec(text);
      if (!ref || ref.index + ref[0].length > to) malformed(amp, `'&' starts no reference; write a literal '&' as &amp;`);
      const [whole, hex, decimal, entity] = ref!;
      if (entity !== undefined && !PREDEFINED.has(entity)) malformed(amp, `${whole} names an entity that is not defined (only &lt; &gt; &amp; &apos; &quot; are)`);
      const codePoint = hex !== undefined ? parseInt(hex, 16) : decimal !== undefined ? Number(decimal) : undefined;
      if (codePoint !== undefined && !isXmlChar(codePoint)) malformed(amp, `${whole} refers to ${codePoint <= 0x10ffff ? codePointName(codePoint) : "no character"}, which XML 1.0 does not allow`);
    }
    const lt = inAttribute ? nextIn("<", from, to) : -1;
    if (lt >= 0) malformed(lt, "'<' in an attribute value; write it as &lt;");
    const cdataEnd = inAttribute ? -1 : nextIn("]]>", from, to);
    if (cdataEnd >= 0) malformed(cdataEnd, "']]>' in text; write '>' as &gt;");
  };

  /** The end of the name starting at `from`. */
  const nameAt = (from: number) => {
    let end = from;
    while (!endsName(text.charCodeAt(end))) end++;
    if (end === from) malformed(from, "a name is missing");
    if (end - from > limits.maxNameLength) malformed(from, `a name of ${end - from} characters is longer than the limit of ${limits.maxNameLength}`);
    return end;
  };

  const skipSpace = (from: number) => {
    while (isSpace(text.charCodeAt(from))) from++;
    return from;
  };

  const closing = (from: number, delimiter: string, what: string) => {
    const close = text.indexOf(delimiter, from);
    if (close < 0) malformed(from, `unterminated ${what}`);
    return close;
  };

  /** Reads the start tag at `lt`; returns where it ends and whether it is empty (`/>`). */
  const startTag = (lt: number): { end: number; empty: boolean } => {
    let at = nameAt(lt + 1);
    for (;;) {
      const afterSpace = skipSpace(at);
      if (text.charCodeAt(afterSpace) === 0x3e) return { end: afterSpace + 1, empty: false };
      if (text.startsWith("/>", afterSpace)) return { end: afterSpace + 2, empty: true };
      if (afterSpace === text.length) malformed(lt, "unterminated start tag");
      if (afterSpace === at) malformed(at, "attributes must be separated by whitespace");
      const nameEnd = nameAt(afterSpace);
      const name = text.slice(afterSpace, nameEnd);
      const equals = skipSpace(nameEnd);
      if (text.charCodeAt(equals) !== 0x3d) malformed(nameEnd, `attribute ${name} has no value`);
      const open = skipSpace(equals + 1);
      const quote = text[open];
      if (quote !== '"' && quote !== "'") malformed(open, `the value of attribute ${name} is not quoted`);
      const close = closing(open + 1, quote!, `value of attribute ${name}`);
      checkData(open + 1, close, true);
      at = close + 1;
    }
  };

  let depth = 0;
  let elements = 0;
  const maxElements = limits.maxElements ?? Infinity;
  let pos = 0;
  while (pos < text.length) {
    const lt = text.indexOf("<", pos);
    const dataEnd = lt < 0 ? text.length : lt;
    if (dataEnd > pos) checkData(pos, dataEnd, false);
    if (lt < 0) return;
    if (text.startsWith("<!--", lt)) {
      const close = closing(lt + 4, "-->", "comment");
      checkLength(lt + 4, close, "a comment");
      pos = close + 3;
    } else if (text.startsWith("<![CDATA[", lt)) {
      const close = closing(lt + 9, "]]>", "CDATA section");
      checkLength(lt + 9, close, "a CDATA section");
      pos = close + 3;
    } else if (text.startsWith("<!", lt)) {
      // Any case, as the XSD step's prolog scan refuses it: a sloppy DOCTYPE is refused, not just malformed.
      if (text.slice(lt, lt + 9).toUpperCase() === "<!DOCTYPE") throw new XmlRefused("XML_REFUSED", DOCTYPE_MESSAGE);
      malformed(lt, "markup declarations (<!...>) are not allowed");
    } else if (text.startsWith("<?", lt)) {
      pos = closing(lt + 2, "?>", "processing instruction") + 2;
    } else if (text.startsWith("</", lt)) {
      const end = skipSpace(nameAt(lt + 2));
      if (text.charCodeAt(end) !== 0x3e) malformed(end, "malformed end tag");
      depth--;
      pos = end + 1;
    } else {
      if (depth + 1 > limits.maxDepth) malformed(lt, `elements are nested more than ${limits.maxDepth} levels deep`);
      if (++elements > maxElements) {
        throw new XmlRefused("XML_REFUSED", `the document has more than ${maxElements.toLocaleString("en-US")} elements, the most read into a document tree (a 1 MB invoice has about 50,000)`);
      }
      const tag = startTag(lt);
      if (!tag.empty) depth++;
      pos = tag.end;
    }
  }
}
