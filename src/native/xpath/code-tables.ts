/**
 * Code lists read through document(), as tables of codes. The Factur-X rule files test a code
 * against their code database some 700 times (`string-length($codeValue10)=0 or document(
 * 'Factur-X_EXTENDED_codedb.xml')/codedb/cl[@id=10]/enumeration[@value=$codeValue10]`): a tree of
 * about 25,000 nodes per file, 6 MiB for EXTENDED's and 11 MiB for the two a worker serving
 * Factur-X holds, for what is a set of strings per list.
 *
 * The path up to the last predicate depends on nothing a run holds: document() hands out one tree
 * per href, and predicates that read only their own node (`[@id=10]`) select the same nodes every
 * time. So where such a path's effective boolean value is asked with a last predicate `@a = P`, P
 * reading no focus (nor `/`, which there is the code list's root), the nodes are selected once,
 * when the test compiles, and only the values of their `@a` are kept; the tree is then held by
 * nothing (see `documents` in engine.ts). Shared by the plan's tests of the same list.
 *
 * At run time P is evaluated where the path would have evaluated it (when the list has a node) and
 * its values looked up: an untyped or string value equals an untyped attribute exactly when the
 * strings are equal, so the answer is the one the filter gives, and nothing could have raised an
 * error. A value of any other type (a number, which compares as a number and raises an error on a
 * code that is none) goes through the codes in order (see {@link orderedLookup}).
 */
import { Untyped, type Atomic } from "./atomic.ts";
import { functionName, type Expr } from "./ast.ts";
import { compileTest } from "./axes.ts";
import type { Evaluate, Focus, Runtime, Scope } from "./context.ts";
import type { XNode } from "./document.ts";
import { XPathError } from "./errors.ts";
import { dependence, Depends } from "./hoist.ts";
import { sharedEntry } from "./session.ts";
import { atomize, generalCompare, type Item } from "./values.ts";

type Test = (focus: Focus, runtime: Runtime) => boolean;

/** The values of the compared attribute on the nodes the constant part selects. */
export interface CodeTable {
  /** Whether the constant part selects any node: if not, P is never evaluated. */
  selects: boolean;
  codes: ReadonlySet<string>;
  /** The same in document order, one per node that has the attribute. */
  ordered: readonly string[];
  /**
   * The error a constant predicate raised on a node after those codes (`cl[@id=1]` on a list whose id
   * is no number): a code found before it is found, as Saxon-HE stops there; any other lookup raises it.
   */
  raises?: XPathError;
}

interface Compilers {
  compile(expr: Expr, scope: Scope): Evaluate;
  compileBoolean(expr: Expr, scope: Scope): Test;
  compileEach(expr: Expr, scope: Scope): (focus: Focus, runtime: Runtime, stop: (item: Item) => boolean) => boolean;
  isBooleanPredicate(expr: Expr): boolean;
}

/** Functions a constant predicate may call: their result depends on their arguments alone. */
const PURE_FUNCTIONS = new Set(["not", "boolean", "string", "number", "normalize-space", "string-length", "contains", "starts-with", "ends-with", "concat", "upper-case", "lower-case", "exists", "empty", "count"]);
const CONSTANT_OPERATORS = new Set(["=", "!=", "<", "<=", ">", ">=", "eq", "ne", "lt", "le", "gt", "ge", "and", "or"]);

/** The test of a code-list lookup as described above, or null for any other expression. */
export function compileCodeTableTest(expr: Expr, scope: Scope, compilers: Compilers): Test | null {
  const shape = codeLookup(expr, scope, compilers.isBooleanPredicate);
  if (!shape) return null;
  const table = tableOf(shape, scope, compilers);
  if (!table) return null;
  const probe = compilers.compile(shape.probe, scope);
  const { selects, codes, ordered, raises } = table;
  return (focus, runtime) => {
    if (!selects) {
      if (raises) throw raises;
      return false;
    }
    const values = probe(focus, runtime).map(atomize);
    if (values.every((value) => typeof value === "string" || value instanceof Untyped)) {
      for (const value of values) if (codes.has(typeof value === "string" ? value : (value as Untyped).value)) return true;
    } else if (orderedLookup(ordered, values)) return true;
    if (raises) throw raises;
    return false;
  };
}

/**
 * A probe with a value of another type, compared as the path compares it: code by code in document
 * order, each against every value, stopping at the first equal, as Saxon-HE stops at the first node
 * selected. A number against a code that is none raises FORG0001 where it is reached.
 */
function orderedLookup(ordered: readonly string[], values: Atomic[]): boolean {
  for (const code of ordered) {
    const typed = new Untyped(code);
    for (const value of values) if (generalCompare(typed, value, "=")) return true;
  }
  return false;
}

