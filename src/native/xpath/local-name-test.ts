/**
 * `*[local-name() = 'X']` read as the name test `*:X`. The syntax bindings read a document's facts
 * (BT-115, BT-9, BT-20... for the BR-CO-25 advisory and the France CTC overlay's condition) by
 * local name in any namespace, `//*[local-name()='SpecifiedTradePaymentTerms']/*[...]`: evaluated
 * as written, the predicate runs on every element of the document, 8-14 ms on a 677-line CII
 * invoice. As a name test, a descendant step is a slice of the per-name index (axes.ts).
 *
 * Only a step's first predicate is folded: it filters the axis's nodes in axis order, as the test
 * does, and later predicates count positions among the nodes it kept either way. The comparison of
 * `local-name()` (an xs:string that never raises an error) with a string literal, by `=` or `eq`,
 * holds exactly when the node's local name is the literal, which is what `*:X` tests.
 */
import { functionName, subexpressions, withSubexpressions, type Expr } from "./ast.ts";

/** `expr` with every foldable step rewritten; the tree is copied only where something changes. */
export function foldLocalNameTests(expr: Expr): Expr {
  const parts = subexpressions(expr);
  const folded = parts.map(foldLocalNameTests);
  const rebuilt = folded.some((part, i) => part !== parts[i]) ? withSubexpressions(expr, folded) : expr;
  return rebuilt.kind === "step" ? foldStep(rebuilt) : rebuilt;
}

function foldStep(step: Extract<Expr, { kind: "step" }>): Expr {
  const [first, ...rest] = step.predicates;
  if (!first || step.test.kind !== "name" || step.test.prefix !== null || step.test.local !== null) return step;
  const local = localNameLiteral(first);
  return local === null ? step : { ...step, test: { kind: "name", prefix: null, local }, predicates: rest };
}

/** X of `local-name() = 'X'`, `'X' eq local-name(.)` and the like; null for anything else. */
function localNameLiteral(expr: Expr): string | null {
  if (expr.kind === "sequence" && expr.items.length === 1) return localNameLiteral(expr.items[0]);
  if (expr.kind !== "binary" || (expr.op !== "=" && expr.op !== "eq")) return null;
  const literal = (side: Expr) => (side.kind === "literal" && typeof side.value === "string" ? side.value : null);
  if (isLocalNameOfContext(expr.left)) return literal(expr.right);
  if (isLocalNameOfContext(expr.right)) return literal(expr.left);
  return null;
}

function isLocalNameOfContext(expr: Expr): boolean {
  return expr.kind === "call" && functionName(expr.name) === "local-name" && (expr.args.length === 0 || (expr.args.length === 1 && expr.args[0].kind === "context"));
}
