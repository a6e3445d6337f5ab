/**
 * Compiles an XPath syntax tree into closures, resolving at compile time everything that does not
 * depend on the document: namespace prefixes, node tests, variable slots, function bindings and
 * literal values. Evaluation is then a tree of direct calls with no name lookups.
 */
import { Kind, XNode } from "../document.ts";
import type { Expr } from "./ast.ts";
import { parseXPath } from "./parser.ts";
import { CAST_TARGETS, castAtomic, isNumeric, typeName, Untyped } from "./atomic.ts";
import { axisNodes, compileTest, descendantAttributes, documentOrder, REVERSE_AXES, type CompiledTest } from "./axes.ts";
import { functionKey, readSlot, type Evaluate, type Focus, type Runtime, Scope } from "./context.ts";
import { Dec } from "./decimal.ts";
import { fail, XPathError } from "./errors.ts";
import { BUILT_INS, documentNode } from "./functions.ts";
import {
  arithmetic,
  atomize,
  effectiveBoolean,
  generalCompare,
  numericOperand,
  singleAtomic,
  VALUE_TO_GENERAL,
  valueCompare,
  type ComparisonOp,
  type Item,
  type Sequence,
} from "./values.ts";

const EMPTY: Sequence = [];

/** Parses and compiles one XPath expression; static errors (syntax, unknown function or prefix) throw here. */
export function compileXPath(source: string, scope: Scope): Evaluate {
  return compile(parseXPath(source), scope);
}

export function compile(expr: Expr, scope: Scope): Evaluate {
  switch (expr.kind) {
    case "literal": {
      const { value } = expr;
      const item =
        typeof value === "string" || typeof value === "number"
          ? value
          : "decimal" in value
            ? Dec.parse(value.decimal)!
            : Dec.parse(value.integer, true)!;
      const result = [item];
      return () => result;
    }
    case "var": {
      const { global, slot } = scope.resolve(expr.name);
      return global ? (_, runtime) => readSlot(runtime.globals, slot) : (_, runtime) => readSlot(runtime.locals, slot);
    }
    case "context":
      return (focus) => (focus.item === undefined ? fail("XPDY0002", "no context item") : [focus.item]);
    case "root":
      return (focus) => [documentNode(focus.item)];
    case "sequence": {
      const items = expr.items.map((item) => compile(item, scope));
      if (items.length === 1) return items[0];
      return (focus, runtime) => items.flatMap((item) => item(focus, runtime));
    }
    case "path":
      return compilePath(expr.steps, scope);
    case "step":
      return compileStep(expr, scope);
    case "filter": {
      const base = compile(expr.base, scope);
      const predicates = expr.predicates.map((predicate) => compilePredicate(predicate, scope));
      return (focus, runtime) => predicates.reduce((items, predicate) => predicate(items, runtime), base(focus, runtime));
    }
    case "call":
      return compileCall(expr.name, expr.args, scope);
    case "binary":
      return compileBinary(expr.op, compile(expr.left, scope), compile(expr.right, scope));
    case "unary": {
      const operand = compile(expr.operand, scope);
      if (expr.op === "+") return operand;
      return (focus, runtime) => {
        const value = singleAtomic(operand(focus, runtime), "the operand of unary minus");
        if (value === null) return EMPTY;
        const number = numericOperand(value, "-");
        return [typeof number === "number" ? -number : number.neg()];
      };
    }
    case "if": {
      const condition = compile(expr.condition, scope);
      const then = compile(expr.then, scope);
      const otherwise = compile(expr.else, scope);
      return (focus, runtime) => (effectiveBoolean(condition(focus, runtime)) ? then : otherwise)(focus, runtime);
    }
    case "for":
    case "quantified":
      return compileIteration(expr, scope);
    case "cast": {
      const operand = compile(expr.operand, scope);
      const { type, optional, castable } = expr;
      if (!CAST_TARGETS.has(type)) fail("XPST0080", `unsupported cast target ${type}`);
      return (focus, runtime) => {
        const items = operand(focus, runtime);
        if (castable) {
          if (items.length > 1) return [false];
          if (items.length === 0) return [optional];
          try {
            castAtomic(atomize(items[0]), type);
            return [true];
          } catch (error) {
            if (error instanceof XPathError) return [false];
            throw error;
          }
        }
        const value = singleAtomic(items, `the operand of cast as ${type}`);
        if (value === null) return optional ? EMPTY : fail("XPTY0004", `empty sequence cannot be cast to ${type}`);
        return [castAtomic(value, type)];
      };
    }
    case "instance": {
      const operand = compile(expr.operand, scope);
      const { item, occurrence } = expr.type;
      return (focus, runtime) => {
        const items = operand(focus, runtime);
        if (items.length === 0) return [occurrence === "?" || occurrence === "*" || item === "empty-sequence()"];
        if (items.length > 1 && (occurrence === "" || occurrence === "?")) return [false];
        return [items.every((value) => instanceOf(value, item))];
      };
    }
  }
}

