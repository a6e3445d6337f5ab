/**
 * Axis navigation over the document model, with node tests resolved to a predicate once at compile
 * time. Forward axes yield document order, reverse axes (ancestor, preceding, ...) nearest first,
 * which is the order positional predicates count in.
 */
import { INDEXED_CHILDREN, Kind, nameIdOf, treeOf, UNNUMBERED, XNode, type XDocument } from "./document.ts";
import type { Axis, Expr, NodeTest } from "./ast.ts";
import type { Scope } from "./context.ts";

export interface CompiledTest {
  matches(node: XNode): boolean;
  /**
   * Set when the test names one element (or, on the attribute axis, attribute) name exactly, so the
   * per-name index can answer it; `id` is the name's number, {@link UNNUMBERED} when the table was full.
   */
  name?: { ns: string; local: string; id: number };
  /** Set for an element test of a local name in any namespace (`*:X`), so the per-local-name index can answer it. */
  anyNamespace?: string;
}

/**
 * The test of `test` on `axis`, one object per distinct test in a plan: a Factur-X rule file's
 * thousand long absolute contexts repeat the same few dozen names, and a closure per step was a
 * good part of what its plan holds.
 */
export function compileTest(test: NodeTest, axis: Axis, scope: Scope): CompiledTest {
  const key = test.kind === "type" ? test.type : `${axis === "attribute" ? "@" : ""}${test.prefix === null ? "*" : `{${scope.namespace(test.prefix)}}`}${test.local ?? "*"}`;
  const tests = scope.session.nodeTests;
  let compiled = tests.get(key);
  if (!compiled) tests.set(key, (compiled = testOf(test, axis, scope)));
  return compiled;
}

function testOf(test: NodeTest, axis: Axis, scope: Scope): CompiledTest {
  if (test.kind === "type") {
    const kind = {
      node: null,
      text: Kind.Text,
      comment: Kind.Comment,
      "processing-instruction": Kind.ProcessingInstruction,
      element: Kind.Element,
      attribute: Kind.Attribute,
      "document-node": Kind.Document,
    }[test.type];
    return { matches: kind === null || kind === undefined ? () => true : (node) => node.kind === kind };
  }
  const principal = axis === "attribute" ? Kind.Attribute : Kind.Element;
  const ns = test.prefix === null ? null : scope.namespace(test.prefix);
  const local = test.local;
  if (local === null || ns === null) {
    const matches = (node: XNode) => node.kind === principal && (local === null || node.local === local) && (ns === null || node.ns === ns);
    return local !== null && principal === Kind.Element ? { matches, anyNamespace: local } : { matches };
  }
  // The exact name, the usual case, is one integer test, unless the name table was full.
  const id = nameIdOf(ns, local);
  if (id === UNNUMBERED) return { matches: (node) => node.local === local && node.ns === ns && node.kind === principal, name: { ns, local, id } };
  return { matches: (node) => node.nameId === id && node.kind === principal, name: { ns, local, id } };
}

export const REVERSE_AXES = new Set<Axis>(["parent", "ancestor", "ancestor-or-self", "preceding", "preceding-sibling"]);

/** `descendant-or-self::node()` without predicates: the `//` of an abbreviated path. */
export function isAnyNodeStep(step: Expr): boolean {
  return step.kind === "step" && step.axis === "descendant-or-self" && step.test.kind === "type" && step.test.type === "node" && !step.predicates.length;
}

