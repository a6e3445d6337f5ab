/**
 * Hoisting of context-independent sub-expressions: an expression that reads neither the focus nor
 * a local variable (an absolute path, `//name`, `sum(//x)`, a `for` over them, a function of
 * globals) has one value per validation run (and, when it starts at `/`, per tree), so a rule that
 * fires on every invoice line evaluates it once per document instead of once per line. The value
 * is computed where the expression is first reached, so laziness and errors stay as they were (an
 * error stops the run, nothing is cached); sequences are immutable, so sharing one is safe.
 */
import { XNode } from "./document.ts";
import { Untyped, type Atomic } from "./atomic.ts";
import { functionName, type Expr } from "./ast.ts";
import { Dec } from "./decimal.ts";
import type { Evaluate, Focus, Frame, Runtime, Scope } from "./context.ts";
import { sharedEntry, type CompileSession, type CountedUses, type SessionTables } from "./session.ts";
import { BUILT_INS } from "./functions.ts";
import type { Item, Sequence } from "./values.ts";

/** What an expression's value depends on beyond the run (the document and the global lets). */
export const enum Depends {
  None = 0,
  /** The context item, position or size. */
  Focus = 1,
  /** Only the tree of the context item (`/...`). */
  Root = 2,
  /** A rule let, a `for`/`some`/`every` variable or a function parameter bound outside the expression. */
  Local = 4,
}

/** Built-ins that read the focus even when given their arguments. */
const FOCUS_FUNCTIONS = new Set(["position", "last", "current", "lang", "id", "idref", "element-with-id", "generate-id", "base-uri", "document-uri"]);
const CONSTANT_FUNCTIONS = new Set(["true", "false"]);

/** The {@link Depends} flags of `expr`; `bound` holds the range variables bound inside the expression analysed. */
export function dependence(expr: Expr, scope: Scope, bound: ReadonlySet<string> = new Set()): number {
  switch (expr.kind) {
    case "literal":
      return Depends.None;
    case "var":
      return bound.has(expr.name) || isGlobal(expr.name, scope) ? Depends.None : Depends.Local;
    case "context":
    case "step":
      return Depends.Focus | inner(expr.kind === "step" ? expr.predicates : [], scope, bound);
    case "root":
      return Depends.Root;
    case "sequence":
      return union(expr.items, scope, bound);
    case "path":
      return dependence(expr.steps[0], scope, bound) | inner(expr.steps.slice(1), scope, bound);
    case "filter":
      return dependence(expr.base, scope, bound) | inner(expr.predicates, scope, bound);
    case "call": {
      const name = functionName(expr.name);
      if (FOCUS_FUNCTIONS.has(name) || (expr.args.length === 0 && !CONSTANT_FUNCTIONS.has(name))) return Depends.Focus;
      return union(expr.args, scope, bound);
    }
    case "binary":
      return dependence(expr.left, scope, bound) | dependence(expr.right, scope, bound);
    case "unary":
    case "cast":
    case "instance":
      return dependence(expr.operand, scope, bound);
    case "if":
      return dependence(expr.condition, scope, bound) | dependence(expr.then, scope, bound) | dependence(expr.else, scope, bound);
    case "for":
    case "quantified": {
      const names = new Set(bound);
      let depends = Depends.None;
      for (const binding of expr.bindings) {
        depends |= dependence(binding.value, scope, names);
        names.add(binding.name);
      }
      return depends | dependence(expr.body, scope, names);
    }
  }
}

/** Expressions evaluated with a focus of their own (later path steps, predicates): only their variables count. */
function inner(exprs: Expr[], scope: Scope, bound: ReadonlySet<string>): number {
  return union(exprs, scope, bound) & Depends.Local;
}

function union(exprs: Expr[], scope: Scope, bound: ReadonlySet<string>): number {
  let depends = Depends.None;
  for (const expr of exprs) depends |= dependence(expr, scope, bound);
  return depends;
}

function isGlobal(name: string, scope: Scope): boolean {
  try {
    return scope.resolve(name).global;
  } catch {
    // Undeclared: compiling the reference reports it.
    return false;
  }
}