function instanceOf(item: Item, type: string): boolean {
  if (type === "item()") return true;
  if (item instanceof XNode) {
    if (type === "node()") return true;
    const kinds: Record<string, Kind> = { "element()": Kind.Element, "attribute()": Kind.Attribute, "text()": Kind.Text, "document-node()": Kind.Document };
    return kinds[type] === item.kind;
  }
  const actual = typeName(item);
  if (actual === type || type === "xs:anyAtomicType") return true;
  if (type === "xs:decimal") return actual === "xs:integer";
  return false;
}

function compileCall(rawName: string, args: Expr[], scope: Scope): Evaluate {
  const name = rawName.startsWith("fn:") ? rawName.slice(3) : rawName;
  const builtIn = BUILT_INS[name];
  if (!builtIn) return compileFunctionCall(rawName, args, scope);
  if (args.length < builtIn.min || args.length > builtIn.max) fail("XPST0017", `${rawName}() does not take ${args.length} arguments`);
  const compiled = args.map((arg) => compile(arg, scope));
  switch (compiled.length) {
    case 0:
      return (focus) => builtIn.call(EMPTY_ARGS, focus);
    case 1: {
      const [a] = compiled;
      return (focus, runtime) => builtIn.call([a(focus, runtime)], focus);
    }
    default:
      return (focus, runtime) => builtIn.call(compiled.map((arg) => arg(focus, runtime)), focus);
  }
}
const EMPTY_ARGS: Sequence[] = [];

/** A call of a stylesheet function (`prefix:local(...)`), bound at compile time by expanded name and arity. */
function compileFunctionCall(rawName: string, args: Expr[], scope: Scope): Evaluate {
  const colon = rawName.indexOf(":");
  if (colon < 0) fail("XPST0017", `function ${rawName}() is not supported`);
  const uri = scope.namespace(rawName.slice(0, colon));
  const target = scope.functions.get(functionKey(uri, rawName.slice(colon + 1), args.length));
  if (!target) fail("XPST0017", `function ${rawName}#${args.length}() is not declared or not supported`);
  const compiled = args.map((arg) => compile(arg, scope));
  return (focus, runtime) => target.call(compiled.map((arg) => arg(focus, runtime)), runtime);
}

function compileBinary(op: string, left: Evaluate, right: Evaluate): Evaluate {
  switch (op) {
    case "and":
      return (focus, runtime) => [effectiveBoolean(left(focus, runtime)) && effectiveBoolean(right(focus, runtime))];
    case "or":
      return (focus, runtime) => [effectiveBoolean(left(focus, runtime)) || effectiveBoolean(right(focus, runtime))];
    case "=":
    case "!=":
    case "<":
    case "<=":
    case ">":
    case ">=":
      return (focus, runtime) => [generalComparison(left(focus, runtime), right(focus, runtime), op)];
    case "eq":
    case "ne":
    case "lt":
    case "le":
    case "gt":
    case "ge": {
      const general = VALUE_TO_GENERAL[op];
      return (focus, runtime) => {
        const a = singleAtomic(left(focus, runtime), `an operand of ${op}`);
        if (a === null) return EMPTY;
        const b = singleAtomic(right(focus, runtime), `an operand of ${op}`);
        if (b === null) return EMPTY;
        return [valueCompare(a, b, general)];
      };
    }
    case "+":
    case "-":
    case "*":
    case "div":
    case "idiv":
    case "mod":
      return (focus, runtime) => {
        const a = singleAtomic(left(focus, runtime), `an operand of ${op}`);
        if (a === null) return EMPTY;
        const b = singleAtomic(right(focus, runtime), `an operand of ${op}`);
        if (b === null) return EMPTY;
        return [arithmetic(op, numericOperand(a, op), numericOperand(b, op))];
      };
    case "to":
      return (focus, runtime) => {
        const a = singleAtomic(left(focus, runtime), "an operand of to");
        const b = singleAtomic(right(focus, runtime), "an operand of to");
        if (a === null || b === null) return EMPTY;
        const from = integerOperand(a);
        const to = integerOperand(b);
        const out: Item[] = [];
        for (let i = from; i <= to; i++) out.push(Dec.integer(i));
        return out;
      };
    case "|":
    case "intersect":
    case "except":
      return (focus, runtime) => {
        const a = nodesOf(left(focus, runtime), op);
        const b = nodesOf(right(focus, runtime), op);
        if (op === "|") return documentOrder([...a, ...b]);
        const inRight = new Set(b);
        return documentOrder(a.filter((node) => inRight.has(node) === (op === "intersect")));
      };
    case "is":
    case "<<":
    case ">>":
      return (focus, runtime) => {
        const a = nodesOf(left(focus, runtime), op);
        const b = nodesOf(right(focus, runtime), op);
        if (!a.length || !b.length) return EMPTY;
        if (a.length > 1 || b.length > 1) fail("XPTY0004", `more than one node as an operand of ${op}`);
        return [op === "is" ? a[0] === b[0] : op === "<<" ? a[0].order < b[0].order : a[0].order > b[0].order];
      };
  }
  return fail("XPST0003", `operator ${op} is not supported`);
}

