// The XML 1.0 Char production. A character outside it cannot be written into XML at all, escaped
// or not, so every text the service takes in (JSON strings, decoded documents) is held to it, and
// every refusal names the character the same way.

const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

interface ForbiddenChar {
  /** Index in UTF-16 code units. */
  index: number;
  /** "U+0001": how messages name it. */
  name: string;
}

/** The first character XML 1.0 does not allow (C0 controls but TAB, LF and CR; U+FFFE, U+FFFF; unpaired surrogates). */
export function firstForbiddenChar(text: string): ForbiddenChar | undefined {
  const match = NOT_XML_CHAR.exec(text);
  if (!match) return undefined;
  return { index: match.index, name: codePointName(match[0].codePointAt(0)!) };
}

export const codePointName = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;

/** Whether a character reference may name this code point. */
export const isXmlChar = (codePoint: number) =>
  codePoint <= 0x10ffff && !NOT_XML_CHAR.test(String.fromCodePoint(codePoint));