/** Nodes on `axis` from `node` that pass `test`, in axis order. */
export function axisNodes(node: XNode, axis: Axis, test: CompiledTest, document: XDocument): XNode[] {
  if (axis === "child") return childNodes(node, test) as XNode[];
  const out: XNode[] = [];
  switch (axis) {
    case "attribute":
      for (const attribute of node.attributes) if (test.matches(attribute)) out.push(attribute);
      return out;
    case "self":
      if (test.matches(node)) out.push(node);
      return out;
    case "parent":
      if (node.parent && test.matches(node.parent)) out.push(node.parent);
      return out;
    case "ancestor":
    case "ancestor-or-self":
      for (let at = axis === "ancestor" ? node.parent : node; at; at = at.parent) if (test.matches(at)) out.push(at);
      return out;
    case "descendant":
    case "descendant-or-self":
      if (axis === "descendant-or-self" && test.matches(node)) out.push(node);
      if (test.name) {
        // The index slice is shared, never mutated by callers: sequences are treated as immutable.
        const named = namedDescendants(node, test.name.ns, test.name.local, treeOf(node, document));
        return out.length ? out.concat(named) : (named as XNode[]);
      }
      if (test.anyNamespace !== undefined) {
        const named = inSubtree(treeOf(node, document).namedInAnyNamespace(test.anyNamespace), node);
        return out.length ? out.concat(named) : (named as XNode[]);
      }
      walkDescendants(node, test, out);
      return out;
    case "following-sibling":
    case "preceding-sibling": {
      if (!node.parent || node.kind === Kind.Attribute) return out;
      const siblings = node.parent.children;
      const index = siblings.indexOf(node);
      if (axis === "following-sibling") {
        for (let i = index + 1; i < siblings.length; i++) if (test.matches(siblings[i])) out.push(siblings[i]);
      } else for (let i = index - 1; i >= 0; i--) if (test.matches(siblings[i])) out.push(siblings[i]);
      return out;
    }
    case "following": {
      // Everything after this node's subtree, attributes excluded.
      document = treeOf(node, document);
      const start = (node.kind === Kind.Attribute ? node.parent! : node).end + 1;
      if (test.name) {
        const named = document.named(test.name.ns, test.name.local);
        return named.slice(lowerBound(named, start)) as XNode[];
      }
      for (let i = start; i < document.nodes.length; i++) {
        const candidate = document.nodes[i];
        if (candidate.kind !== Kind.Attribute && test.matches(candidate)) out.push(candidate);
      }
      return out;
    }
    case "preceding": {
      // Everything before this node that is not an ancestor, attributes excluded; nearest first.
      document = treeOf(node, document);
      const self = node.kind === Kind.Attribute ? node.parent! : node;
      // Duplicate checks (`preceding::cbc:PaymentID`) read the per-name list, not every node before.
      if (test.name) {
        const named = document.named(test.name.ns, test.name.local);
        for (let i = lowerBound(named, self.order) - 1; i >= 0; i--) if (named[i].end < self.order) out.push(named[i]);
        return out;
      }
      for (let i = self.order - 1; i >= 0; i--) {
        const candidate = document.nodes[i];
        if (candidate.kind === Kind.Attribute || candidate.end >= self.order) continue;
        if (test.matches(candidate)) out.push(candidate);
      }
      return out;
    }
  }
}

/** Children of `node` that pass a child-axis `test`; when read from the node's name index, shared: never mutate. */
export function childNodes(node: XNode, test: CompiledTest): readonly XNode[] {
  const children = node.children;
  const name = test.name;
  if (name === undefined) {
    const out: XNode[] = [];
    for (const child of children) if (test.matches(child)) out.push(child);
    return out;
  }
  const { ns, local, id } = name;
  if (children.length >= INDEXED_CHILDREN) return node.childrenWithName(id, ns, local);
  if (id === UNNUMBERED) return children.filter(test.matches);
  // The commonest step of all, compared inline: a call of `test.matches` here sees every kind of
  // test in the rules and cannot be inlined by the JIT. Attributes are never children, so the kind
  // is checked too.
  // One child so named is the common answer: its own shared sequence, no list built.
  let first: XNode | undefined;
  let out: XNode[] | undefined;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (child.nameId !== id || child.kind !== Kind.Element) continue;
    if (first === undefined) first = child;
    else (out ??= [first]).push(child);
  }
  return out ?? first?.asSequence() ?? NONE;
}

/** A child or attribute step without predicates, as the depth-first walks ({@link someAlong}) take them. */
export interface PlainStep {
  test: CompiledTest;
  attribute: boolean;
}

/** `expr` as a {@link PlainStep}; an attribute step only where `attributeAllowed`; null for anything else. */
export function plainStep(expr: Expr, scope: Scope, attributeAllowed: boolean): PlainStep | null {
  if (expr.kind !== "step" || expr.predicates.length) return null;
  if (expr.axis !== "child" && !(attributeAllowed && expr.axis === "attribute")) return null;
  return { test: compileTest(expr.test, expr.axis, scope), attribute: expr.axis === "attribute" };
}

/**
 * Whether `found` holds for some node the child steps `tests` reach from `node`: visited depth
 * first, so in document order, stopping at the first, and building no sequence on the way.
 * `found` gets `context` too, so that a caller needs no closure per walk.
 */
