/**
 * Whether a path selects anything, walked node by node and stopped at the first node it selects, as
 * Saxon-HE evaluates `exists()`, `empty()` and a path's effective boolean value: lazily, each step's
 * nodes in axis order, each node's predicates in turn, and each node followed through the later
 * steps before the next one is tried. An error a predicate would raise on a node after that is
 * never raised: Saxon-HE answers `exists(//l[xs:decimal(p) = 25])` true where a later `l` has `p`
 * 'abc', for which the whole sequence raised FORG0001 (`test/native/lazy-exists.test.ts`), and a
 * rule file stopped where Saxon-HE's gave a verdict. Walked, the CEN VAT breakdown rules' `exists(//
 * cac:InvoiceLine[... = $rate])` also stops at the first line of the rate instead of filtering all.
 *
 * Only paths of axis steps whose predicates cannot be positional are walked so, and only with a
 * predicate somewhere (a path of names alone raises nothing, and has faster answers in compile.ts);
 * anything else is evaluated whole, as before.
 */
import { functionName, type Axis, type Expr } from "./ast.ts";
import { axisNodes, compileTest, isAnyNodeStep, type CompiledTest } from "./axes.ts";
import { XNode } from "./document.ts";
import { documentNode } from "./functions.ts";
import type { Focus, Runtime, Scope } from "./context.ts";
import { fail } from "./errors.ts";

type Test = (focus: Focus, runtime: Runtime) => boolean;

interface WalkedStep {
  axis: Axis;
  test: CompiledTest;
  predicates: Test[];
}

/** Axes whose nodes come in document order, one node at a time from their context node (parent: at most one). */
const WALKED_AXES = new Set<Axis>(["child", "attribute", "self", "parent", "descendant", "descendant-or-self", "following-sibling", "following"]);

export interface LazyExistsCompiler {
  compileBoolean(expr: Expr, scope: Scope): Test;
  isBooleanPredicate(expr: Expr): boolean;
}

/**
 * The steps of a path walked so (`//name[p]` read as descendant::name[p], as Saxon-HE rewrites it and
 * compile.ts does), or null for an expression evaluated whole.
 */
export function walkedSteps(expr: Expr, isBooleanPredicate: (expr: Expr) => boolean): { fromRoot: boolean; steps: Extract<Expr, { kind: "step" }>[] } | null {
  const raw = expr.kind === "path" ? expr.steps : expr.kind === "step" ? [expr] : null;
  if (!raw) return null;
  const fromRoot = raw[0].kind === "root";
  const steps: Extract<Expr, { kind: "step" }>[] = [];
  for (let at = fromRoot ? 1 : 0; at < raw.length; at++) {
    let step = raw[at];
    if (step.kind !== "step") return null;
    const next = raw[at + 1];
    if (isAnyNodeStep(step) && next?.kind === "step" && next.axis === "child" && next.predicates.every(isBooleanPredicate)) {
      step = { ...next, axis: "descendant" };
      at++;
    }
    if (!WALKED_AXES.has(step.axis) || !step.predicates.every(isBooleanPredicate)) return null;
    steps.push(step);
  }
  return steps.some((step) => step.predicates.length > 0) ? { fromRoot, steps } : null;
}

/** Calls whose answer on a path is whether it selects anything: what {@link compileLazyExists} answers. */
export const EXISTENCE_FUNCTIONS: ReadonlySet<string> = new Set(["exists", "empty", "boolean", "not"]);

/** The walk of a path {@link walkedSteps} accepts, or null for an expression evaluated whole. */
export function compileLazyExists(expr: Expr, scope: Scope, compiler: LazyExistsCompiler): Test | null {
  const walk = compileWalk(expr, scope, compiler);
  return walk && ((focus, runtime) => walk(focus, runtime, FOUND));
}

const FOUND = () => true;

/**
 * Visits the nodes a path selects, in the order Saxon-HE reaches them lazily, until `stop` answers
 * true for one (then true); false when none did. What a quantified test over the path iterates.
 */
export type Walk = (focus: Focus, runtime: Runtime, stop: (node: XNode) => boolean) => boolean;