function integerOperand(value: ReturnType<typeof atomize>): bigint {
  const number = value instanceof Untyped ? castAtomic(value, "xs:integer") : value;
  if (number instanceof Dec && number.integer) return number.unscaled;
  return fail("XPTY0004", `range operand ${typeName(number)} is not an xs:integer`);
}

function nodesOf(items: Sequence, op: string): XNode[] {
  for (const item of items) if (!(item instanceof XNode)) fail("XPTY0004", `operand of ${op} is not a sequence of nodes`);
  return items as XNode[];
}

/** General comparison: true when some pair of atomized items compares true; stops at the first. */
function generalComparison(left: Sequence, right: Sequence, op: ComparisonOp): boolean {
  if (left.length === 0 || right.length === 0) return false;
  const b = right.length === 1 ? [atomize(right[0])] : right.map(atomize);
  for (const item of left) {
    const a = atomize(item);
    for (const value of b) if (generalCompare(a, value, op)) return true;
  }
  return false;
}

function compileIteration(expr: Extract<Expr, { kind: "for" | "quantified" }>, scope: Scope): Evaluate {
  const bindings = expr.bindings.map((binding) => {
    const value = compile(binding.value, scope);
    return { value, slot: scope.declare(binding.name) };
  });
  const body = compile(expr.body, scope);
  scope.release(bindings.length);
  if (expr.kind === "for") {
    return (focus, runtime) => {
      const out: Item[] = [];
      const loop = (depth: number) => {
        const { value, slot } = bindings[depth];
        for (const item of value(focus, runtime)) {
          runtime.locals[slot] = [item];
          if (depth + 1 < bindings.length) loop(depth + 1);
          else for (const result of body(focus, runtime)) out.push(result);
        }
      };
      loop(0);
      return out;
    };
  }
  const every = expr.every;
  return (focus, runtime) => {
    const search = (depth: number): boolean => {
      const { value, slot } = bindings[depth];
      for (const item of value(focus, runtime)) {
        runtime.locals[slot] = [item];
        const satisfied = depth + 1 < bindings.length ? search(depth + 1) : effectiveBoolean(body(focus, runtime));
        if (satisfied !== every) return satisfied;
      }
      return every;
    };
    return [search(0)];
  };
}

/** A predicate as a filter over a sequence in the order positions count in. */
type Filter = (items: Sequence, runtime: Runtime) => Sequence;

function compilePredicate(expr: Expr, scope: Scope): Filter {
  // A numeric literal predicate is a position: pick the item instead of evaluating per item.
  if (expr.kind === "literal" && typeof expr.value === "object" && "integer" in expr.value) {
    const index = Number(expr.value.integer) - 1;
    return (items) => (index >= 0 && index < items.length ? [items[index]] : EMPTY);
  }
  const predicate = compile(expr, scope);
  return (items, runtime) => {
    const out: Item[] = [];
    const size = items.length;
    for (let i = 0; i < size; i++) {
      const focus: Focus = { item: items[i], position: i + 1, size };
      const result = predicate(focus, runtime);
      if (result.length === 1 && isNumeric(result[0] as never)) {
        const value = result[0] as number | Dec;
        if ((typeof value === "number" ? value : value.toNumber()) === i + 1) out.push(items[i]);
      } else if (effectiveBoolean(result)) out.push(items[i]);
    }
    return out;
  };
}

function compileStep(expr: Extract<Expr, { kind: "step" }>, scope: Scope): Evaluate {
  const test = compileTest(expr.test, expr.axis, scope);
  const predicates = expr.predicates.map((predicate) => compilePredicate(predicate, scope));
  const axis = expr.axis;
  const reverse = REVERSE_AXES.has(axis);
  return (focus, runtime) => {
    const node = focus.item;
    if (!(node instanceof XNode)) return fail("XPTY0020", `the context item of an axis step is not a node`);
    let nodes: Sequence = axisNodes(node, axis, test, runtime.document);
    for (const predicate of predicates) nodes = predicate(nodes, runtime);
    return reverse && nodes.length > 1 ? [...nodes].reverse() : nodes;
  };
}

