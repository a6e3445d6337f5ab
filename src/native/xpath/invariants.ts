/**
 * Loop-invariant sub-expressions of a `for`, `some` or `every` body: a part that reads none of the
 * range variables, evaluated with the loop's own focus, has one value for the whole loop. The
 * Factur-X parent-line test compares `normalize-space(ram:.../ram:LineID)` of the current line with
 * every other line; evaluated per iteration that is a path, a string and three arrays per pair of
 * lines, hundreds of thousands on a 500-line invoice. Each such part becomes a variable bound
 * lazily when the loop starts (see `Lazy`): computed where the body first needs it, never if it is
 * never needed, with its error, if any, raised there and again at every later use, as the
 * per-iteration evaluation would.
 */
import type { Expr } from "./ast.ts";
import type { Scope } from "./context.ts";
import { dependence, Depends, worthHoisting } from "./hoist.ts";

interface Lifted {
  /** The body with each invariant part replaced by a reference to its variable. */
  body: Expr;
  /** The invariant parts, by the variable name that replaces them. */
  parts: { name: string; expr: Expr }[];
}

export function liftInvariants(body: Expr, rangeVariables: readonly string[], scope: Scope): Lifted {
  const parts: Lifted["parts"] = [];
  const lift = (expr: Expr, variant: ReadonlySet<string>): Expr => {
    if (isInvariant(expr, variant, scope)) {
      const name = scope.invariantName();
      parts.push({ name, expr });
      return { kind: "var", name };
    }
    // Only parts evaluated with the loop's focus: not predicates, nor path steps after the first.
    switch (expr.kind) {
      case "binary":
        return { ...expr, left: lift(expr.left, variant), right: lift(expr.right, variant) };
      case "unary":
      case "cast":
      case "instance":
        return { ...expr, operand: lift(expr.operand, variant) };
      case "call":
        return { ...expr, args: expr.args.map((arg) => lift(arg, variant)) };
      case "if":
        return { ...expr, condition: lift(expr.condition, variant), then: lift(expr.then, variant), else: lift(expr.else, variant) };
      case "sequence":
        return { ...expr, items: expr.items.map((item) => lift(item, variant)) };
      case "path":
        return { ...expr, steps: [lift(expr.steps[0], variant), ...expr.steps.slice(1)] };
      case "filter":
        return { ...expr, base: lift(expr.base, variant) };
      case "for":
      case "quantified": {
        // An inner loop's range variables vary too, within its bindings that follow and its body.
        const inner = new Set(variant);
        const bindings = expr.bindings.map((binding) => {
          const value = lift(binding.value, inner);
          inner.add(binding.name);
          return { ...binding, value };
        });
        return { ...expr, bindings, body: lift(expr.body, inner) };
      }
      default:
        return expr;
    }
  };
  const lifted = lift(body, new Set(rangeVariables));
  return { body: lifted, parts };
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
