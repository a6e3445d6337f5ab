/**
 * Rule-context predicates that read nothing of the node but its name, answered once per name.
 * The CEN rules match every element of an invoice against `//*[ends-with(name(), 'BinaryObject')]`
 * and `//*[ends-with(name(), 'Amount') and not(ends-with(name(), 'PriceAmount')) and not(...)]`:
 * some sixteen thousand elements of a 900-line invoice, a few dozen names.
 *
 * A predicate is taken when it is built from literals, `name()` and `local-name()` of the context
 * node, and string and boolean functions of those; in an `and` chain, the conjuncts before the
 * first that reads anything else are cached and the rest evaluated after them, in their order, so
 * no error of a later conjunct comes earlier or goes. The answer is kept per lexical name (the
 * prefix is part of `name()`), up to {@link MAX_NAMES} names per predicate and worker: caller
 * documents choose their names.
 */
import { Kind, XNode } from "./xpath/document.ts";
import { functionName, type Expr } from "./xpath/ast.ts";
import type { Test } from "./xpath/compile.ts";
import type { Scope } from "./xpath/context.ts";

const MAX_NAMES = 2_000;

/** Functions whose result depends on their arguments alone (and cannot reach another node). */
const PURE_FUNCTIONS = new Set([
  "name", "local-name", "ends-with", "starts-with", "contains", "substring", "substring-before", "substring-after", "concat", "normalize-space",
  "string-length", "upper-case", "lower-case", "translate", "not", "boolean", "true", "false",
]);

/** A predicate compiled with the part that reads only the node's name answered per name. */
export interface NamePredicate {
  test: Test;
  /** The conjuncts that read only the name, alone: when false, so is the predicate. */
  byName: Test;
  /** Whether those conjuncts are the whole predicate. */
  whole: boolean;
}

/** `predicate` compiled by `compileBoolean`, with the part that reads only the node's name answered per name; null when no part does. */
export function compileNamePredicate(predicate: Expr, scope: Scope, compileBoolean: (expr: Expr, scope: Scope) => Test): NamePredicate | null {
  const conjuncts = andChain(predicate);
  const byName = conjuncts.findIndex((conjunct) => !readsOnlyName(conjunct));
  const cachedCount = byName < 0 ? conjuncts.length : byName;
  if (cachedCount === 0) return null;
  const cached = perName(compileBoolean(joinAnd(conjuncts.slice(0, cachedCount)), scope));
  if (cachedCount === conjuncts.length) return { test: cached, byName: cached, whole: true };
  const rest = compileBoolean(joinAnd(conjuncts.slice(cachedCount)), scope);
  return { test: (focus, runtime) => cached(focus, runtime) && rest(focus, runtime), byName: cached, whole: false };
}

function perName(test: Test): Test {
  const answers = new Map<string, boolean>();
  return (focus, runtime) => {
    const node = focus.item;
    if (!(node instanceof XNode) || (node.kind !== Kind.Element && node.kind !== Kind.Attribute)) return test(focus, runtime);
    const known = answers.get(node.qname);
    if (known !== undefined) return known;
    const answer = test(focus, runtime);
    if (answers.size < MAX_NAMES) answers.set(node.qname, answer);
    return answer;
  };
}

function andChain(expr: Expr): Expr[] {
  if (expr.kind === "sequence" && expr.items.length === 1) return andChain(expr.items[0]);
  return expr.kind === "binary" && expr.op === "and" ? [...andChain(expr.left), ...andChain(expr.right)] : [expr];
}

function joinAnd(conjuncts: Expr[]): Expr {
  return conjuncts.reduce((left, right) => ({ kind: "binary", op: "and", left, right }));
}

function readsOnlyName(expr: Expr): boolean {
  switch (expr.kind) {
    case "literal":
      return true;
    case "sequence":
      return expr.items.every(readsOnlyName);
    case "call": {
      const name = functionName(expr.name);
      if (!PURE_FUNCTIONS.has(name)) return false;
      // name() and local-name() of the context node; given an argument, they read another node.
      if (name === "name" || name === "local-name") return expr.args.length === 0;
      return expr.args.every(readsOnlyName);
    }
    case "binary":
      return ["and", "or", "=", "!=", "eq", "ne"].includes(expr.op) && readsOnlyName(expr.left) && readsOnlyName(expr.right);
    default:
      return false;
  }
}