export function someAlong<C>(node: XNode, tests: readonly CompiledTest[], found: (node: XNode, context: C) => boolean, context: C, at = 0): boolean {
  if (at === tests.length) return found(node, context);
  const children = childNodes(node, tests[at]);
  for (let i = 0; i < children.length; i++) if (someAlong(children[i], tests, found, context, at + 1)) return true;
  return false;
}

/** The empty result of a step: shared, as sequences are never mutated. */
const NONE: readonly XNode[] = [];

/** Whether `node` has a child passing a child-axis `test` (`childNodes(...).length > 0` without the list). */
export function hasChildNode(node: XNode, test: CompiledTest): boolean {
  const children = node.children;
  const name = test.name;
  if (name === undefined) return children.some(test.matches);
  const { ns, local, id } = name;
  if (children.length >= INDEXED_CHILDREN) return node.childrenWithName(id, ns, local).length > 0;
  if (id === UNNUMBERED) return children.some(test.matches);
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (child.nameId === id && child.kind === Kind.Element) return true;
  }
  return false;
}

/**
 * The children passing a named `test` of many `parents` (a path's `lines/cac:Item`), in document
 * order, from the document's per-name list when that is shorter than all their children together
 * (the CEN rules walk every line's item dozens of times); null when scanning the children is
 * cheaper or the parents are not all in one indexed tree.
 */
export function childrenOfAll(parents: readonly XNode[], test: CompiledTest, document: XDocument): XNode[] | null {
  if (!test.name) return null;
  const tree = treeOf(parents[0], document);
  const token = tree.newMark();
  let children = 0;
  for (const parent of parents) {
    if (tree.nodes[parent.order] !== parent) return null;
    parent.mark = token;
    children += parent.children.length;
  }
  const named = tree.named(test.name.ns, test.name.local);
  if (named.length >= children) return null;
  const out: XNode[] = [];
  for (const node of named) if (node.parent!.mark === token) out.push(node);
  return out;
}

function walkDescendants(node: XNode, test: CompiledTest, out: XNode[]): void {
  for (const child of node.children) {
    if (test.matches(child)) out.push(child);
    if (child.children.length) walkDescendants(child, test, out);
  }
}

/** Attributes named by `test` on `node` and every element below it: `//@name`, from the per-name attribute index. */
export function descendantAttributes(node: XNode, test: CompiledTest, document: XDocument): XNode[] {
  document = treeOf(node, document);
  if (!test.name) {
    const out: XNode[] = [];
    for (let i = node.order; i <= node.end; i++) {
      const candidate = document.nodes[i];
      if (candidate.kind === Kind.Attribute && test.matches(candidate)) out.push(candidate);
    }
    return out;
  }
  return inSubtree(document.attributesNamed(test.name.ns, test.name.local), node) as XNode[];
}

/** The slice of the per-name element list inside `node`'s subtree. */
function namedDescendants(node: XNode, ns: string, local: string, document: XDocument): readonly XNode[] {
  return inSubtree(document.named(ns, local), node);
}

/** The part of a document-ordered list inside `node`'s subtree (itself excluded). */
function inSubtree(list: readonly XNode[], node: XNode): readonly XNode[] {
  if (list.length === 0) return list;
  const [from, to] = subtreeBounds(list, node);
  return from === 0 && to === list.length ? list : list.slice(from, to);
}

/** Where the nodes of a document-ordered list inside `node`'s subtree (itself excluded) are, `[from, to)`, by binary search on order numbers. */
export function subtreeBounds(list: readonly XNode[], node: XNode): [number, number] {
  if (node.kind === Kind.Document) return [0, list.length];
  return [lowerBound(list, node.order + 1), lowerBound(list, node.end + 1)];
}

/** Where a node of `order` is, or would be, in `list` (nodes in document order): the first index not before it. */
export function lowerBound(list: readonly XNode[], order: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid].order < order) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Sorts nodes into document order and drops duplicates, skipping the work when already ordered. */
export function documentOrder(nodes: XNode[]): XNode[] {
  let ordered = true;
  for (let i = 1; i < nodes.length; i++) {
    if (nodes[i - 1].order >= nodes[i].order) {
      ordered = false;
      break;
    }
  }
  if (ordered) return nodes;
  nodes.sort((a, b) => a.order - b.order);
  return nodes.filter((node, i) => i === 0 || nodes[i - 1] !== node);
}
