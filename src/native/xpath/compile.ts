/**
 * Compiles an XPath syntax tree into closures, resolving at compile time everything that does not
 * depend on the document: namespace prefixes, node tests, variable slots, function bindings and
 * literal values. Evaluation is then a tree of direct calls with no name lookups.
 */
import { Kind, treeOf, XNode, type XDocument } from "./document.ts";
import { functionName, subexpressions, type Expr } from "./ast.ts";
import { parseXPath } from "./parser.ts";
import { CAST_TARGETS, castAtomic, isNumeric, stringOf, typeName, Untyped } from "./atomic.ts";
import {
  axisNodes,
  childNodes,
  childrenOfAll,
  compileTest,
  descendantAttributes,
  documentOrder,
  hasChildNode,
  isAnyNodeStep,
  plainStep,
  REVERSE_AXES,
  someAlong,
  subtreeBounds,
  type CompiledTest,
  type PlainStep,
} from "./axes.ts";
import { functionKey, Lazy, readSlot, type Evaluate, type Focus, type Runtime, Scope } from "./context.ts";
import { liftCommonParts, liftInvariants } from "./invariants.ts";
import { compileLazyExists, compileWalk, countComparison, EXISTENCE_FUNCTIONS, walkedSteps } from "./lazy-exists.ts";
import { compileEarlierEquality } from "./earlier-equality.ts";
import { compileStreamedComparison } from "./streamed-comparison.ts";
import { compileCodeTableTest, isCodeLookup } from "./code-tables.ts";
import { compileScalarTest, compileStringScalar, stringArgument, STRING_TESTS, type ScalarCompilers } from "./scalars.ts";
import { compileKeyedFilter, type Filter } from "./keyed-filter.ts";
import { Dec } from "./decimal.ts";
import { fail, XPathError } from "./errors.ts";
import { dependence, Depends, hoist, hoistPerNode, perRangeItems, rangeVariables, rememberLastNode, worthHoisting } from "./hoist.ts";
import { BUILT_INS, documentNode, openDocument } from "./functions.ts";
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

const TRUE: Sequence = [true];
const FALSE: Sequence = [false];

export type Test = (focus: Focus, runtime: Runtime) => boolean;

/** Like {@link compileXPath}, for a test: the expression's effective boolean value. */
export function compileTestXPath(source: string, scope: Scope): Test {
  return compileBoolean(parseXPath(source), scope);
}

/**
 * An expression in a boolean context (a test, a predicate that is never a position, a condition):
 * its effective boolean value, with `and`, `or`, `not`, `exists`, `empty`, comparisons and plain
 * child or attribute steps answered without building the sequences they would return.
 */
export function compileBoolean(expr: Expr, scope: Scope): Test {
  switch (expr.kind) {
    case "sequence":
      if (expr.items.length === 1) return compileBoolean(expr.items[0], scope);
      break;
    case "binary": {
      const { op } = expr;
      const count = countComparison(expr);
      if (count) return compileCountComparison(count, scope);
      if (op === "and" || op === "or") {
        const left = compileBoolean(expr.left, scope);
        const right = compileBoolean(expr.right, scope);
        return op === "and" ? (focus, runtime) => left(focus, runtime) && right(focus, runtime) : (focus, runtime) => left(focus, runtime) || right(focus, runtime);
      }
      if (op === "=" || op === "!=" || op === "<" || op === "<=" || op === ">" || op === ">=") {
        const streamed = compileStreamedComparison(expr, scope, { compile, readsPosition, scalar: (last) => compileStringScalar(last, scope, SCALARS) });
        if (streamed) return streamed;
        const left = compile(expr.left, scope);
        const right = compile(expr.right, scope);
        const generic: Test = (focus, runtime) => generalComparison(left(focus, runtime), right(focus, runtime), op);
        const general = compileEarlierEquality(expr, scope, { left, right, generic }, compile) ?? generic;
        return compileScalarTest(expr, scope, SCALARS, general) ?? general;
      }
      // No result sequence, nor one for a right operand `.`: the Factur-X parent-line test asks
      // `not($other is .)` once per pair of lines.
      if (op === "is" || op === "<<" || op === ">>") {
        const left = compile(expr.left, scope);
        const right = expr.right.kind === "context" ? null : compile(expr.right, scope);
        return (focus, runtime) => {
          const a = nodesOf(left(focus, runtime), op);
          if (right) return compareNodes(a, nodesOf(right(focus, runtime), op), op) === true;
          const item = focus.item ?? fail("XPDY0002", "no context item");
          return compareNodes(a, item instanceof XNode ? item : fail("XPTY0004", `operand of ${op} is not a sequence of nodes`), op) === true;
        };
      }
      break;
    }
    case "call": {
      const name = functionName(expr.name);
      const [list, needle] = expr.args;
      if (name === "contains" && expr.args.length === 2 && list.kind === "literal" && typeof list.value === "string") {
        const tokens = codeList(list.value);
        if (tokens) return compileCodeListTest(list.value, tokens, needle, scope);
      }
      if (Object.hasOwn(STRING_TESTS, name)) {
        const evaluate = compile(expr, scope);
        const general: Test = (focus, runtime) => effectiveBoolean(evaluate(focus, runtime));
        return compileScalarTest(expr, scope, SCALARS, general) ?? general;
      }
      if (expr.args.length !== 1) break;
      if (name === "not") {
        const operand = compileBoolean(expr.args[0], scope);
        return (focus, runtime) => !operand(focus, runtime);
      }
      if (name === "boolean") return compileBoolean(expr.args[0], scope);
      if (name === "exists" || name === "empty") {
        const exists = pathExistence(expr.args[0], scope);
        if (exists) return name === "exists" ? exists : (focus, runtime) => !exists(focus, runtime);
        const operand = compile(expr.args[0], scope);
        return name === "exists" ? (focus, runtime) => operand(focus, runtime).length > 0 : (focus, runtime) => operand(focus, runtime).length === 0;
      }
      break;
    }
    case "path": {
      // A path's effective boolean value is whether it selects a node: answered as exists() is.
      const exists = pathExistence(expr, scope);
      if (exists) return exists;
      break;
    }
    case "step": {
      if (!expr.predicates.length && (expr.axis === "child" || expr.axis === "attribute")) {
        const test = compileTest(expr.test, expr.axis, scope);
        const attribute = expr.axis === "attribute";
        return (focus) => {
          const node = focus.item;
          if (!(node instanceof XNode)) return fail("XPTY0020", `the context item of an axis step is not a node`);
          if (attribute) {
            for (const candidate of node.attributes) if (test.matches(candidate)) return true;
            return false;
          }
          return hasChildNode(node, test);
        };
      }
      const walked = lazyExistence(expr, scope);
      if (walked) return walked;
      break;
    }
  }
  const evaluate = compile(expr, scope);
  return (focus, runtime) => effectiveBoolean(evaluate(focus, runtime));
}