/** Whether `expr` is such a lookup, before any code list is read. */
export function isCodeLookup(expr: Expr, scope: Scope, isBooleanPredicate: (expr: Expr) => boolean): boolean {
  return codeLookup(expr, scope, isBooleanPredicate) !== null;
}

interface CodeLookup {
  href: string;
  /** Child steps after document(), the last without its predicate. */
  steps: Extract<Expr, { kind: "step" }>[];
  attribute: Extract<Expr, { kind: "step" }>;
  probe: Expr;
}

/** `document('literal')/a[C]/b[C]/c[@x = P]`: child steps, constant predicates C, P reading neither focus nor `/`. */
function codeLookup(expr: Expr, scope: Scope, isBooleanPredicate: (expr: Expr) => boolean): CodeLookup | null {
  if (expr.kind !== "path" || expr.steps.length < 2) return null;
  const [head, ...rest] = expr.steps;
  if (head.kind !== "call" || functionName(head.name) !== "document" || head.args.length !== 1) return null;
  const href = head.args[0];
  if (href.kind !== "literal" || typeof href.value !== "string") return null;
  const steps: Extract<Expr, { kind: "step" }>[] = [];
  for (const step of rest) {
    if (step.kind !== "step" || step.axis !== "child" || step.test.kind !== "name") return null;
    steps.push(step);
  }
  const last = steps[steps.length - 1];
  const constantPredicate = (predicate: Expr) => isBooleanPredicate(predicate) && constant(predicate);
  if (!steps.slice(0, -1).every((step) => step.predicates.every(constantPredicate)) || last.predicates.length !== 1) return null;
  const predicate = last.predicates[0];
  if (predicate.kind !== "binary" || predicate.op !== "=") return null;
  const [attribute, probe] = isAttributeName(predicate.left) ? [predicate.left, predicate.right] : [predicate.right, predicate.left];
  // Not even `/`: inside the predicate it is the code list's root, not the run's document.
  if (!isAttributeName(attribute) || dependence(probe, scope) & (Depends.Focus | Depends.Root)) return null;
  return { href: href.value, steps: [...steps.slice(0, -1), { ...last, predicates: [] }], attribute, probe };
}

function isAttributeName(expr: Expr): expr is Extract<Expr, { kind: "step" }> {
  return expr.kind === "step" && expr.axis === "attribute" && expr.test.kind === "name" && expr.test.local !== null && !expr.predicates.length;
}

/** Whether a predicate reads only its node: no variable, no `/`, no position, nothing of the run. */
function constant(expr: Expr): boolean {
  switch (expr.kind) {
    case "literal":
    case "context":
      return true;
    case "step":
      return (expr.axis === "child" || expr.axis === "attribute" || expr.axis === "self") && expr.predicates.every(constant);
    case "path":
      return expr.steps.every(constant);
    case "sequence":
      return expr.items.length === 1 && constant(expr.items[0]);
    case "binary":
      return CONSTANT_OPERATORS.has(expr.op) && constant(expr.left) && constant(expr.right);
    case "call":
      return PURE_FUNCTIONS.has(functionName(expr.name)) && expr.args.length > 0 && expr.args.every(constant);
    default:
      return false;
  }
}

/** The table of a lookup, shared by the plan's lookups of the same list; null when the document cannot be opened. */
function tableOf(lookup: CodeLookup, scope: Scope, compilers: Compilers): CodeTable | null {
  const key = JSON.stringify([lookup.href, lookup.steps, lookup.attribute]);
  return sharedEntry(scope.session.codeTables, scope.namespaces, key, () => readTable(lookup, scope, compilers));
}

function readTable(lookup: CodeLookup, scope: Scope, compilers: Compilers): CodeTable | null {
  const document = scope.documents?.(lookup.href);
  // Not a document the rules may open: the path raises its error when evaluated.
  if (!document) return null;
  const attribute = compileTest(lookup.attribute.test, "attribute", scope);
  // Gone through as a lazy evaluation reaches the nodes (compileEach in compile.ts), so that a
  // predicate raising an error on some node leaves the codes before it answerable (see `raises`).
  const each = compilers.compileEach({ kind: "path", steps: lookup.steps }, scope);
  let selects = false;
  let raises: XPathError | undefined;
  const ordered: string[] = [];
  // Child steps from the document node: every item is an element.
  const take = (item: Item) => {
    selects = true;
    for (const candidate of (item as XNode).attributes) if (attribute.matches(candidate)) ordered.push(candidate.value);
    return false;
  };
  try {
    each({ item: document.node, position: 1, size: 1 }, { document, globals: [], locals: [] }, take);
  } catch (error) {
    if (!(error instanceof XPathError)) throw error;
    raises = error;
  }
  return { selects, codes: new Set(ordered), ordered, ...(raises && { raises }) };
}
