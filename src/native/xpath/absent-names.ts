/**
 * What a rule's test answers on a document that carries no node of some name the test needs,
 * known before the document is read. A path selects nothing when one of its named steps names
 * nothing in the document, so `not(cac:Delivery/cac:DeliveryParty/cbc:MarkCareIndicator)` holds on
 * any invoice without a MarkCareIndicator: the CEN UBL rules ask some 680 such tests per invoice
 * (UBL-CR-*), nearly all about names the invoice lacks, and the engine answers them from the
 * document's name table instead of running each.
 *
 * Only answers that skip nothing observable are taken: steps without predicates raise no error
 * from a node, and a step's predicates run only on nodes its name selected, so the names counted
 * stop at the first step with predicates; `and` and `or` only through their left operand, which
 * the engine evaluates first and which decides alone.
 */
import { functionName, type Expr } from "./ast.ts";
import { compileTest } from "./axes.ts";
import type { Scope } from "./context.ts";
import { UNNUMBERED } from "./document.ts";

export interface AbsentAnswer {
  /** Name numbers (see `nameIdOf`): when the document carries none of one of them, the test is `value`. */
  ids: number[];
  value: boolean;
}

/** The answer of `expr`, evaluated as a boolean on a node of the document, or null when it depends on more than names. */
export function absentAnswer(expr: Expr, scope: Scope): AbsentAnswer | null {
  switch (expr.kind) {
    case "sequence":
      return expr.items.length === 1 ? absentAnswer(expr.items[0], scope) : null;
    case "binary": {
      if (expr.op !== "and" && expr.op !== "or") return null;
      const left = absentAnswer(expr.left, scope);
      // `false and X` is false, `true or X` is true; otherwise the right operand decides.
      return left && left.value === (expr.op === "or") ? left : null;
    }
    case "call": {
      if (expr.args.length !== 1) return null;
      const name = functionName(expr.name);
      if (name === "exists" || name === "boolean") return selection(expr.args[0], scope, false);
      if (name === "empty") return selection(expr.args[0], scope, true);
      if (name === "not") {
        const operand = absentAnswer(expr.args[0], scope);
        return operand && { ids: operand.ids, value: !operand.value };
      }
      return null;
    }
    case "path":
    case "step":
      return selection(expr, scope, false);
    default:
      return null;
  }
}

/** `value` when the path `expr` selects nothing for want of a name, as `exists`, `empty` and a boolean test read it. */
function selection(expr: Expr, scope: Scope, value: boolean): AbsentAnswer | null {
  if (expr.kind === "sequence" && expr.items.length === 1) return selection(expr.items[0], scope, value);
  const steps = expr.kind === "path" ? expr.steps : [expr];
  const ids: number[] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    // A leading `/` is the document node of the rule's own node.
    if (step.kind === "root" && i === 0) continue;
    if (step.kind !== "step") {
      if (i === 0 && isStepUnion(step)) continue;
      return null;
    }
    const id = step.test.kind === "name" ? compileTest(step.test, step.axis, scope).name?.id : undefined;
    if (id !== undefined && id !== UNNUMBERED) ids.push(id);
    // Later steps run on what this one's predicates kept, and the predicates themselves may raise.
    if (step.predicates.length) break;
  }
  return ids.length ? { ids, value } : null;
}

/** `(a | b)`: steps without predicates, which select from the context node and raise nothing. */
function isStepUnion(expr: Expr): boolean {
  if (expr.kind === "sequence") return expr.items.length === 1 && isStepUnion(expr.items[0]);
  if (expr.kind === "binary") return expr.op === "|" && isStepUnion(expr.left) && isStepUnion(expr.right);
  return expr.kind === "step" && expr.predicates.length === 0;
}