/** A comparison of `count(E)` with a constant as Saxon-HE rewrites it (see {@link countComparison}). */
function compileCountComparison({ answer, counted }: NonNullable<ReturnType<typeof countComparison>>, scope: Scope): Test {
  if (answer === "true" || answer === "false") {
    const value = answer === "true";
    return () => value;
  }
  const selects = compileBoolean({ kind: "call", name: "exists", args: [counted] }, scope);
  return answer === "exists" ? selects : (focus, runtime) => !selects(focus, runtime);
}

/** Whether a path selects anything: the depth-first search of child steps, else {@link lazyExistence}. */
function pathExistence(expr: Expr, scope: Scope): Test | null {
  return compileChildPathExists(expr, scope) ?? lazyExistence(expr, scope);
}

/**
 * Whether a path that {@link existenceAnswer} answers selects anything, as an `exists()` call
 * compiled like any other (so hoisted or cached as calls are); null for any other expression.
 */
function lazyExistence(expr: Expr, scope: Scope): Test | null {
  if (!walkedSteps(expr, isBooleanPredicate) && !isCodeLookup(expr, scope, isBooleanPredicate)) return null;
  const exists = compile({ kind: "call", name: "exists", args: [expr] }, scope);
  return (focus, runtime) => exists(focus, runtime)[0] === true;
}

/**
 * Whether a path selects anything, answered without building its sequence: walked node by node
 * (lazy-exists.ts), or looked up in a code table (code-tables.ts); null for anything else.
 */
function existenceAnswer(expr: Expr, scope: Scope): Test | null {
  return compileLazyExists(expr, scope, { compileBoolean, isBooleanPredicate }) ?? compileCodeTableTest(expr, scope, { compile, compileBoolean, compileEach, isBooleanPredicate });
}

/**
 * Whether `a/b/c` (child steps without predicates, the last may be an attribute step, the first may
 * be a union `(a | b)`) selects anything from the context node, found depth first, stopping at the
 * first node found and building no sequence on the way. The CEN UBL rules ask it some 680 times
 * per invoice (`not(cac:Delivery/cac:DeliveryParty/cbc:MarkCareIndicator)`, BR-CR-*): most of the
 * time the first step is already empty. Null for any other expression.
 */
function compileChildPathExists(expr: Expr, scope: Scope): Test | null {
  if (expr.kind !== "path" || expr.steps.length < 2) return null;
  const [head, ...tail] = expr.steps;
  const firsts = (head.kind === "sequence" && head.items.length === 1 ? unionSteps(head.items[0]) : [head]).map((step) => plainStep(step, scope, false));
  const rest = tail.map((step, i) => plainStep(step, scope, i === tail.length - 1));
  if (firsts.some((step) => step === null) || rest.some((step) => step === null)) return null;
  const starts = (firsts as PlainStep[]).map((step) => step.test);
  const steps = rest as PlainStep[];
  const middle = steps.slice(0, -1).map((step) => step.test);
  const last = steps[steps.length - 1];
  const hasLast = last.attribute ? (node: XNode) => node.attributes.some(last.test.matches) : (node: XNode) => hasChildNode(node, last.test);
  const byName = starts.every((test) => test.name) && steps.every((step) => step.test.name);
  return (focus, runtime) => {
    const node = focus.item;
    if (!(node instanceof XNode)) return fail("XPTY0020", `the context item of an axis step is not a node`);
    const upward = byName ? existsUpward(node, runtime.document, starts, steps) : null;
    if (upward !== null) return upward;
    for (const test of starts) for (const child of childNodes(node, test)) if (someAlong(child, middle, hasLast, undefined)) return true;
    return false;
  };
}