/** Whether caching saves more than it costs: the expression navigates, iterates or calls something. */
export function worthHoisting(expr: Expr): boolean {
  switch (expr.kind) {
    case "literal":
    case "var":
    case "context":
      return false;
    case "root":
    case "path":
    case "step":
    case "filter":
    case "for":
    case "quantified":
    case "call":
      return true;
    case "sequence":
      return expr.items.some(worthHoisting);
    case "binary":
      return worthHoisting(expr.left) || worthHoisting(expr.right);
    case "unary":
    case "cast":
    case "instance":
      return worthHoisting(expr.operand);
    case "if":
      return worthHoisting(expr.condition) || worthHoisting(expr.then) || worthHoisting(expr.else);
  }
}

/**
 * A cached evaluation of an independent expression (see {@link dependence}); identical ones in
 * scopes of one compile session with the same namespace bindings share the cache, by
 * {@link shareKey}: the same `//x[p]` in many rules is evaluated once per run.
 */
export function hoist(expr: Expr, scope: Scope, rooted: boolean, compile: () => Evaluate): Evaluate {
  const key = shareKey(expr, scope);
  if (key === null) return hoisted(compile(), rooted, scope.session);
  return sharedEntry(scope.session.independent, scope.namespaces, key, () => hoisted(compile(), rooted, scope.session));
}

/**
 * A path that reads the context node but neither its position nor a local variable, cached per
 * run and context node once the plan uses the same path in more than one place (one use would
 * only pay for the cache); places are counted as for {@link hoist}.
 */
export function hoistPerNode(expr: Expr, scope: Scope, compile: () => Evaluate): Evaluate {
  return shareCounted(scope.session.perNode, expr, scope, compile, (evaluate, shared) => {
    const cached = perRunCache<XNode>();
    return (focus, runtime) => {
      const item = focus.item;
      if (shared.uses < 2 || !(item instanceof XNode)) return evaluate(focus, runtime);
      return cached(item, evaluate, focus, runtime);
    };
  });
}

/**
 * A function of the context node alone (no variable, position or size) in rule contexts, remembered
 * for the last node it was asked about in a run, once the plan writes it in more than one place.
 * Rules tried one after another on one node ask the same thing of it: the CEN VAT rules match every
 * tax category against `[normalize-space(cbc:ID) = 'S']`, then 'Z', 'E' and six more. One entry per
 * run (kept among the run's values, so it goes with the run), where a per-node table cost more than
 * it saved; checks do not use it (they rarely ask twice in a row, and a miss costs a lookup).
 */
export function rememberLastNode(expr: Expr, scope: Scope, compile: () => Evaluate): Evaluate {
  const session = scope.session;
  return shareCounted(session.lastNode, expr, scope, compile, (evaluate, shared) => {
    const slot = session.newRunSlot();
    return (focus, runtime) => {
      const item = focus.item;
      if (shared.uses < 2 || !(item instanceof XNode)) return evaluate(focus, runtime);
      const values = session.runValues(runtime.globals).values;
      const last = values[slot] as LastNode | undefined;
      if (last !== undefined && last.item === item) return last.value;
      const value = evaluate(focus, runtime);
      if (last === undefined) values[slot] = { item, value } satisfies LastNode;
      else {
        last.item = item;
        last.value = value;
      }
      return value;
    };
  });
}

interface LastNode {
  item: XNode;
  value: Sequence;
}

/**
 * One compiled cache of `expr` per share key in `tables`, counting the places that use it (one use
 * would only pay for the cache: `cache` reads the count at each call); `compile` alone where the
 * expression cannot be shared.
 */
function shareCounted(tables: SessionTables, expr: Expr, scope: Scope, compile: () => Evaluate, cache: (evaluate: Evaluate, shared: CountedUses) => Evaluate): Evaluate {
  const key = shareKey(expr, scope);
  if (key === null) return compile();
  const entry = sharedEntry(tables, scope.namespaces, key, () => {
    const shared: CountedUses = { uses: 0, evaluate: () => [] };
    shared.evaluate = cache(compile(), shared);
    return shared;
  });
  entry.uses++;
  return entry.evaluate;
}

