/**
 * A recursive-descent parser for the XPath 2.0 subset of the rule sets (grammar of XPath 2.0 §A.1,
 * keeping only the productions listed in `ast.ts`). Keywords are not reserved in XPath, so a name
 * is read as an operator only where the grammar expects one.
 */
import type { Axis, Binding, Expr, NodeTest, SequenceType } from "./ast.ts";
import { fail } from "./errors.ts";

type Token =
  | { t: "name"; v: string; pos: number }
  | { t: "var"; v: string; pos: number }
  | { t: "string"; v: string; pos: number }
  | { t: "number"; v: string; pos: number }
  | { t: "sym"; v: string; pos: number }
  | { t: "end"; v: ""; pos: number };

const NAME_START = "[A-Za-z_\\u00C0-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD]";
const NAME_CHAR = "[-.0-9A-Za-z_\\u00B7\\u00C0-\\u02FF\\u0300-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u203F-\\u2040\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD]";
const NCNAME = `${NAME_START}${NAME_CHAR}*`;
/** QName, `prefix:*` or `*:local`. */
const NAME_TOKEN = new RegExp(`(?:${NCNAME}(?::(?:${NCNAME}|\\*))?|\\*:${NCNAME})`, "y");
const NUMBER_TOKEN = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const SYMBOLS = ["!=", "<=", ">=", "<<", ">>", "//", "::", "..", "(", ")", "[", "]", ",", "/", "@", "=", "<", ">", "+", "-", "*", "|", ".", "?"];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < source.length) {
    const c = source[pos];
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      pos++;
      continue;
    }
    if (source.startsWith("(:", pos)) {
      let depth = 0;
      do {
        if (source.startsWith("(:", pos)) {
          depth++;
          pos += 2;
        } else if (source.startsWith(":)", pos)) {
          depth--;
          pos += 2;
        } else if (pos >= source.length) fail("XPST0003", "unterminated comment");
        else pos++;
      } while (depth > 0);
      continue;
    }
    if (c === '"' || c === "'") {
      let value = "";
      let at = pos + 1;
      for (;;) {
        const close = source.indexOf(c, at);
        if (close < 0) fail("XPST0003", `unterminated string literal in ${source}`);
        value += source.slice(at, close);
        if (source[close + 1] === c) {
          value += c;
          at = close + 2;
        } else {
          at = close + 1;
          break;
        }
      }
      tokens.push({ t: "string", v: value, pos });
      pos = at;
      continue;
    }
    NUMBER_TOKEN.lastIndex = pos;
    const number = /[\d.]/.test(c) ? NUMBER_TOKEN.exec(source) : null;
    if (number) {
      tokens.push({ t: "number", v: number[0], pos });
      pos = NUMBER_TOKEN.lastIndex;
      continue;
    }
    if (c === "$") {
      NAME_TOKEN.lastIndex = pos + 1;
      const name = NAME_TOKEN.exec(source) ?? fail("XPST0003", `bad variable reference in ${source}`);
      tokens.push({ t: "var", v: name[0], pos });
      pos = NAME_TOKEN.lastIndex;
      continue;
    }
    NAME_TOKEN.lastIndex = pos;
    const name = NAME_TOKEN.exec(source);
    if (name) {
      tokens.push({ t: "name", v: name[0], pos });
      pos = NAME_TOKEN.lastIndex;
      continue;
    }
    const symbol = SYMBOLS.find((s) => source.startsWith(s, pos));
    if (!symbol) fail("XPST0003", `unexpected character "${c}" at ${pos} in ${source}`);
    tokens.push({ t: "sym", v: symbol, pos });
    pos += symbol.length;
  }
  tokens.push({ t: "end", v: "", pos });
  return tokens;
}