/**
 * {@link compileChildPathExists}'s answer read upward from the per-name index: the nodes named like
 * the last step below `node`, each checked against the steps through its ancestors. Taken when there
 * are none or no more of them than the first step selects: the names the UBL-CR rules ask for are
 * mostly absent, where the walk down from an invoice's root visits every line for each of 130
 * rules; `Invoice[cac:InvoicePeriod/cbc:EndDate]` has a line period per line below the root and
 * one header period to walk down from. Null when the walk down is cheaper or the node is in no
 * indexed tree.
 */
function existsUpward(node: XNode, document: XDocument, starts: readonly CompiledTest[], steps: readonly PlainStep[]): boolean | null {
  const tree = treeOf(node, document);
  if (tree.nodes[node.order] !== node) return null;
  const last = steps.length - 1;
  const { ns, local } = steps[last].test.name!;
  const list = steps[last].attribute ? tree.attributesNamed(ns, local) : tree.named(ns, local);
  const [from, to] = subtreeBounds(list, node);
  if (to === from) return false;
  let firsts = 0;
  for (const test of starts) firsts += childNodes(node, test).length;
  if (to - from > firsts) return null;
  candidates: for (let i = from; i < to; i++) {
    let ancestor = list[i].parent;
    for (let at = last - 1; at >= 0; at--) {
      if (!ancestor || !steps[at].test.matches(ancestor)) continue candidates;
      ancestor = ancestor.parent;
    }
    if (ancestor && ancestor.parent === node) for (const test of starts) if (test.matches(ancestor)) return true;
  }
  return false;
}

/** The steps of a union of steps `a | b | ...`, or the expression itself when it is no union. */
function unionSteps(expr: Expr): Expr[] {
  return expr.kind === "binary" && expr.op === "|" ? [...unionSteps(expr.left), ...unionSteps(expr.right)] : [expr];
}

/** X in `concat(' ', X, ' ')`, else null. */
function paddedCode(expr: Expr): Expr | null {
  if (expr.kind !== "call" || functionName(expr.name) !== "concat" || expr.args.length !== 3) return null;
  const [before, code, after] = expr.args;
  const space = (arg: Expr) => arg.kind === "literal" && arg.value === " ";
  return space(before) && space(after) ? code : null;
}

/** The codes of a code list written as `' A B C '` (single spaces, one before and after), or null. */
function codeList(text: string): Set<string> | null {
  return /^ (?:[^ ]+ )+$/.test(text) ? new Set(text.slice(1, -1).split(" ")) : null;
}

/**
 * `contains(' A B C ', concat(' ', $code, ' '))`, the code-list test of the CEN rules, as a set
 * lookup: on a list of thousands of codes, searching for a needle that starts with a space stops
 * at every code. Any other needle is searched as before.
 */
function compileCodeListTest(list: string, codes: Set<string>, needleExpr: Expr, scope: Scope): Test {
  const code = paddedCode(needleExpr);
  if (code) {
    // `concat(' ', X, ' ')` itself: X's string looked up, no padded string built first.
    const value = compile(code, scope);
    const inList = (text: string) => (text.length > 0 && !text.includes(" ") ? codes.has(text) : list.includes(` ${text} `));
    const general: Test = (focus, runtime) => {
      const item = singleAtomic(value(focus, runtime), "the argument of ", "concat", "()");
      return inList(item === null ? "" : stringOf(item));
    };
    const text = stringArgument(code, scope, SCALARS);
    return (focus, runtime) => {
      const value = text(focus, runtime);
      return value === undefined ? general(focus, runtime) : inList(value);
    };
  }
  const needle = compile(needleExpr, scope);
  return (focus, runtime) => {
    const value = singleAtomic(needle(focus, runtime), "the argument of contains()");
    const text = value === null ? "" : stringOf(value);
    if (text.length > 2 && text.charCodeAt(0) === 32 && text.charCodeAt(text.length - 1) === 32 && text.indexOf(" ", 1) === text.length - 1) {
      return codes.has(text.slice(1, -1));
    }
    return list.includes(text);
  };
}

/** Parses and compiles one XPath expression; static errors (syntax, unknown function or prefix) throw here. */
export function compileXPath(source: string, scope: Scope): Evaluate {
  return compile(parseXPath(source), scope);
}