/** The {@link Walk} of a path {@link walkedSteps} accepts, or null for an expression evaluated whole. */
export function compileWalk(expr: Expr, scope: Scope, compiler: LazyExistsCompiler): Walk | null {
  const walked = walkedSteps(expr, compiler.isBooleanPredicate);
  if (!walked) return null;
  const { fromRoot } = walked;
  const steps: WalkedStep[] = walked.steps.map((step) => ({
    axis: step.axis,
    test: compileTest(step.test, step.axis, scope),
    predicates: step.predicates.map((predicate) => compiler.compileBoolean(predicate, scope)),
  }));
  const visit = (node: XNode, at: number, runtime: Runtime, stop: (node: XNode) => boolean): boolean => {
    const step = steps[at];
    const last = at === steps.length - 1;
    // Position and size are never read: the predicates cannot be positional. One focus per visit,
    // moved from candidate to candidate (see compilePredicate in compile.ts).
    const focus: Focus = { item: undefined, position: 1, size: 1 };
    candidates: for (const candidate of axisNodes(node, step.axis, step.test, runtime.document)) {
      focus.item = candidate;
      for (const predicate of step.predicates) if (!predicate(focus, runtime)) continue candidates;
      if (last ? stop(candidate) : visit(candidate, at + 1, runtime, stop)) return true;
    }
    return false;
  };
  return (focus, runtime, stop) => {
    const item = focus.item;
    if (fromRoot) return visit(documentNode(item), 0, runtime, stop);
    if (!(item instanceof XNode)) return fail("XPTY0020", "the context item of an axis step is not a node");
    return visit(item, 0, runtime, stop);
  };
}

/**
 * What Saxon-HE makes of a comparison of `count(E)` with a constant, which it rewrites before
 * evaluating: with zero, `= 0` and `<= 0` are `empty(E)`, `!= 0` and `> 0` are `exists(E)`, `>= 0`
 * is true and `< 0` false without evaluating E; `>= 1` is `exists(E)`; likewise with the constant on
 * the left and with value comparisons (`eq`, `ne`, ...). So `count(//l[xs:decimal(p) = 25]) = 0` is
 * false on Saxon-HE where a later `p` is 'abc', and `count(...) >= 0` true even where the first is.
 * Other comparisons (`< 1`, `= 1`, `> 1`) count the whole sequence, on Saxon-HE too. Null for any
 * other expression.
 */
export function countComparison(expr: Expr): { answer: "exists" | "empty" | "true" | "false"; counted: Expr } | null {
  if (expr.kind !== "binary") return null;
  const op = COMPARISONS[expr.op];
  if (op === undefined) return null;
  const counted = countArgument(expr.left);
  const constant = counted ? numericLiteral(expr.right) : numericLiteral(expr.left);
  const argument = counted ?? countArgument(expr.right);
  if (!argument || constant === null) return null;
  // count(E) op N, with the constant moved to the right.
  const normalized = counted ? op : MIRRORED[op];
  const answer = constant === 0 ? WITH_ZERO[normalized] : constant === 1 && normalized === ">=" ? "exists" : undefined;
  return answer ? { answer, counted: argument } : null;
}

type Comparison = "=" | "!=" | "<" | "<=" | ">" | ">=";

/** General and value comparisons alike: on a count and a number both compare one number with another. */
const COMPARISONS: Record<string, Comparison | undefined> = { "=": "=", eq: "=", "!=": "!=", ne: "!=", "<": "<", lt: "<", "<=": "<=", le: "<=", ">": ">", gt: ">", ">=": ">=", ge: ">=" };
const MIRRORED: Record<Comparison, Comparison> = { "=": "=", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<=" };
const WITH_ZERO: Record<Comparison, "exists" | "empty" | "true" | "false"> = { "=": "empty", "<=": "empty", "!=": "exists", ">": "exists", ">=": "true", "<": "false" };

function countArgument(expr: Expr): Expr | null {
  return expr.kind === "call" && functionName(expr.name) === "count" && expr.args.length === 1 ? expr.args[0] : null;
}

/** The value of a numeric literal (parenthesized too), else null. */
function numericLiteral(expr: Expr): number | null {
  if (expr.kind === "sequence" && expr.items.length === 1) return numericLiteral(expr.items[0]);
  if (expr.kind !== "literal") return null;
  const { value } = expr;
  if (typeof value === "number") return value;
  if (typeof value === "object") return Number("decimal" in value ? value.decimal : value.integer);
  return null;
}