/**
 * The expression with its global variables resolved to slots, or null when a compiled copy must
 * not serve another scope: range variables take slots of the compiling scope's frame, and
 * stylesheet functions and `document()` are bound per schema.
 */
function shareKey(expr: Expr, scope: Scope): string | null {
  let shareable = true;
  const key = JSON.stringify(expr, (_, value: unknown) => {
    if (typeof value !== "object" || value === null || !("kind" in value)) return value;
    const node = value as Expr;
    if (node.kind === "for" || node.kind === "quantified") shareable = false;
    else if (node.kind === "call" && !BUILT_INS[functionName(node.name)]) shareable = false;
    // Only global here: range variables exist only inside `for`/`some`/`every`, which are not shared.
    else if (node.kind === "var" && shareable) return { var: node.name, slot: scope.resolve(node.name).slot };
    return value;
  });
  return shareable ? key : null;
}

/**
 * `evaluate` computed once per run (its globals frame) and, when `rooted`, per tree of the context
 * item. Keyed weakly, so a finished run's values go with it.
 */
function hoisted(evaluate: Evaluate, rooted: boolean, session: CompileSession): Evaluate {
  // The run's own document has a slot among the run's values (one lookup per run for all hoisted
  // expressions); the temporary trees of stylesheet functions are cached by their root.
  const slot = session.newRunSlot();
  const cached = perRunCache<XNode>();
  return (focus, runtime) => {
    const run = session.runValues(runtime.globals);
    if (rooted) {
      const item = focus.item;
      // No node as context: `/` raises its error, every time, as before.
      if (!(item instanceof XNode)) return evaluate(focus, runtime);
      const document = runtime.document;
      if (document.nodes[item.order] !== item) return cached(item.root(), evaluate, focus, runtime);
      // A run judges one document; a caller reusing its globals for another gets that tree's own values.
      if (run.document === undefined) run.document = document;
      else if (run.document !== document) return cached(document.node, evaluate, focus, runtime);
    }
    const values = run.values;
    let value = values[slot] as Sequence | undefined;
    if (value === undefined) values[slot] = value = evaluate(focus, runtime);
    return value;
  };
}

/**
 * Values of one expression per run and key: `evaluate`'s value, computed on the first call for a
 * key in a run. Runs are told apart by their globals frame, held weakly, so a finished run's values
 * go with it; an error is not cached (nothing is stored), so it is raised again at every call.
 */
function perRunCache<Key>(): (key: Key, evaluate: Evaluate, focus: Focus, runtime: Runtime) => Sequence {
  const runs = new WeakMap<Frame, Map<Key, Sequence>>();
  return (key, evaluate, focus, runtime) => {
    let values = runs.get(runtime.globals);
    if (!values) runs.set(runtime.globals, (values = new Map()));
    let value = values.get(key);
    if (value === undefined) values.set(key, (value = evaluate(focus, runtime)));
    return value;
  };
}

/**
 * The slots of the range variables `expr` reads when those are the only local variables it reads
 * (globals aside), in the order first read; undefined otherwise. Together with reading no focus
 * (see {@link dependence}), this makes `expr` a function of the items those variables hold.
 */
export function rangeVariables(expr: Expr, scope: Scope): number[] | undefined {
  const slots: number[] = [];
  for (const name of freeVariables(expr)) {
    if (isGlobal(name, scope)) continue;
    const slot = scope.rangeSlot(name);
    if (slot === undefined) return undefined;
    slots.push(slot);
  }
  return slots.length ? slots : undefined;
}

/** The variables `expr` reads that it does not bind itself (with `for`, `some` or `every`), predicates included. */
function freeVariables(expr: Expr): Set<string> {
  const names = new Set<string>();
  collectFree(expr, new Set(), names);
  return names;
}

