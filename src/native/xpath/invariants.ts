/**
 * Parts of a `for`, `some` or `every` body evaluated with the loop's own focus, made variables:
 * - Loop-invariant parts: a part that reads none of the range variables has one value for the whole
 *   loop. The Factur-X parent-line test compares `normalize-space(ram:.../ram:LineID)` of the
 *   current line with every other line; evaluated per iteration that is a path, a string and three
 *   arrays per pair of lines, hundreds of thousands on a 500-line invoice. Each such part becomes a
 *   variable bound lazily when the loop starts; identical parts share one.
 * - Common parts: a part that reads a range variable and is written more than once in the body has
 *   one value per iteration. The CEN VAT breakdown rules (BR-S-08 and its siblings) compare the
 *   taxable amount minus one, then plus one, with the same `sum(../../../cac:InvoiceLine[... =
 *   $rate]/...)` for each rate: on a 900-line invoice the second walk over the lines cost as much
 *   as the first. Each such part becomes a variable bound lazily at each iteration.
 * Either variable (see `Lazy`) is computed where the body first needs it, never if it is never
 * needed, with its error, if any, raised there and again at every later use, as evaluating the part
 * in place would.
 */
import { functionName, subexpressions, type Expr } from "./ast.ts";
import { countComparison, EXISTENCE_FUNCTIONS } from "./lazy-exists.ts";
import type { Scope } from "./context.ts";
import { dependence, Depends, worthHoisting } from "./hoist.ts";

interface Lifted {
  /** The body with each invariant part replaced by a reference to its variable. */
  body: Expr;
  /** The invariant parts, by the variable name that replaces them. */
  parts: { name: string; expr: Expr }[];
}

export function liftInvariants(body: Expr, rangeVariables: readonly string[], scope: Scope): Lifted {
  return liftParts(body, new Set(rangeVariables), scope, (expr, variant) => isInvariant(expr, variant, scope));
}

/**
 * The common parts of a loop body (see above): parts that read one of `rangeVariables` and none
 * bound by a loop inside the body, that navigate or call, written more than once; each replaced by
 * a variable, outermost parts first.
 */