export function compile(expr: Expr, scope: Scope): Evaluate {
  const way = evaluationOf(expr, scope);
  switch (way.kind) {
    case "memo":
      return memoByItems(expr, scope, way.slots, way.rooted);
    case "remembered":
      return rememberLastNode(expr, scope, () => compileExpr(expr, scope));
    case "hoisted":
      return hoist(expr, scope, way.rooted, () => compileExpr(expr, scope));
    case "direct":
      return compileExpr(expr, scope);
  }
}

type Evaluation = { kind: "memo"; slots: number[]; rooted: boolean } | { kind: "remembered" } | { kind: "hoisted"; rooted: boolean } | { kind: "direct" };

/**
 * How {@link compile} evaluates `expr`: cached by the items of the range variables it reads, kept
 * for the last node in rule contexts, once per document when it reads no focus and no local, or
 * directly, each time it is asked.
 */
function evaluationOf(expr: Expr, scope: Scope): Evaluation {
  const depends = dependence(expr, scope);
  if ((depends & ~Depends.Root) === Depends.Local && !scope.inRangeCache && worthHoisting(expr)) {
    const slots = rangeVariables(expr, scope);
    if (slots) return { kind: "memo", slots, rooted: (depends & Depends.Root) !== 0 };
  }
  if (scope.matching && (depends & ~Depends.Root) === Depends.Focus && askedOfANode(expr)) return { kind: "remembered" };
  if (depends & (Depends.Focus | Depends.Local) || !worthHoisting(expr)) return { kind: "direct" };
  return { kind: "hoisted", rooted: (depends & Depends.Root) !== 0 };
}

/** How scalars.ts compiles what it cannot evaluate as a scalar, and which calls it may take. */
const SCALARS: ScalarCompilers = {
  compile,
  // Only an expression evaluated each time it is asked: one hoisted or remembered is cheaper as it is.
  evaluatedEachTime: (expr, scope) => evaluationOf(expr, scope).kind === "direct",
};

/**
 * A function call or cast of something read from the context node (`normalize-space(cbc:ID)`,
 * `xs:decimal(cbc:Percent)`), with no position, size or `current()` (the rule's node, not the
 * focus) in it: what {@link rememberLastNode} keeps.
 */
function askedOfANode(expr: Expr): boolean {
  const operands = expr.kind === "call" ? expr.args : expr.kind === "cast" ? [expr.operand] : null;
  return operands !== null && operands.some(worthHoisting) && !readsPosition(expr) && !callsCurrent(expr);
}

function callsCurrent(expr: Expr): boolean {
  return (expr.kind === "call" && functionName(expr.name) === "current") || subexpressions(expr).some(callsCurrent);
}

function memoByItems(expr: Expr, scope: Scope, slots: readonly number[], rooted: boolean): Evaluate {
  scope.inRangeCache = true;
  try {
    return perRangeItems(compileExpr(expr, scope), slots, rooted);
  } finally {
    scope.inRangeCache = false;
  }
}

function compileExpr(expr: Expr, scope: Scope): Evaluate {
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
    case "filter":
      return compileFilter(compile(expr.base, scope), expr.predicates, scope);
    case "call":
      return compileCall(expr.name, expr.args, scope);
    case "binary": {
      if (expr.op === "and" || expr.op === "or" || countComparison(expr)) {
        const test = compileBoolean(expr, scope);
        return (focus, runtime) => (test(focus, runtime) ? TRUE : FALSE);
      }
      return compileBinary(expr.op, compile(expr.left, scope), compile(expr.right, scope));
    }
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
      const condition = compileBoolean(expr.condition, scope);
      const then = compile(expr.then, scope);
      const otherwise = compile(expr.else, scope);
      return (focus, runtime) => (condition(focus, runtime) ? then : otherwise)(focus, runtime);
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
        const value = singleAtomic(items, "the operand of cast as ", type);
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
  const name = functionName(rawName);
  if (name === "document") {
    const [href] = args;
    if (args.length !== 1 || href.kind !== "literal" || typeof href.value !== "string") fail("XTSE0010", "document() other than with one string literal is not supported natively");
    const documents = scope.documents ?? fail("XTSE0010", `document('${href.value}') needs the documents the rules may open (CompileOptions.documents)`);
    const uri = href.value;
    // Held from its first opening: the plan's cache keeps a tree only while something holds it (engine.ts).
    let opened: Sequence | undefined;
    return () => (opened ??= openDocument(uri, documents));
  }
  const builtIn = BUILT_INS[name];
  if (!builtIn) return compileFunctionCall(rawName, args, scope);
  if (args.length < builtIn.min || args.length > builtIn.max) fail("XPST0017", `${rawName}() does not take ${args.length} arguments`);
  // A path of nodes: its effective boolean value (`boolean`, `not`) is whether it selects one.
  if (EXISTENCE_FUNCTIONS.has(name)) {
    const selects = existenceAnswer(args[0], scope);
    const yes = name === "exists" || name === "boolean";
    if (selects) return (focus, runtime) => (selects(focus, runtime) === yes ? TRUE : FALSE);
  }
  const compiled = args.map((arg) => compile(arg, scope));
  const session = scope.session;
  switch (compiled.length) {
    case 0:
      return (focus) => builtIn.call(EMPTY_ARGS, focus, session);
    case 1: {
      const [a] = compiled;
      return (focus, runtime) => builtIn.call([a(focus, runtime)], focus, session);
    }
    default:
      return (focus, runtime) => builtIn.call(argumentsOf(compiled, focus, runtime), focus, session);
  }
}
const EMPTY_ARGS: Sequence[] = [];