/** True when a predicate can never be numeric, so `//x[p]` may be read as `descendant::x[p]`. */
export function isBooleanPredicate(expr: Expr): boolean {
  switch (expr.kind) {
    case "binary":
      return ["and", "or", "=", "!=", "<", "<=", ">", ">=", "eq", "ne", "lt", "le", "gt", "ge", "|"].includes(expr.op);
    case "call":
      return ["not", "exists", "empty", "boolean", "contains", "starts-with", "ends-with", "matches", "true", "false"].includes(expr.name);
    case "step":
      return true;
    case "path":
      return expr.steps.at(-1)!.kind === "step";
    default:
      return false;
  }
}

/**
 * `//@name[p]`: every attribute so named in the subtree, read from the attribute index instead of
 * visiting every node (the CEN rules test some thirty `not(//@x)` per document).
 */
function compileDescendantAttributes(step: Extract<Expr, { kind: "step" }>, scope: Scope): Evaluate {
  const test = compileTest(step.test, "attribute", scope);
  const predicates = step.predicates.map((predicate) => compilePredicate(predicate, scope));
  return (focus, runtime) => {
    const node = focus.item;
    if (!(node instanceof XNode)) return fail("XPTY0020", `the context item of an axis step is not a node`);
    let nodes: Sequence = descendantAttributes(node, test, runtime.document);
    for (const predicate of predicates) nodes = predicate(nodes, runtime);
    return nodes;
  };
}

function isAnyNodeStep(step: Expr): boolean {
  return step.kind === "step" && step.axis === "descendant-or-self" && step.test.kind === "type" && step.test.type === "node" && !step.predicates.length;
}

function compilePath(steps: Expr[], scope: Scope): Evaluate {
  const compiled: Evaluate[] = [];
  // The hot case, a plain child step (`a/b/c`), runs as one loop over the nodes, without a focus per node.
  const children: (CompiledTest | null)[] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    const next = steps[i + 1];
    // With predicates that cannot be positional, `//name[p]` (descendant-or-self::node()/child::name[p])
    // is descendant::name[p], and `//@name[p]` is every such attribute in the subtree.
    if (isAnyNodeStep(step) && next?.kind === "step" && next.predicates.every(isBooleanPredicate)) {
      if (next.axis === "child") {
        compiled.push(compile({ ...next, axis: "descendant" }, scope));
        children.push(null);
        i++;
        continue;
      }
      if (next.axis === "attribute") {
        compiled.push(compileDescendantAttributes(next, scope));
        children.push(null);
        i++;
        continue;
      }
    }
    compiled.push(compile(step, scope));
    children.push(step.kind === "step" && step.axis === "child" && !step.predicates.length ? compileTest(step.test, "child", scope) : null);
  }
  const [first, ...rest] = compiled;
  return (focus, runtime) => {
    let current = first(focus, runtime);
    for (let s = 0; s < rest.length; s++) {
      if (current.length === 0) return current;
      const childTest = children[s + 1];
      if (childTest) {
        current = childrenOf(current, childTest);
        continue;
      }
      const step = rest[s];
      if (current.length === 1) {
        const item = current[0];
        if (!(item instanceof XNode)) fail("XPTY0019", "a path step's context is not a node");
        current = step({ item, position: 1, size: 1 }, runtime);
        continue;
      }
      const out: Item[] = [];
      const size = current.length;
      for (let i = 0; i < size; i++) {
        const item = current[i];
        if (!(item instanceof XNode)) fail("XPTY0019", "a path step's context is not a node");
        for (const result of step({ item, position: i + 1, size }, runtime)) out.push(result);
      }
      current = orderPathResult(out);
    }
    return current;
  };
}

function childrenOf(items: Sequence, test: CompiledTest): Sequence {
  const out: XNode[] = [];
  for (const item of items) {
    if (!(item instanceof XNode)) fail("XPTY0019", "a path step's context is not a node");
    for (const child of item.children) if (test.matches(child)) out.push(child);
  }
  return items.length > 1 ? documentOrder(out) : out;
}

/** Nodes from a step go into document order without duplicates; atomic results (a function step) stay as they are. */
function orderPathResult(items: Item[]): Item[] {
  if (items.length === 0) return items;
  const nodes = items[0] instanceof XNode;
  for (const item of items) if (item instanceof XNode !== nodes) fail("XPTY0018", "a path step returns both nodes and atomic values");
  return nodes ? documentOrder(items as XNode[]) : items;
}
