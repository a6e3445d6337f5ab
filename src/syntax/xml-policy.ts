// The one XML reading policy: every route that reads caller XML (validate's rule engines, parse,
// the invoice and XMP inside a hybrid PDF) reads it through `readXmlText`, so they refuse the same
// documents. It writes down how libxml2 reads for validate (no XML_PARSE_HUGE, no DTD), so that a
// document the XSD step accepts is one every other reader accepts, and the other way round:
// - size: at most `XML_LIMITS.maxBytes`;
// - encoding (decode.ts): XML 1.0 Appendix F, the accepted encodings by name, no invalid byte sequence;
// - characters (xml-chars.ts): XML 1.0 `Char` only, so no NUL, no other C0 control but TAB, LF
//   and CR, no U+FFFE or U+FFFF;
// - markup (xml-markup.ts): no DOCTYPE, the depth and length limits below, well-formed references,
//   attributes and delimiters.
// A refusal is an `XmlRefused`: validate reports it as its finding (XML_REFUSED / XML_MALFORMED),
// parse as PARSE_FAILED.

import { decodeXml } from "./decode.ts";
import { firstForbiddenChar } from "./xml-chars.ts";
import { checkMarkup, positionOf, type MarkupLimits } from "./xml-markup.ts";
import { XmlRefused } from "./xml-refused.ts";

/** libxml2's own limits without XML_PARSE_HUGE, and the size validate's engine accepts. */
export const XML_LIMITS: MarkupLimits & { maxBytes: number } = {
  maxBytes: 8 * 1024 * 1024,
  maxDepth: 256,
  maxNameLength: 50_000,
  maxTextLength: 10_000_000,
};

/**
 * Readers that build a DOM (parse, the XMP of a hybrid) also bound the element count: a DOM node
 * costs hundreds of bytes, so a megabyte of empty elements would be hundreds of MiB per worker.
 */
export const DOM_LIMITS: MarkupLimits & { maxBytes: number } = { ...XML_LIMITS, maxElements: 100_000 };

/** The text of caller XML, or an `XmlRefused` saying which rule of the policy it breaks and where. */
export function readXmlText(xml: Uint8Array | string, limits = XML_LIMITS): string {
  // A string's UTF-8 form is never shorter than its UTF-16 length, so this bound is safe for both.
  const size = typeof xml === "string" ? xml.length : xml.byteLength;
  if (size > limits.maxBytes) {
    throw new XmlRefused("XML_REFUSED", `the XML document of ${size} ${typeof xml === "string" ? "characters" : "bytes"} exceeds the ${limits.maxBytes}-byte limit`);
  }
  const text = typeof xml === "string" ? xml : decodeXml(xml);
  const forbidden = firstForbiddenChar(text);
  if (forbidden) {
    throw new XmlRefused("XML_MALFORMED", `the document contains ${forbidden.name} at ${positionOf(text, forbidden.index)}, a character XML 1.0 does not allow`);
  }
  checkMarkup(text, limits);
  return text;
}