function collectFree(expr: Expr, bound: ReadonlySet<string>, out: Set<string>): void {
  const all = (exprs: Expr[]) => exprs.forEach((e) => collectFree(e, bound, out));
  switch (expr.kind) {
    case "var":
      if (!bound.has(expr.name)) out.add(expr.name);
      return;
    case "literal":
    case "context":
    case "root":
      return;
    case "sequence":
      return all(expr.items);
    case "path":
      return all(expr.steps);
    case "step":
      return all(expr.predicates);
    case "filter":
      return all([expr.base, ...expr.predicates]);
    case "call":
      return all(expr.args);
    case "binary":
      return all([expr.left, expr.right]);
    case "unary":
    case "cast":
    case "instance":
      return all([expr.operand]);
    case "if":
      return all([expr.condition, expr.then, expr.else]);
    case "for":
    case "quantified": {
      const inner = new Set(bound);
      for (const binding of expr.bindings) {
        collectFree(binding.value, inner, out);
        inner.add(binding.name);
      }
      collectFree(expr.body, inner, out);
    }
  }
}

/**
 * `evaluate`, a function of the items range variables hold (see {@link rangeVariables}) and,
 * when `rooted`, of the context item's tree, cached per run by those items: a node by itself, an
 * atomic value by its type and exact value. Loops over the same items recur from rule firing to
 * rule firing: the Factur-X EXTENDED parent-line test (BR-FXEXT-06) compares every line with
 * `normalize-space($other/ram:AssociatedDocumentLineDocument/ram:ParentLineID)` of each sibling
 * line, where one evaluation per line is enough; every VAT breakdown sums the lines and allowances
 * of its rate (`every $rate in ... satisfies ... sum(...[... = $rate])`, and Factur-X EXTENDED per
 * rate and exemption reason), where once per distinct rate (and reason) is enough, however many
 * breakdowns repeat it. Values of several variables are cached up to {@link MAX_TUPLES} per run:
 * a loop over pairs would otherwise keep one per pair.
 */
export function perRangeItems(evaluate: Evaluate, slots: readonly number[], rooted: boolean): Evaluate {
  const runs = new WeakMap<Frame, { tuples: number; values: Map<XNode | string, unknown> }>();
  const last = slots.length - 1;
  return (focus, runtime) => {
    // An expression reading `/` is cached only where that is the run's document (the rules' own
    // context), not a temporary tree.
    if (rooted) {
      const context = focus.item;
      if (!(context instanceof XNode) || runtime.document.nodes[context.order] !== context) return evaluate(focus, runtime);
    }
    let run = runs.get(runtime.globals);
    if (!run) runs.set(runtime.globals, (run = { tuples: 0, values: new Map() }));
    const full = last > 0 && run.tuples >= MAX_TUPLES;
    let level = run.values;
    for (let i = 0; i < last; i++) {
      const key = rangeKey(runtime.locals[slots[i]]);
      if (key === undefined) return evaluate(focus, runtime);
      let next = level.get(key) as Map<XNode | string, unknown> | undefined;
      if (!next) {
        if (full) return evaluate(focus, runtime);
        level.set(key, (next = new Map()));
      }
      level = next;
    }
    const key = rangeKey(runtime.locals[slots[last]]);
    if (key === undefined) return evaluate(focus, runtime);
    let value = level.get(key) as Sequence | undefined;
    if (value === undefined) {
      value = evaluate(focus, runtime);
      if (!full) {
        level.set(key, value);
        run.tuples++;
      }
    }
    return value;
  };
}

const MAX_TUPLES = 4096;

/** The cache key of the one item a range variable holds, or undefined when it holds none. */
function rangeKey(bound: unknown): XNode | string | undefined {
  const item = Array.isArray(bound) && bound.length === 1 ? (bound[0] as Item) : undefined;
  if (item === undefined) return undefined;
  return item instanceof XNode ? item : atomicKey(item);
}

/**
 * A key equal only for atomic values of one type that behave alike in every operation: a
 * decimal's scale counts (division keeps it, as Java's BigDecimal does), a double's sign of zero too.
 */
function atomicKey(value: Atomic): string {
  if (typeof value === "string") return `s${value}`;
  if (typeof value === "number") return `d${Object.is(value, -0) ? "-0" : String(value)}`;
  if (typeof value === "boolean") return `b${value}`;
  if (value instanceof Dec) return `${value.integer ? "i" : "m"}${value.unscaled}e${value.scale}`;
  if (value instanceof Untyped) return `u${value.value}`;
  return `t${value.day}/${value.timezone}/${value.text}`;
}
