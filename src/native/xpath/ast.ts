/** The syntax tree of the XPath 2.0 subset the rule sets use. */

export type Axis =
  | "child"
  | "attribute"
  | "self"
  | "parent"
  | "ancestor"
  | "ancestor-or-self"
  | "descendant"
  | "descendant-or-self"
  | "following"
  | "following-sibling"
  | "preceding"
  | "preceding-sibling";

export type NodeTest =
  | { kind: "name"; prefix: string | null; local: string | null }
  /** `node()`, `text()`, `comment()`, `processing-instruction()`, `element()`, `attribute()`, `document-node()`. */
  | { kind: "type"; type: string };

export type Expr =
  | { kind: "literal"; value: string | number | { decimal: string } | { integer: string } }
  | { kind: "var"; name: string }
  | { kind: "context" }
  | { kind: "sequence"; items: Expr[] }
  | { kind: "root" }
  | { kind: "path"; steps: Expr[] }
  | { kind: "step"; axis: Axis; test: NodeTest; predicates: Expr[] }
  | { kind: "filter"; base: Expr; predicates: Expr[] }
  | { kind: "call"; name: string; args: Expr[] }
  | { kind: "binary"; op: string; left: Expr; right: Expr }
  | { kind: "unary"; op: "-" | "+"; operand: Expr }
  | { kind: "for"; bindings: Binding[]; body: Expr }
  | { kind: "quantified"; every: boolean; bindings: Binding[]; body: Expr }
  | { kind: "if"; condition: Expr; then: Expr; else: Expr }
  | { kind: "cast"; castable: boolean; operand: Expr; type: string; optional: boolean }
  | { kind: "instance"; operand: Expr; type: SequenceType };

export interface Binding {
  name: string;
  value: Expr;
}

export interface SequenceType {
  item: string;
  occurrence: "" | "?" | "*" | "+";
}

/** A function's name as the built-ins are keyed: `fn:not` and `not` are the same function. */
export function functionName(name: string): string {
  return name.startsWith("fn:") ? name.slice(3) : name;
}

/** The expressions directly inside `expr`: operands, arguments, steps, predicates, bindings. */
export function subexpressions(expr: Expr): Expr[] {
  switch (expr.kind) {
    case "literal":
    case "var":
    case "context":
    case "root":
      return [];
    case "sequence":
      return expr.items;
    case "path":
      return expr.steps;
    case "step":
      return expr.predicates;
    case "filter":
      return [expr.base, ...expr.predicates];
    case "call":
      return expr.args;
    case "binary":
      return [expr.left, expr.right];
    case "unary":
    case "cast":
    case "instance":
      return [expr.operand];
    case "if":
      return [expr.condition, expr.then, expr.else];
    case "for":
    case "quantified":
      return [...expr.bindings.map((binding) => binding.value), expr.body];
  }
}