export function liftCommonParts(body: Expr, rangeVariables: readonly string[], scope: Scope): Lifted {
  const own = new Set(rangeVariables);
  const candidate = (expr: Expr, variant: ReadonlySet<string>) =>
    worthHoisting(expr) && !hasLoop(expr) && reads(expr, own) && !reads(expr, new Set([...variant].filter((name) => !own.has(name))));
  const counts = new Map<string, number>();
  atLoopFocus(body, own, (expr, variant) => {
    if (candidate(expr, variant)) {
      const key = JSON.stringify(expr);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return null;
  });
  return liftParts(body, own, scope, (expr, variant) => candidate(expr, variant) && (counts.get(JSON.stringify(expr)) ?? 0) > 1);
}

/**
 * The parts `lifts` picks (at the loop's focus, outermost first) replaced by variables, one per
 * distinct part. Nothing of a path whose existence is asked somewhere in the body (see {@link
 * askedExistence}): neither the path, which a variable would hold whole where the existence test
 * stops at the first node, as Saxon-HE does, never meeting an error a later node would raise; nor
 * its first step (`..` in `../l[xs:decimal(p) = 25]`), after which it would no longer be walked.
 */
function liftParts(body: Expr, variant: ReadonlySet<string>, scope: Scope, lifts: (expr: Expr, variant: ReadonlySet<string>) => boolean): Lifted {
  const parts: Lifted["parts"] = [];
  const names = new Map<string, string>();
  const existence = askedExistence(body);
  const lifted = atLoopFocus(body, variant, (expr, inScope) => {
    if (!lifts(expr, inScope)) return null;
    const key = JSON.stringify(expr);
    // Kept whole: returned as it is, so that nothing inside it is lifted either.
    if (existence.has(key)) return expr;
    let name = names.get(key);
    if (name === undefined) {
      names.set(key, (name = scope.invariantName()));
      parts.push({ name, expr });
    }
    return { kind: "var", name };
  });
  return { body: lifted, parts };
}

/**
 * `expr` with the parts `replace` answers for replaced, visiting only the parts evaluated with the
 * loop's focus (not predicates, nor path steps after the first), outermost first; `variant` holds
 * the range variables in scope at each part, an inner loop's included.
 */
function atLoopFocus(expr: Expr, variant: ReadonlySet<string>, replace: (expr: Expr, variant: ReadonlySet<string>) => Expr | null): Expr {
  const replaced = replace(expr, variant);
  if (replaced) return replaced;
  const visit = (inner: Expr, names = variant) => atLoopFocus(inner, names, replace);
  switch (expr.kind) {
    case "binary":
      return { ...expr, left: visit(expr.left), right: visit(expr.right) };
    case "unary":
    case "cast":
    case "instance":
      return { ...expr, operand: visit(expr.operand) };
    case "call":
      return { ...expr, args: expr.args.map((arg) => visit(arg)) };
    case "if":
      return { ...expr, condition: visit(expr.condition), then: visit(expr.then), else: visit(expr.else) };
    case "sequence":
      return { ...expr, items: expr.items.map((item) => visit(item)) };
    case "path":
      return { ...expr, steps: [visit(expr.steps[0]), ...expr.steps.slice(1)] };
    case "filter":
      return { ...expr, base: visit(expr.base) };
    case "for":
    case "quantified": {
      // An inner loop's range variables vary too, within its bindings that follow and its body.
      const inner = new Set(variant);
      const bindings = expr.bindings.map((binding) => {
        const value = visit(binding.value, inner);
        inner.add(binding.name);
        return { ...binding, value };
      });
      return { ...expr, bindings, body: visit(expr.body, inner) };
    }
    default:
      return expr;
  }
}

/**
 * The paths in `body` (by their JSON) whose existence is asked, which compile.ts walks lazily
 * (lazy-exists.ts): the argument of `exists`, `empty`, `boolean` and `not`, of a `count` compared
 * with zero or one, a condition, an operand of `and` and `or`, a `some`/`every` test, parentheses
 * seen through. Other operands there (a comparison) are evaluated whole anyway.
 */
function askedExistence(body: Expr): Set<string> {
  const keys = new Set<string>();
  const asked = (expr: Expr): void => {
    if (expr.kind === "sequence" && expr.items.length === 1) return asked(expr.items[0]);
    if (expr.kind === "path" || expr.kind === "step") keys.add(JSON.stringify(expr));
  };
  const visit = (expr: Expr): void => {
    switch (expr.kind) {
      case "call": {
        const name = functionName(expr.name);
        if (expr.args.length === 1 && EXISTENCE_FUNCTIONS.has(name)) asked(expr.args[0]);
        break;
      }
      case "binary": {
        if (expr.op === "and" || expr.op === "or") {
          asked(expr.left);
          asked(expr.right);
        }
        const count = countComparison(expr);
        if (count) asked(count.counted);
        break;
      }
      case "if":
        asked(expr.condition);
        break;
      case "quantified":
        asked(expr.body);
        break;
    }
    for (const inner of subexpressions(expr)) visit(inner);
  };
  visit(body);
  return keys;
}

function hasLoop(expr: Expr): boolean {
  return expr.kind === "for" || expr.kind === "quantified" || subexpressions(expr).some(hasLoop);
}

/**
 * Worth a variable: it navigates or calls, reads no variable that varies, and depends on the focus
 * or an outer variable (an expression independent of both is already cached per run, see hoist.ts).
 */
function isInvariant(expr: Expr, variant: ReadonlySet<string>, scope: Scope): boolean {
  if (!worthHoisting(expr) || reads(expr, variant)) return false;
  return (dependence(expr, scope) & (Depends.Focus | Depends.Local)) !== 0;
}

/** Whether `expr` names any of `names` anywhere, predicates included (a shadowing rebinding counts too). */
function reads(expr: Expr, names: ReadonlySet<string>): boolean {
  switch (expr.kind) {
    case "var":
      return names.has(expr.name);
    case "literal":
    case "context":
    case "root":
      return false;
    case "sequence":
      return expr.items.some((item) => reads(item, names));
    case "path":
      return expr.steps.some((step) => reads(step, names));
    case "step":
      return expr.predicates.some((predicate) => reads(predicate, names));
    case "filter":
      return reads(expr.base, names) || expr.predicates.some((predicate) => reads(predicate, names));
    case "call":
      return expr.args.some((arg) => reads(arg, names));
    case "binary":
      return reads(expr.left, names) || reads(expr.right, names);
    case "unary":
    case "cast":
    case "instance":
      return reads(expr.operand, names);
    case "if":
      return reads(expr.condition, names) || reads(expr.then, names) || reads(expr.else, names);
    case "for":
    case "quantified":
      return expr.bindings.some((binding) => names.has(binding.name) || reads(binding.value, names)) || reads(expr.body, names);
  }
}
