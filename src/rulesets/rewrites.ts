// Build-time rewrites that work around SaxonJS 2.7 defects (see ENGINE-FACTS.md). They are
// applied to a build copy of a stylesheet, never to the pinned file, and only inside XPath-bearing
// attributes of XSLT elements; every other byte is kept, so a diff of copy and pin shows only
// the rewritten sites. A test proves on Saxon-HE that copy and pin give identical findings.

/** Bump when a rewrite changes: it is part of the SEF cache key. */
export const REWRITES_VERSION = 1;

const XSLT_NS = "http://www.w3.org/1999/XSL/Transform";
const XSD_NS = "http://www.w3.org/2001/XMLSchema";

/** Attributes of xsl:* elements whose value is an XPath expression or pattern. */
const XPATH_ATTRIBUTES = new Set([
  "test",
  "select",
  "use",
  "match",
  "value",
  "group-by",
  "group-adjacent",
  "group-starting-with",
  "group-ending-with",
  "from",
  "count",
]);

/** An insertion into the decoded XPath text at a character index. */
interface Edit {
  at: number;
  /** Characters of the original replaced from `at` (0 for a pure insertion). */
  remove: number;
  insert: string;
}

interface Rewrite {
  name: string;
  /** Edits for one XPath expression (decoded attribute value); `code` marks non-literal, non-comment characters. */
  edits(xpath: string, code: boolean[]): Edit[];
}

/**
 * round(sum(ARGS)) -> round(xs:decimal(sum(ARGS))). SaxonJS types round() of the double that
 * sum() returns over untyped nodes as xs:decimal and then fails with XPTY0004 in arithmetic.
 */