/** The arguments' values, by a loop: a call's `map` allocated a closure on every evaluation. */
function argumentsOf(compiled: Evaluate[], focus: Focus, runtime: Runtime): Sequence[] {
  const values: Sequence[] = new Array(compiled.length);
  for (let i = 0; i < compiled.length; i++) values[i] = compiled[i](focus, runtime);
  return values;
}

/** A call of a stylesheet function (`prefix:local(...)`), bound at compile time by expanded name and arity. */
function compileFunctionCall(rawName: string, args: Expr[], scope: Scope): Evaluate {
  const colon = rawName.indexOf(":");
  if (colon < 0) fail("XPST0017", `function ${rawName}() is not supported`);
  const uri = scope.namespace(rawName.slice(0, colon));
  const target = scope.functions.get(functionKey(uri, rawName.slice(colon + 1), args.length));
  if (!target) fail("XPST0017", `function ${rawName}#${args.length}() is not declared or not supported`);
  const compiled = args.map((arg) => compile(arg, scope));
  return (focus, runtime) => target.call(argumentsOf(compiled, focus, runtime), runtime);
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
        const a = singleAtomic(left(focus, runtime), "an operand of ", op);
        if (a === null) return EMPTY;
        const b = singleAtomic(right(focus, runtime), "an operand of ", op);
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
        const a = singleAtomic(left(focus, runtime), "an operand of ", op);
        if (a === null) return EMPTY;
        const b = singleAtomic(right(focus, runtime), "an operand of ", op);
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
        const result = compareNodes(a, nodesOf(right(focus, runtime), op), op);
        return result === null ? EMPTY : [result];
      };
  }
  return fail("XPST0003", `operator ${op} is not supported`);
}

function integerOperand(value: ReturnType<typeof atomize>): bigint {
  const number = value instanceof Untyped ? castAtomic(value, "xs:integer") : value;
  if (number instanceof Dec && number.integer) return number.unscaled;
  return fail("XPTY0004", `range operand ${typeName(number)} is not an xs:integer`);
}

/** `a is b`, `a << b` or `a >> b` of operands already checked to be nodes (`b` may be one node); null where one is empty. */
function compareNodes(a: readonly XNode[], b: readonly XNode[] | XNode, op: "is" | "<<" | ">>"): boolean | null {
  const bs = b instanceof XNode ? null : b;
  if (!a.length || bs?.length === 0) return null;
  if (a.length > 1 || (bs && bs.length > 1)) fail("XPTY0004", `more than one node as an operand of ${op}`);
  const x = a[0];
  const y = bs ? bs[0] : (b as XNode);
  return op === "is" ? x === y : op === "<<" ? x.order < y.order : x.order > y.order;
}

function nodesOf(items: Sequence, op: string): XNode[] {
  for (const item of items) if (!(item instanceof XNode)) fail("XPTY0004", `operand of ${op} is not a sequence of nodes`);
  return items as XNode[];
}

/** General comparison: true when some pair of atomized items compares true; stops at the first. */
function generalComparison(left: Sequence, right: Sequence, op: ComparisonOp): boolean {
  if (left.length === 0 || right.length === 0) return false;
  // The rules' commonest test, nodes `=` a string literal: an untyped node compares as its string value.
  if ((op === "=" || op === "!=") && right.length === 1 && typeof right[0] === "string") {
    const text = right[0];
    const equal = op === "=";
    for (const item of left) {
      if (item instanceof XNode ? (item.stringValue() === text) === equal : generalCompare(atomize(item), text, op)) return true;
    }
    return false;
  }
  const b = right.length === 1 ? [atomize(right[0])] : right.map(atomize);
  for (const item of left) {
    const a = atomize(item);
    for (const value of b) if (generalCompare(a, value, op)) return true;
  }
  return false;
}

