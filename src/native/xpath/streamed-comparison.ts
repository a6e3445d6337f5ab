/**
 * `a/b/c = 'S'` and `a/b/normalize-space(c) = 'S'` in a boolean context, the path walked depth
 * first and each value compared as it is reached, stopping at the first that compares true.
 *
 * This is how Saxon-HE evaluates a general comparison with a literal: lazily, from the left. A
 * value after the first match is never computed, so its error is never raised: with two `c` under
 * the second `b`, `a/b/normalize-space(c) = 'S'` is true on Saxon-HE when the first `b` gives 'S',
 * where building the whole left sequence first stops with XPTY0004. An error before the first match
 * is raised as before. The CEN rules ask such a comparison of every line several times
 * (`cac:Item/cac:ClassifiedTaxCategory/normalize-space(cbc:ID) = 'S'` in the VAT category sums),
 * and no sequence is built on the way.
 *
 * Taken for a path of child steps without predicates, from the context node, whose last step is a
 * child or attribute step or a built-in function with an atomic result (which reads no position),
 * compared with a literal. Null for anything else; a path that does not depend on the context node
 * is left to be evaluated once per document.
 */
import { XNode } from "./document.ts";
import { functionName, type Expr } from "./ast.ts";
import { childNodes, plainStep, someAlong, type PlainStep } from "./axes.ts";
import type { Evaluate, Focus, Runtime, Scope } from "./context.ts";
import { fail } from "./errors.ts";
import { dependence, Depends } from "./hoist.ts";
import { atomize, generalCompare, type ComparisonOp, type Item } from "./values.ts";
import type { Atomic } from "./atomic.ts";
import type { StringScalar } from "./scalars.ts";

type Test = (focus: Focus, runtime: Runtime) => boolean;

/** Built-ins whose result is atomic whatever their arguments, as a path's last step may call them. */
const ATOMIC_RESULTS = new Set([
  "normalize-space", "string", "upper-case", "lower-case", "substring", "substring-before", "substring-after", "string-length", "concat",
  "translate", "number", "xs:string", "xs:decimal", "xs:integer", "xs:double", "xs:date", "xs:boolean",
]);

interface Compilers {
  compile: (expr: Expr, scope: Scope) => Evaluate;
  readsPosition: (expr: Expr) => boolean;
  /** The last step as a string (scalars.ts), where it is a string function: no sequence per node. */
  scalar: (last: Expr) => StringScalar | null;
}

export function compileStreamedComparison(expr: Expr, scope: Scope, { compile, readsPosition, scalar }: Compilers): Test | null {
  if (expr.kind !== "binary" || expr.right.kind !== "literal" || expr.left.kind !== "path") return null;
  const op = expr.op as ComparisonOp;
  const steps = expr.left.steps;
  const walk = steps.slice(0, -1).map((step) => plainStep(step, scope, false));
  if (!walk.length || walk.some((step) => step === null) || !(dependence(expr.left, scope) & Depends.Focus)) return null;
  const tests = (walk as PlainStep[]).map((step) => step.test);
  const lastExpr = steps[steps.length - 1];
  const last = plainStep(lastExpr, scope, true);
  const lastValue = last || !atomicCall(lastExpr, readsPosition) ? null : compile(lastExpr, scope);
  if (!last && !lastValue) return null;
  const literal = compile(expr.right, scope);
  // The rules' commonest form, `= 'literal'` on nodes: an untyped node compares as its string value.
  const text = typeof expr.right.value === "string" && (op === "=" || op === "!=") ? expr.right.value : null;
  const equal = op === "=";
  // A string compares with the literal as the one item a string function returns would.
  const lastString = lastValue && text !== null ? scalar(lastExpr) : null;

  const compares = (item: Item, right: Atomic): boolean =>
    text !== null && item instanceof XNode ? (item.stringValue() === text) === equal : generalCompare(atomize(item), right, op);
  // The values of the last step of `parent` (a node the walk reached), compared as they come.
  const lastCompares = (parent: XNode, { runtime, right }: { runtime: Runtime; right: Atomic }): boolean => {
    if (last?.attribute) {
      for (const attribute of parent.attributes) if (last.test.matches(attribute) && compares(attribute, right)) return true;
      return false;
    }
    if (lastString) {
      const value = lastString({ item: parent, position: 1, size: 1 }, runtime);
      if (value !== undefined) return (value === text) === equal;
    }
    const items = last ? childNodes(parent, last.test) : lastValue!({ item: parent, position: 1, size: 1 }, runtime);
    for (let i = 0; i < items.length; i++) if (compares(items[i], right)) return true;
    return false;
  };

  return (focus, runtime) => {
    const node = focus.item;
    if (!(node instanceof XNode)) return fail("XPTY0020", "the context item of an axis step is not a node");
    return someAlong(node, tests, lastCompares, { runtime, right: text ?? atomize(literal(focus, runtime)[0]) });
  };
}

function atomicCall(expr: Expr, readsPosition: (expr: Expr) => boolean): boolean {
  if (expr.kind === "cast") return !readsPosition(expr);
  if (expr.kind !== "call") return false;
  const name = functionName(expr.name);
  return ATOMIC_RESULTS.has(name) && !readsPosition(expr);
}