const roundSum: Rewrite = {
  name: "round-sum-decimal",
  edits(xpath, code) {
    const out: Edit[] = [];
    for (const m of xpath.matchAll(/round\(sum\(/g)) {
      const start = m.index!;
      if (!code[start] || isNameChar(xpath[start - 1])) continue;
      const sumStart = start + "round(".length;
      const close = matchingParen(xpath, code, sumStart + "sum".length);
      out.push({ at: sumStart, remove: 0, insert: "xs:decimal(" }, { at: close + 1, remove: 0, insert: ")" });
    }
    return out;
  },
};

/**
 * xs:integer(string-join(...)) mod 97 -> xs:decimal(string-join(...)) mod 97 (BR-DE-19 IBAN
 * check). SaxonJS loses precision on integers beyond 2^53; its xs:decimal mod is exact.
 */
const integerMod97: Rewrite = {
  name: "integer-mod97-decimal",
  edits(xpath, code) {
    const out: Edit[] = [];
    for (const m of xpath.matchAll(/xs:integer\(string-join\(/g)) {
      const start = m.index!;
      if (!code[start] || isNameChar(xpath[start - 1])) continue;
      const close = matchingParen(xpath, code, start + "xs:integer".length);
      if (!/^\s*mod\s+97(?![\d.])/.test(xpath.slice(close + 1))) continue;
      out.push({ at: start, remove: "xs:integer".length, insert: "xs:decimal" });
    }
    return out;
  },
};

const REWRITES: readonly Rewrite[] = [roundSum, integerMod97];

interface RewriteResult {
  text: string;
  /** Sites changed per rewrite name (every rewrite listed, 0 when untouched). */
  counts: Record<string, number>;
}

/** Applies every rewrite to a stylesheet's text. */
export function rewriteStylesheet(source: string, name = "stylesheet"): RewriteResult {
  const counts: Record<string, number> = Object.fromEntries(REWRITES.map((r) => [r.name, 0]));
  const pieces: string[] = [];
  let copied = 0;
  for (const attr of xsltAttributes(source, name)) {
    if (!XPATH_ATTRIBUTES.has(attr.name)) continue;
    const { text, raw } = decodeAttribute(attr.value);
    const code = codeMask(text);
    const edits: Edit[] = [];
    for (const rw of REWRITES) {
      const found = rw.edits(text, code);
      if (found.length === 0) continue;
      if (!attr.xsBound) {
        throw new Error(`${name}: rewrite ${rw.name} needs prefix xs bound to ${XSD_NS} at offset ${attr.offset}`);
      }
      counts[rw.name] += found.filter((e) => e.insert !== ")").length;
      edits.push(...found);
    }
    if (edits.length === 0) continue;
    // Apply in raw (escaped) coordinates so every untouched byte of the attribute stays as is.
    edits.sort((a, b) => a.at - b.at);
    let rawPos = 0;
    let value = "";
    for (const e of edits) {
      const rawAt = raw[e.at];
      value += attr.value.slice(rawPos, rawAt) + e.insert;
      rawPos = raw[e.at + e.remove];
    }
    value += attr.value.slice(rawPos);
    pieces.push(source.slice(copied, attr.offset), value);
    copied = attr.offset + attr.value.length;
  }
  pieces.push(source.slice(copied));
  return { text: pieces.join(""), counts };
}

interface XsltAttribute {
  name: string;
  /** Raw (still escaped) attribute value and its offset in the source. */
  value: string;
  offset: number;
  /** Whether prefix `xs` is bound to the XML Schema namespace on this element. */
  xsBound: boolean;
}

/**
 * Yields attributes of elements in the XSLT namespace, in document order. A small scanner rather
 * than a DOM so offsets into the original text are exact; it tracks namespace declarations so a
 * literal result element that happens to use another prefix is never touched.
 */
function* xsltAttributes(source: string, name = "stylesheet"): Generator<XsltAttribute> {
  const scopes: Map<string, string>[] = [new Map()];
  let i = 0;
  while (true) {
    const lt = source.indexOf("<", i);
    if (lt < 0) break;
    if (source.startsWith("<!--", lt)) {
      i = endOf(source, "-->", lt, name);
      continue;
    }
    if (source.startsWith("<![CDATA[", lt)) {
      i = endOf(source, "]]>", lt, name);
      continue;
    }
    if (source.startsWith("<?", lt)) {
      i = endOf(source, "?>", lt, name);
      continue;
    }
    if (source.startsWith("<!", lt)) {
      // DOCTYPE (possibly with an internal subset in brackets).
      const bracket = source.indexOf("[", lt);
      const gt = source.indexOf(">", lt);
      i = bracket >= 0 && bracket < gt ? endOf(source, "]>", lt, name) : gt + 1;
      continue;
    }
    if (source[lt + 1] === "/") {
      scopes.pop();
      i = endOf(source, ">", lt, name);
      continue;
    }
    const tag = /^<([^\s/>]+)/.exec(source.slice(lt, lt + 200));
    if (!tag) throw new Error(`${name}: malformed markup at offset ${lt}`);
    const attrRe = /\s+([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')|\s*(\/?)>/y;
    attrRe.lastIndex = lt + tag[0].length;
    const attrs: { name: string; value: string; offset: number }[] = [];
    let selfClosing = false;
    while (true) {
      const m = attrRe.exec(source);
      if (!m) throw new Error(`${name}: cannot read start tag at offset ${lt}`);
      if (m[1] === undefined) {
        selfClosing = m[5] === "/";
        i = attrRe.lastIndex;
        break;
      }
      const value = m[3] ?? m[4];
      const offset = attrRe.lastIndex - 1 - value.length;
      attrs.push({ name: m[1], value, offset });
    }
    const scope = new Map(scopes[scopes.length - 1]);
    for (const a of attrs) {
      if (a.name === "xmlns") scope.set("", decodeAttribute(a.value).text);
      else if (a.name.startsWith("xmlns:")) scope.set(a.name.slice(6), decodeAttribute(a.value).text);
    }
    const colon = tag[1].indexOf(":");
    const prefix = colon < 0 ? "" : tag[1].slice(0, colon);
    if (scope.get(prefix) === XSLT_NS) {
      const xsBound = scope.get("xs") === XSD_NS;
      for (const a of attrs) if (!a.name.includes(":")) yield { ...a, xsBound };
    }
    if (!selfClosing) scopes.push(scope);
  }
}

function endOf(source: string, marker: string, from: number, name: string): number {
  const at = source.indexOf(marker, from);
  if (at < 0) throw new Error(`${name}: unterminated markup at offset ${from}`);
  return at + marker.length;
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/**
 * Decodes an attribute value's character and entity references. `raw[i]` is the offset in the
 * raw value where decoded character i starts (`raw[text.length]` = raw length), so edits made
 * on the decoded XPath can be placed in the raw text.
 */
function decodeAttribute(value: string): { text: string; raw: number[] } {
  let text = "";
  const raw: number[] = [];
  let i = 0;
  while (i < value.length) {
    if (value[i] === "&") {
      const semi = value.indexOf(";", i);
      const ref = value.slice(i + 1, semi);
      let ch: string | undefined;
      if (ref.startsWith("#x")) ch = String.fromCodePoint(parseInt(ref.slice(2), 16));
      else if (ref.startsWith("#")) ch = String.fromCodePoint(parseInt(ref.slice(1), 10));
      else ch = ENTITIES[ref];
      if (semi < 0 || ch === undefined) throw new Error(`unknown reference &${ref}; in attribute value`);
      for (let k = 0; k < ch.length; k++) raw.push(i);
      text += ch;
      i = semi + 1;
    } else {
      raw.push(i);
      text += value[i];
      i++;
    }
  }
  raw.push(value.length);
  return { text, raw };
}

/** Marks each character of an XPath expression that is code (not inside a string literal or comment). */
function codeMask(xpath: string): boolean[] {
  const code = new Array<boolean>(xpath.length).fill(true);
  let i = 0;
  while (i < xpath.length) {
    const c = xpath[i];
    if (c === '"' || c === "'") {
      // XPath escapes a quote inside a literal by doubling it.
      let j = i + 1;
      while (j < xpath.length) {
        if (xpath[j] === c) {
          if (xpath[j + 1] === c) j += 2;
          else break;
        } else j++;
      }
      for (let k = i; k <= j && k < xpath.length; k++) code[k] = false;
      i = j + 1;
    } else if (c === "(" && xpath[i + 1] === ":") {
      // XPath comments nest.
      let depth = 0;
      let j = i;
      while (j < xpath.length) {
        if (xpath.startsWith("(:", j)) {
          depth++;
          j += 2;
        } else if (xpath.startsWith(":)", j)) {
          depth--;
          j += 2;
          if (depth === 0) break;
        } else j++;
      }
      for (let k = i; k < j; k++) code[k] = false;
      i = j;
    } else i++;
  }
  return code;
}

/** Index of the `)` closing the `(` at `open`, ignoring parentheses in literals and comments. */
function matchingParen(xpath: string, code: boolean[], open: number): number {
  if (xpath[open] !== "(") throw new Error(`expected "(" at ${open} in: ${xpath}`);
  let depth = 0;
  for (let i = open; i < xpath.length; i++) {
    if (!code[i]) continue;
    if (xpath[i] === "(") depth++;
    else if (xpath[i] === ")" && --depth === 0) return i;
  }
  throw new Error(`unbalanced parentheses from offset ${open} in: ${xpath}`);
}

function isNameChar(c: string | undefined): boolean {
  return c !== undefined && /[\w.\-:]/.test(c);
}
