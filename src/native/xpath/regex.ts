/**
 * Translates an XML Schema / XPath 2.0 regular expression (no flags) into a JavaScript RegExp
 * using the `v` flag, whose nested classes and `--` subtraction express XSD's `[a-z-[aeiou]]`,
 * `\i`, `\c` and `\w` directly. Differences handled: `.` excludes only \n and \r; `\d`, `\w` are
 * Unicode classes; `\s` is XML whitespace; every literal is re-escaped so that characters special
 * to `v`-mode classes keep their literal meaning.
 */
import { fail } from "./errors.ts";

const NAME_START = "A-Z_a-z:\\u{C0}-\\u{D6}\\u{D8}-\\u{F6}\\u{F8}-\\u{2FF}\\u{370}-\\u{37D}\\u{37F}-\\u{1FFF}\\u{200C}-\\u{200D}\\u{2070}-\\u{218F}\\u{2C00}-\\u{2FEF}\\u{3001}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFFD}\\u{10000}-\\u{EFFFF}";
const NAME_CHAR = `${NAME_START}\\-.0-9\\u{B7}\\u{300}-\\u{36F}\\u{203F}-\\u{2040}`;

/** Multi-character escapes as `v`-mode classes (usable inside and outside brackets). */
const CLASS_ESCAPES: Record<string, string> = {
  d: "[\\p{Nd}]",
  D: "[^\\p{Nd}]",
  s: "[ \\t\\n\\r]",
  S: "[^ \\t\\n\\r]",
  w: "[^\\p{P}\\p{Z}\\p{C}]",
  W: "[\\p{P}\\p{Z}\\p{C}]",
  i: `[${NAME_START}]`,
  I: `[^${NAME_START}]`,
  c: `[${NAME_CHAR}]`,
  C: `[^${NAME_CHAR}]`,
};
const SINGLE_ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t" };
const ESCAPABLE = new Set("\\|.-^?*+{}()[]$");

/**
 * Patterns translated and compiled once instead of at every call of `matches`, `replace` or
 * `tokenize`: a rule's pattern is a literal, met again at every node the rule fires on. Held by the
 * compile session (session.ts) of the plan whose rules write the patterns. A pattern can also be
 * computed from the document, and a worker keeps its plans, so the cache is bounded: past
 * {@link MAX_PATTERNS} the oldest pattern makes room.
 */
export class RegexCache {
  private readonly compiled = new Map<string, RegExp>();

  /** `pattern` as a JavaScript RegExp, `global` for replace and tokenize; its `lastIndex` is reset, as it is shared. */
  get(pattern: string, flags: string, global = false): RegExp {
    if (flags !== "") fail("FORX0001", `regex flags "${flags}" are not supported`);
    const key = `${global ? "g" : ""}${pattern}`;
    let regex = this.compiled.get(key);
    if (!regex) {
      try {
        regex = new RegExp(translate(pattern), global ? "gv" : "v");
      } catch (error) {
        fail("FORX0002", `invalid regular expression "${pattern}": ${(error as Error).message}`);
      }
      if (this.compiled.size >= MAX_PATTERNS) this.compiled.delete(this.compiled.keys().next().value!);
      this.compiled.set(key, regex);
    }
    regex.lastIndex = 0;
    return regex;
  }
}

/** Far more than the patterns any rule set writes: the bound matters only where documents supply patterns. */
const MAX_PATTERNS = 256;

function literal(char: string): string {
  return `\\u{${char.codePointAt(0)!.toString(16)}}`;
}

function translate(pattern: string): string {
  const chars = Array.from(pattern);
  let at = 0;
  let out = "";
  const escape = (inClass: boolean): string => {
    const c = chars[at++];
    if (c === undefined) fail("FORX0002", `regex "${pattern}" ends with a backslash`);
    if (CLASS_ESCAPES[c]) return CLASS_ESCAPES[c];
    if (SINGLE_ESCAPES[c]) return literal(SINGLE_ESCAPES[c]);
    if (c === "p" || c === "P") {
      const close = chars.indexOf("}", at);
      const name = chars.slice(at + 1, close).join("");
      if (chars[at] !== "{" || close < 0 || name.startsWith("Is")) fail("FORX0002", `unsupported \\${c} in "${pattern}"`);
      at = close + 1;
      return `\\${c}{${name}}`;
    }
    if (!inClass && /[1-9]/.test(c)) return `\\${c}`;
    if (ESCAPABLE.has(c)) return literal(c);
    return fail("FORX0002", `invalid escape \\${c} in "${pattern}"`);
  };
  /** A character class from just after its "[" to just after its "]". */
  const charClass = (): string => {
    let negated = false;
    if (chars[at] === "^") {
      negated = true;
      at++;
    }
    const parts: string[] = [];
    let subtraction = "";
    let first = true;
    while (at < chars.length && (chars[at] !== "]" || first)) {
      first = false;
      if (chars[at] === "-" && chars[at + 1] === "[") {
        at += 2;
        subtraction = charClass();
        break;
      }
      let from: string;
      let single: string | null;
      if (chars[at] === "\\") {
        at++;
        from = escape(true);
        single = from.startsWith("[") || from.startsWith("\\p") || from.startsWith("\\P") ? null : from;
      } else {
        single = literal(chars[at++]);
        from = single;
      }
      if (single !== null && chars[at] === "-" && chars[at + 1] !== "]" && chars[at + 1] !== "[" && at + 1 < chars.length) {
        at++;
        const to = chars[at] === "\\" ? (at++, escape(true)) : literal(chars[at++]);
        parts.push(`${single}-${to}`);
      } else parts.push(from);
    }
    if (chars[at] !== "]") fail("FORX0002", `unterminated character class in "${pattern}"`);
    at++;
    const body = `[${negated ? "^" : ""}${parts.join("")}]`;
    return subtraction ? `[${body}--${subtraction}]` : body;
  };
  while (at < chars.length) {
    const c = chars[at++];
    if (c === "\\") out += escape(false);
    else if (c === "[") out += charClass();
    else if (c === ".") out += "[^\\n\\r]";
    else out += c;
  }
  return out;
}