const AXES = new Set<string>([
  "child", "attribute", "self", "parent", "ancestor", "ancestor-or-self", "descendant", "descendant-or-self",
  "following", "following-sibling", "preceding", "preceding-sibling",
]);
const KIND_TESTS = new Set(["node", "text", "comment", "processing-instruction", "element", "attribute", "document-node"]);
const GENERAL = new Set(["=", "!=", "<", "<=", ">", ">="]);
const VALUE = new Set(["eq", "ne", "lt", "le", "gt", "ge"]);
const NODE_COMPARISON = new Set(["is", "<<", ">>"]);

export function parseXPath(source: string): Expr {
  return new Parser(source).parseAll();
}

class Parser {
  private readonly tokens: Token[];
  private at = 0;

  constructor(private readonly source: string) {
    this.tokens = tokenize(source);
  }

  parseAll(): Expr {
    const expr = this.expr();
    if (this.peek().t !== "end") this.error(`unexpected "${this.peek().v}"`);
    return expr;
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.at + offset, this.tokens.length - 1)];
  }

  private next(): Token {
    return this.tokens[this.at++];
  }

  private isSym(v: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.t === "sym" && token.v === v;
  }

  private isName(v: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.t === "name" && token.v === v;
  }

  private expectSym(v: string): void {
    if (!this.isSym(v)) this.error(`expected "${v}" but found "${this.peek().v}"`);
    this.at++;
  }

  private expectName(v: string): void {
    if (!this.isName(v)) this.error(`expected "${v}" but found "${this.peek().v}"`);
    this.at++;
  }

  private error(message: string): never {
    return fail("XPST0003", `${message} at ${this.peek().pos} in: ${this.source}`);
  }

  private expr(): Expr {
    const first = this.exprSingle();
    if (!this.isSym(",")) return first;
    const items = [first];
    while (this.isSym(",")) {
      this.at++;
      items.push(this.exprSingle());
    }
    return { kind: "sequence", items };
  }

  private exprSingle(): Expr {
    const token = this.peek();
    if (token.t === "name" && this.peek(1).t === "var") {
      if (token.v === "for") return this.forExpr();
      if (token.v === "some" || token.v === "every") return this.quantified();
    }
    if (token.t === "name" && token.v === "if" && this.isSym("(", 1)) return this.ifExpr();
    return this.binaryLevel(0);
  }

  private bindings(keyword: string): Binding[] {
    const bindings: Binding[] = [];
    do {
      if (bindings.length) this.at++;
      const variable = this.next();
      if (variable.t !== "var") this.error("expected a variable");
      this.expectName("in");
      bindings.push({ name: variable.v, value: this.exprSingle() });
    } while (this.isSym(","));
    this.expectName(keyword);
    return bindings;
  }

  private forExpr(): Expr {
    this.at++;
    const bindings = this.bindings("return");
    return { kind: "for", bindings, body: this.exprSingle() };
  }

  private quantified(): Expr {
    const every = this.next().v === "every";
    const bindings = this.bindings("satisfies");
    return { kind: "quantified", every, bindings, body: this.exprSingle() };
  }

  private ifExpr(): Expr {
    this.at++;
    this.expectSym("(");
    const condition = this.expr();
    this.expectSym(")");
    this.expectName("then");
    const then = this.exprSingle();
    this.expectName("else");
    return { kind: "if", condition, then, else: this.exprSingle() };
  }

  /** Binary operator levels, loosest first; comparisons do not chain. */
  private static readonly LEVELS: { ops: (token: Token) => string | null; chain: boolean }[] = [
    { ops: (t) => (t.t === "name" && t.v === "or" ? "or" : null), chain: true },
    { ops: (t) => (t.t === "name" && t.v === "and" ? "and" : null), chain: true },
    {
      ops: (t) =>
        (t.t === "sym" && (GENERAL.has(t.v) || NODE_COMPARISON.has(t.v))) || (t.t === "name" && (VALUE.has(t.v) || t.v === "is")) ? t.v : null,
      chain: false,
    },
    { ops: (t) => (t.t === "name" && t.v === "to" ? "to" : null), chain: false },
    { ops: (t) => (t.t === "sym" && (t.v === "+" || t.v === "-") ? t.v : null), chain: true },
    {
      ops: (t) => (t.t === "sym" && t.v === "*" ? "*" : t.t === "name" && (t.v === "div" || t.v === "idiv" || t.v === "mod") ? t.v : null),
      chain: true,
    },
    { ops: (t) => (t.t === "sym" && t.v === "|" ? "|" : t.t === "name" && t.v === "union" ? "|" : null), chain: true },
    { ops: (t) => (t.t === "name" && (t.v === "intersect" || t.v === "except") ? t.v : null), chain: true },
  ];

  private binaryLevel(level: number): Expr {
    if (level === Parser.LEVELS.length) return this.instanceOf();
    const { ops, chain } = Parser.LEVELS[level];
    let left = this.binaryLevel(level + 1);
    for (;;) {
      const op = ops(this.peek());
      if (op === null) return left;
      this.at++;
      left = { kind: "binary", op, left, right: this.binaryLevel(level + 1) };
      if (!chain) return left;
    }
  }

  private instanceOf(): Expr {
    const operand = this.castable();
    if (this.isName("instance") && this.isName("of", 1)) {
      this.at += 2;
      return { kind: "instance", operand, type: this.sequenceType() };
    }
    return operand;
  }

  private castable(): Expr {
    const operand = this.cast();
    if (this.isName("castable") && this.isName("as", 1)) {
      this.at += 2;
      return { kind: "cast", castable: true, operand, ...this.singleType() };
    }
    return operand;
  }

  private cast(): Expr {
    const operand = this.unary();
    if (this.isName("cast") && this.isName("as", 1)) {
      this.at += 2;
      return { kind: "cast", castable: false, operand, ...this.singleType() };
    }
    return operand;
  }

  private singleType(): { type: string; optional: boolean } {
    const name = this.next();
    if (name.t !== "name") this.error("expected a type name");
    const optional = this.isSym("?");
    if (optional) this.at++;
    return { type: name.v, optional };
  }

  private sequenceType(): SequenceType {
    const name = this.next();
    if (name.t !== "name") this.error("expected a sequence type");
    let item = name.v;
    if (this.isSym("(")) {
      this.at++;
      this.expectSym(")");
      item += "()";
    }
    const occurrence = this.peek();
    if (occurrence.t === "sym" && (occurrence.v === "?" || occurrence.v === "*" || occurrence.v === "+")) {
      this.at++;
      return { item, occurrence: occurrence.v };
    }
    return { item, occurrence: "" };
  }

  private unary(): Expr {
    if (this.isSym("-") || this.isSym("+")) {
      const op = this.next().v as "-" | "+";
      return { kind: "unary", op, operand: this.unary() };
    }
    return this.path();
  }

  private path(): Expr {
    if (this.isSym("/")) {
      this.at++;
      if (!this.startsStep()) return { kind: "root" };
      return { kind: "path", steps: [{ kind: "root" }, ...this.relativeSteps()] };
    }
    if (this.isSym("//")) {
      this.at++;
      return { kind: "path", steps: [{ kind: "root" }, DESCENDANT_OR_SELF, ...this.relativeSteps()] };
    }
    const steps = this.relativeSteps();
    return steps.length === 1 ? steps[0] : { kind: "path", steps };
  }

  private startsStep(): boolean {
    const token = this.peek();
    if (token.t === "name" || token.t === "var" || token.t === "string" || token.t === "number") return true;
    return token.t === "sym" && ["@", ".", "..", "*", "("].includes(token.v);
  }

  private relativeSteps(): Expr[] {
    const steps = [this.step()];
    for (;;) {
      if (this.isSym("/")) {
        this.at++;
        steps.push(this.step());
      } else if (this.isSym("//")) {
        this.at++;
        steps.push(DESCENDANT_OR_SELF, this.step());
      } else return steps;
    }
  }

  private step(): Expr {
    const token = this.peek();
    if (token.t === "sym" && token.v === "..") {
      this.at++;
      return { kind: "step", axis: "parent", test: { kind: "type", type: "node" }, predicates: this.predicates() };
    }
    if (token.t === "sym" && token.v === "@") {
      this.at++;
      return { kind: "step", axis: "attribute", test: this.nodeTest(), predicates: this.predicates() };
    }
    if (token.t === "name" && AXES.has(token.v) && this.isSym("::", 1)) {
      this.at += 2;
      return { kind: "step", axis: token.v as Axis, test: this.nodeTest(), predicates: this.predicates() };
    }
    if ((token.t === "name" && !this.isSym("(", 1)) || (token.t === "sym" && token.v === "*") || this.isKindTest()) {
      const test = this.nodeTest();
      const axis: Axis = test.kind === "type" && test.type === "attribute" ? "attribute" : "child";
      return { kind: "step", axis, test, predicates: this.predicates() };
    }
    const base = this.primary();
    const predicates = this.predicates();
    return predicates.length ? { kind: "filter", base, predicates } : base;
  }

  private isKindTest(): boolean {
    const token = this.peek();
    return token.t === "name" && KIND_TESTS.has(token.v) && this.isSym("(", 1);
  }

  private nodeTest(): NodeTest {
    const token = this.next();
    if (token.t === "sym" && token.v === "*") return { kind: "name", prefix: null, local: null };
    if (token.t !== "name") this.error("expected a node test");
    if (KIND_TESTS.has(token.v) && this.isSym("(")) {
      this.at++;
      // element(*) / attribute(*) are the only argument forms we accept: they equal element() / attribute().
      if (this.isSym("*")) this.at++;
      this.expectSym(")");
      return { kind: "type", type: token.v };
    }
    const name = token.v;
    if (name.startsWith("*:")) return { kind: "name", prefix: null, local: name.slice(2) };
    const colon = name.indexOf(":");
    if (colon < 0) return { kind: "name", prefix: "", local: name };
    const local = name.slice(colon + 1);
    return { kind: "name", prefix: name.slice(0, colon), local: local === "*" ? null : local };
  }

  private predicates(): Expr[] {
    const predicates: Expr[] = [];
    while (this.isSym("[")) {
      this.at++;
      predicates.push(this.expr());
      this.expectSym("]");
    }
    return predicates;
  }

  private primary(): Expr {
    const token = this.next();
    switch (token.t) {
      case "string":
        return { kind: "literal", value: token.v };
      case "number":
        if (/[eE]/.test(token.v)) return { kind: "literal", value: Number(token.v) };
        return { kind: "literal", value: token.v.includes(".") ? { decimal: token.v } : { integer: token.v } };
      case "var":
        return { kind: "var", name: token.v };
      case "sym":
        if (token.v === ".") return { kind: "context" };
        if (token.v === "(") {
          if (this.isSym(")")) {
            this.at++;
            return { kind: "sequence", items: [] };
          }
          const inner = this.expr();
          this.expectSym(")");
          return inner.kind === "sequence" ? inner : { kind: "sequence", items: [inner] };
        }
        break;
      case "name": {
        this.expectSym("(");
        const args: Expr[] = [];
        if (!this.isSym(")")) {
          args.push(this.exprSingle());
          while (this.isSym(",")) {
            this.at++;
            args.push(this.exprSingle());
          }
        }
        this.expectSym(")");
        return { kind: "call", name: token.v, args };
      }
    }
    this.at--;
    return this.error(`unexpected "${token.v}"`);
  }
}

const DESCENDANT_OR_SELF: Expr = { kind: "step", axis: "descendant-or-self", test: { kind: "type", type: "node" }, predicates: [] };