function compileIteration(expr: Extract<Expr, { kind: "for" | "quantified" }>, scope: Scope): Evaluate {
  // A `for` evaluates its binding sequences whole; `some` and `every` go through them lazily (see compileEach).
  const bindings = expr.bindings.map((binding) => {
    const each = expr.kind === "quantified" ? compileEach(binding.value, scope) : null;
    const value = each ? null : compile(binding.value, scope);
    return { value, each, slot: scope.declare(binding.name, true) };
  });
  const names = expr.bindings.map((binding) => binding.name);
  const lifted = liftInvariants(expr.body, names, scope);
  const invariants = lifted.parts.map((part) => ({ value: compile(part.expr, scope), slot: scope.declare(part.name) }));
  const common = liftCommonParts(lifted.body, names, scope);
  const commons = common.parts.map((part) => ({ value: compile(part.expr, scope), slot: scope.declare(part.name) }));
  // Compiled while the range variables are in scope: the return expression, or the test of some/every.
  const body = expr.kind === "for" ? compile(common.body, scope) : null;
  const satisfies = expr.kind === "quantified" ? compileBoolean(common.body, scope) : null;
  scope.release(bindings.length + invariants.length + commons.length);
  const bindLazily = (parts: typeof invariants, focus: Focus, runtime: Runtime) => {
    for (const { value, slot } of parts) runtime.locals[slot] = new Lazy(value, focus, runtime);
  };
  if (body) {
    return (focus, runtime) => {
      bindLazily(invariants, focus, runtime);
      const out: Item[] = [];
      const loop = (depth: number) => {
        const { value, slot } = bindings[depth];
        for (const item of value!(focus, runtime)) {
          runtime.locals[slot] = [item];
          if (depth + 1 < bindings.length) loop(depth + 1);
          else {
            bindLazily(commons, focus, runtime);
            for (const result of body(focus, runtime)) out.push(result);
          }
        }
      };
      loop(0);
      return out;
    };
  }
  const every = (expr as Extract<Expr, { kind: "quantified" }>).every;
  return (focus, runtime) => {
    bindLazily(invariants, focus, runtime);
    const search = (depth: number): boolean => {
      const { each, slot } = bindings[depth];
      // Stops at the first item that decides: one that satisfies `some`, or fails `every`.
      const decided = each!(focus, runtime, (item) => {
        runtime.locals[slot] = [item];
        if (depth + 1 === bindings.length) bindLazily(commons, focus, runtime);
        const satisfied = depth + 1 < bindings.length ? search(depth + 1) : satisfies!(focus, runtime);
        return satisfied !== every;
      });
      return decided ? !every : every;
    };
    return [search(0)];
  };
}

/**
 * Goes through the items of a quantified test's binding until `stop` answers true for one (then
 * true). A path {@link compileWalk} accepts is walked lazily, as Saxon-HE iterates it: `some $x in
 * //l[xs:decimal(p) = 25] satisfies ...` decided by the first line raises nothing for a later line
 * whose rate is no number. Anything else is evaluated whole first, as before.
 */
function compileEach(expr: Expr, scope: Scope): (focus: Focus, runtime: Runtime, stop: (item: Item) => boolean) => boolean {
  const walk = compileWalk(expr, scope, { compileBoolean, isBooleanPredicate });
  if (walk) return walk;
  const value = compile(expr, scope);
  return (focus, runtime, stop) => {
    for (const item of value(focus, runtime)) if (stop(item)) return true;
    return false;
  };
}


function compileFilter(base: Evaluate, predicates: Expr[], scope: Scope): Evaluate {
  const filters = predicates.map((predicate) => compilePredicate(predicate, scope));
  return (focus, runtime) => {
    let items = base(focus, runtime);
    for (const filter of filters) items = filter(items, runtime);
    return items;
  };
}

