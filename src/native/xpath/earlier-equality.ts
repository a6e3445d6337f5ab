/**
 * The rules' "no earlier duplicate" tests as lookups: `X = preceding::T/PATH` and
 * `X = preceding-sibling::T/PATH`, either way round, where PATH is plain child, attribute or `.`
 * steps. CEN's UBL-SR-44 (`//cbc:PaymentID[not(preceding::cbc:PaymentID/. = .)]`) and UBL-SR-47
 * and XRechnung's attachment file names (BR-DE-22, `preceding-sibling::`) ask it of every T, each
 * time comparing with every T before it: quadratic in the number of T. Here the T's values are indexed once, by string, with
 * their nodes in document order (per document for `preceding`, per parent for `preceding-sibling`),
 * and the test is whether one of X's values has a node before the context node.
 *
 * Exact where it answers: the earlier side's items are nodes of an untyped document, and a node
 * compared with a node or a string compares as a string. A probe holding anything else (a number,
 * a date) and a context item that is not a node fall back to the general comparison.
 */
import { Kind, treeOf, XNode, type XDocument } from "./document.ts";
import type { Expr } from "./ast.ts";
import { compileTest, type CompiledTest } from "./axes.ts";
import type { Evaluate, Focus, Runtime, Scope } from "./context.ts";
import type { Sequence } from "./values.ts";

type Test = (focus: Focus, runtime: Runtime) => boolean;

interface Earlier {
  axis: "preceding" | "preceding-sibling";
  test: CompiledTest & { name: { ns: string; local: string } };
  /** The rest of the path, from each T to the nodes whose values count. */
  values: Evaluate;
}

/**
 * The lookup for `left = right` when one side is such an earlier path; null for any other
 * expression. `left` and `right` are the sides compiled, `generic` the general comparison to fall
 * back to.
 */
export function compileEarlierEquality(
  expr: Expr,
  scope: Scope,
  sides: { left: Evaluate; right: Evaluate; generic: Test },
  compile: (expr: Expr, scope: Scope) => Evaluate,
): Test | null {
  if (expr.kind !== "binary" || expr.op !== "=") return null;
  const fromLeft = earlierPath(expr.left, scope, compile);
  const earlier = fromLeft ?? earlierPath(expr.right, scope, compile);
  if (!earlier) return null;
  const probe = fromLeft ? sides.right : sides.left;
  const exists = earlier.axis === "preceding" ? precedingIndex(earlier) : precedingSiblingIndex(earlier);
  const { generic } = sides;
  return (focus, runtime) => {
    const node = focus.item;
    if (!(node instanceof XNode)) return generic(focus, runtime);
    const keys = stringKeys(probe(focus, runtime));
    if (!keys) return generic(focus, runtime);
    for (const key of keys) if (exists(key, node, runtime)) return true;
    return false;
  };
}

/** `preceding::T/...` or `preceding-sibling::T/...` with a name test and plain later steps. */
function earlierPath(expr: Expr, scope: Scope, compile: (expr: Expr, scope: Scope) => Evaluate): Earlier | null {
  const steps = expr.kind === "path" ? expr.steps : [expr];
  const [first, ...rest] = steps;
  if (first.kind !== "step" || (first.axis !== "preceding" && first.axis !== "preceding-sibling") || first.predicates.length) return null;
  const test = compileTest(first.test, first.axis, scope);
  if (!test.name) return null;
  const plain = (step: Expr) => step.kind === "context" || (step.kind === "step" && !step.predicates.length && (step.axis === "child" || step.axis === "attribute" || step.axis === "self"));
  if (!rest.every(plain)) return null;
  const values = compile(rest.length ? { kind: "path", steps: rest } : { kind: "context" }, scope);
  return { axis: first.axis, test: test as Earlier["test"], values };
}

/** The probe's values as strings, or null when one is not a node or a string. */
function stringKeys(items: Sequence): string[] | null {
  const keys: string[] = [];
  for (const item of items) {
    if (typeof item === "string") keys.push(item);
    else if (item instanceof XNode) keys.push(item.stringValue());
    else return null;
  }
  return keys;
}

/** Each T's nodes by the string value of what PATH reaches from it, in document order. */
function byValue(ts: readonly XNode[], earlier: Earlier, runtime: Runtime): Map<string, XNode[]> {
  const index = new Map<string, XNode[]>();
  for (const t of ts) {
    for (const reached of earlier.values({ item: t, position: 1, size: 1 }, runtime) as XNode[]) {
      const key = reached.stringValue();
      const list = index.get(key);
      if (!list) index.set(key, [t]);
      else if (list[list.length - 1] !== t) list.push(t);
    }
  }
  return index;
}

/** Whether a T before the node, not one of its ancestors (the preceding axis), has this value. */
function precedingIndex(earlier: Earlier): (key: string, node: XNode, runtime: Runtime) => boolean {
  const indexes = new WeakMap<XDocument, Map<string, XNode[]>>();
  return (key, node, runtime) => {
    // The preceding axis of an attribute is its element's.
    const self = node.kind === Kind.Attribute ? node.parent! : node;
    const tree = treeOf(self, runtime.document);
    let index = indexes.get(tree);
    if (!index) indexes.set(tree, (index = byValue(tree.named(earlier.test.name.ns, earlier.test.name.local), earlier, runtime)));
    for (const t of index.get(key) ?? NONE) {
      if (t.order >= self.order) return false;
      if (t.end < self.order) return true;
    }
    return false;
  };
}

/** Whether a T sibling before the node has this value. */
function precedingSiblingIndex(earlier: Earlier): (key: string, node: XNode, runtime: Runtime) => boolean {
  const indexes = new WeakMap<XNode, Map<string, XNode[]>>();
  return (key, node, runtime) => {
    const parent = node.parent;
    if (!parent || node.kind === Kind.Attribute) return false;
    let index = indexes.get(parent);
    if (!index) indexes.set(parent, (index = byValue(parent.children.filter(earlier.test.matches), earlier, runtime)));
    const first = index.get(key)?.[0];
    return first !== undefined && first.order < node.order;
  };
}

const NONE: readonly XNode[] = [];