function compilePredicate(expr: Expr, scope: Scope): Filter {
  // A numeric literal predicate is a position: pick the item instead of evaluating per item.
  if (expr.kind === "literal" && typeof expr.value === "object" && "integer" in expr.value) {
    const index = Number(expr.value.integer) - 1;
    return (items) => (index >= 0 && index < items.length ? [items[index]] : EMPTY);
  }
  if (neverNumeric(expr)) {
    const test = compileBoolean(expr, scope);
    const scan: Filter = (items, runtime) => {
      const out: Item[] = [];
      const size = items.length;
      // One focus per filtering, moved from item to item: what an evaluation keeps of its focus (a
      // let or loop variable's Lazy) is read before it returns.
      const focus: Focus = { item: undefined, position: 0, size };
      for (let i = 0; i < size; i++) {
        focus.item = items[i];
        focus.position = i + 1;
        if (test(focus, runtime)) out.push(items[i]);
      }
      return out;
    };
    return (!readsPosition(expr) && compileKeyedFilter(expr, scope, scan, { compile, compileBoolean })) || scan;
  }
  const predicate = compile(expr, scope);
  return (items, runtime) => {
    const out: Item[] = [];
    const size = items.length;
    const focus: Focus = { item: undefined, position: 0, size };
    for (let i = 0; i < size; i++) {
      focus.item = items[i];
      focus.position = i + 1;
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

/**
 * True when a predicate can never be numeric and never reads position() or last(), so it selects
 * the same nodes whatever sequence positions count in: `//x[p]` may be read as `descendant::x[p]`.
 */
export function isBooleanPredicate(expr: Expr): boolean {
  return !readsPosition(expr) && neverNumeric(expr);
}

function neverNumeric(expr: Expr): boolean {
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

/** Whether `expr` calls position() or last() of its own focus (predicates and later path steps have their own). */
function readsPosition(expr: Expr): boolean {
  switch (expr.kind) {
    case "literal":
    case "var":
    case "context":
    case "root":
    case "step":
      return false;
    case "call": {
      const name = functionName(expr.name);
      return name === "position" || name === "last" || expr.args.some(readsPosition);
    }
    case "path":
      return readsPosition(expr.steps[0]);
    case "filter":
      return readsPosition(expr.base);
    case "sequence":
      return expr.items.some(readsPosition);
    case "binary":
      return readsPosition(expr.left) || readsPosition(expr.right);
    case "unary":
    case "cast":
    case "instance":
      return readsPosition(expr.operand);
    case "if":
      return readsPosition(expr.condition) || readsPosition(expr.then) || readsPosition(expr.else);
    case "for":
    case "quantified":
      return expr.bindings.some((binding) => readsPosition(binding.value)) || readsPosition(expr.body);
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


/** `(a | b ...)` of child steps with boolean predicates, as the union of the same steps on the descendant axis. */
function descendantUnion(expr: Expr): Expr | null {
  if (expr.kind === "sequence" && expr.items.length === 1) return descendantUnion(expr.items[0]);
  if (expr.kind === "step") return expr.axis === "child" && expr.predicates.every(isBooleanPredicate) ? { ...expr, axis: "descendant" } : null;
  if (expr.kind !== "binary" || expr.op !== "|") return null;
  const left = descendantUnion(expr.left);
  const right = left && descendantUnion(expr.right);
  return right && { ...expr, left: left!, right };
}

/**
 * `P/S[q1][q2]/R` where `P/S[q1]` reads neither the focus nor a local variable but `q2` does (the
 * VAT rules' `//cac:InvoiceLine[category = 'S'][rate = $rate]`) as `(P/S[q1])[q2]/R`, so that
 * `P/S[q1]` is hoisted (see hoist.ts) instead of being rebuilt for every `$rate`. Moving `q2` out of
 * the step changes what its positions count, so only boolean `q2`s are moved; with no independent
 * `q1`, `P` alone is hoisted, unless it ends in the `//` that `S` needs to read from the name index.
 */
function splitIndependentPrefix(steps: Expr[], scope: Scope): Split | null {
  const start = dependence(steps[0], scope);
  if (start & Depends.Local || readsPosition(steps[0])) return null;
  const at = steps.findIndex((step, i) => i > 0 && dependence(step, scope) & Depends.Local);
  if (at < 0) return null;
  const step = steps[at];
  const predicates = step.kind === "step" ? step.predicates : [];
  let kept = 0;
  while (kept < predicates.length && !(dependence(predicates[kept], scope) & Depends.Local)) kept++;
  if (kept > 0 && predicates.slice(kept).every(isBooleanPredicate)) {
    const prefix: Expr = { kind: "path", steps: [...steps.slice(0, at), { ...(step as Extract<Expr, { kind: "step" }>), predicates: predicates.slice(0, kept) }] };
    // Relative (BR-S-08's `../../../cac:InvoiceLine[category = 'S'][rate = $rate]`, six times in
    // one test): the prefix depends on the context node alone, so it is kept per node.
    if (start & Depends.Focus) return { perNode: prefix, predicates: predicates.slice(kept), rest: steps.slice(at + 1) };
    return { steps: [{ kind: "filter", base: prefix, predicates: predicates.slice(kept) }, ...steps.slice(at + 1)] };
  }
  if (start & Depends.Focus || at < 2 || isAnyNodeStep(steps[at - 1])) return null;
  return { steps: [{ kind: "path", steps: steps.slice(0, at) }, ...steps.slice(at)] };
}

/**
 * A path rewritten by {@link splitIndependentPrefix}: other steps to compile as a path, or a prefix
 * that depends on the context node but on no variable (see {@link hoistPerNode}), the predicates
 * that filter it and the steps after them.
 */
type Split = { steps: Expr[] } | { perNode: Expr; predicates: Expr[]; rest: Expr[] };

/**
 * An absolute path `/P/S[q]/R` as `(/P/S[q])/R`, so that the filtered prefix is hoisted on its own
 * and shared by every expression that writes it: the CEN rules filter all tax categories by
 * `[cac:TaxScheme/normalize-space(upper-case(cbc:ID))='VAT']` in some twenty tests, each with its
 * own rest. The prefix yields the same nodes the steps would, so `R` sees the same context nodes.
 */
function splitSharedPrefix(steps: Expr[], scope: Scope): Expr[] | null {
  if (steps[0].kind !== "root" || steps.length < 3) return null;
  let at = -1;
  for (let i = steps.length - 2; i > 0 && at < 0; i--) {
    const step = steps[i];
    if (step.kind === "step" && step.predicates.length) at = i;
  }
  if (at < 0 || dependence({ kind: "path", steps }, scope) & (Depends.Focus | Depends.Local)) return null;
  return [{ kind: "path", steps: steps.slice(0, at + 1) }, ...steps.slice(at + 1)];
}

/** A path step: an expression per context node, or a child step over all context nodes at once. */
type PathStep = { evaluate: Evaluate } | { child: CompiledTest; predicates: Filter[] };

function compilePath(steps: Expr[], scope: Scope): Evaluate {
  const split = splitIndependentPrefix(steps, scope);
  if (split && "perNode" in split) {
    const { perNode, predicates, rest } = split;
    return compileSteps(rest, scope, compileFilter(hoistPerNode(perNode, scope, () => compileExpr(perNode, scope)), predicates, scope));
  }
  const rewritten = split?.steps ?? splitSharedPrefix(steps, scope);
  return rewritten ? compilePath(rewritten, scope) : compileSteps(steps, scope);
}

/** The steps of a path after any rewriting, after `head` when the path's first step is already compiled. */
function compileSteps(steps: Expr[], scope: Scope, head?: Evaluate): Evaluate {
  const compiled: PathStep[] = head ? [{ evaluate: head }] : [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    const next = steps[i + 1];
    // With predicates that cannot be positional, `//name[p]` (descendant-or-self::node()/child::name[p])
    // is descendant::name[p], and `//@name[p]` is every such attribute in the subtree.
    // Likewise `//(a | b)` is `descendant::a | descendant::b` (BR-CO-10 sums `//(cac:InvoiceLine|cac:CreditNoteLine)/...`).
    const union = isAnyNodeStep(step) && next && next.kind !== "step" ? descendantUnion(next) : null;
    if (union) {
      compiled.push({ evaluate: compile(union, scope) });
      i++;
      continue;
    }
    if (isAnyNodeStep(step) && next?.kind === "step" && next.predicates.every(isBooleanPredicate)) {
      if (next.axis === "child") {
        compiled.push({ evaluate: compile({ ...next, axis: "descendant" }, scope) });
        i++;
        continue;
      }
      if (next.axis === "attribute") {
        compiled.push({ evaluate: compileDescendantAttributes(next, scope) });
        i++;
        continue;
      }
    }
    // The hot case, a child step (`a/b/c`), runs over all the context nodes at once, without a focus
    // per node; predicates that select by node alone then filter the merged children.
    if (compiled.length > 0 && step.kind === "step" && step.axis === "child" && step.predicates.every(isBooleanPredicate)) {
      compiled.push({ child: compileTest(step.test, "child", scope), predicates: step.predicates.map((predicate) => compilePredicate(predicate, scope)) });
      continue;
    }
    compiled.push({ evaluate: compile(step, scope) });
  }
  const first = (compiled[0] as { evaluate: Evaluate }).evaluate;
  const rest = compiled.slice(1);
  return (focus, runtime) => {
    let current = first(focus, runtime);
    for (const step of rest) {
      if (current.length === 0) return current;
      if ("child" in step) {
        current = childrenOf(current, step.child, runtime.document);
        for (const predicate of step.predicates) current = predicate(current, runtime);
        continue;
      }
      const evaluate = step.evaluate;
      if (current.length === 1) {
        const item = current[0];
        if (!(item instanceof XNode)) fail("XPTY0019", "a path step's context is not a node");
        current = evaluate({ item, position: 1, size: 1 }, runtime);
        continue;
      }
      const out: Item[] = [];
      const size = current.length;
      const focus: Focus = { item: undefined, position: 0, size };
      for (let i = 0; i < size; i++) {
        const item = current[i];
        if (!(item instanceof XNode)) fail("XPTY0019", "a path step's context is not a node");
        focus.item = item;
        focus.position = i + 1;
        for (const result of evaluate(focus, runtime)) out.push(result);
      }
      current = orderPathResult(out);
    }
    return current;
  };
}


function childrenOf(items: Sequence, test: CompiledTest, document: XDocument): Sequence {
  for (const item of items) if (!(item instanceof XNode)) fail("XPTY0019", "a path step's context is not a node");
  const parents = items as XNode[];
  if (parents.length === 1) return childNodes(parents[0], test) as XNode[];
  const indexed = parents.length >= MANY_PARENTS ? childrenOfAll(parents, test, document) : null;
  if (indexed) return indexed;
  const out: XNode[] = [];
  for (const parent of parents) for (const child of childNodes(parent, test)) out.push(child);
  return documentOrder(out);
}
/** Below this many context nodes, scanning their children beats filtering a per-name list. */
const MANY_PARENTS = 16;

/** Nodes from a step go into document order without duplicates; atomic results (a function step) stay as they are. */
function orderPathResult(items: Item[]): Item[] {
  if (items.length === 0) return items;
  const nodes = items[0] instanceof XNode;
  for (const item of items) if (item instanceof XNode !== nodes) fail("XPTY0018", "a path step returns both nodes and atomic values");
  return nodes ? documentOrder(items as XNode[]) : items;
}
