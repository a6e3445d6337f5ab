/**
 * A list filtered again and again by `[C1 and ... and K = P and ...]`, where K and the conjuncts
 * before it read only the item and P reads no focus, as lookups in an index of K. The VAT rules
 * ask it for every VAT breakdown of every line and allowance (`//cac:InvoiceLine[...][cac:Item/
 * cac:ClassifiedTaxCategory/xs:decimal(cbc:Percent) = $rate]`, `.../ram:SpecifiedTradeAllowanceCharge
 * [ram:CategoryTradeTax/ram:CategoryCode = 'S' and ram:CategoryTradeTax/xs:decimal(
 * ram:RateApplicablePercent) = $rate]`), quadratic in breakdowns times allowances; the Factur-X
 * code-list tests look a code up among thousands of entries (`cl[@id=15]/enumeration[@value=$code]`).
 *
 * When the same list (a hoisted or indexed node list, a code list) is filtered a second time, the
 * items that pass C1 ... are indexed by K's values: strings and untyped values by their string,
 * numbers by their double. A probe of the same class picks the candidates, and the whole
 * predicate is evaluated on them, in list order: a double shared by two different decimals only
 * adds a candidate, and no item that could pass is left out, because two values of one class that
 * compare equal have the same key. Anything else is scanned as before: a probe of another class
 * (an untyped value against numbers compares as a number, a string against numbers raises an
 * error), keys of mixed or other types, and any list whose prefix or key raised an error while
 * it was indexed (the scan then raises it where the rules would).
 */
import { Untyped, type Atomic } from "./atomic.ts";
import type { Expr } from "./ast.ts";
import { Dec } from "./decimal.ts";
import type { Evaluate, Focus, Runtime, Scope } from "./context.ts";
import { XPathError } from "./errors.ts";
import { dependence, Depends } from "./hoist.ts";
import { atomize, type Sequence } from "./values.ts";

type Test = (focus: Focus, runtime: Runtime) => boolean;
/** A predicate as a filter over a sequence in the order positions count in. */
export type Filter = (items: Sequence, runtime: Runtime) => Sequence;

interface Compilers {
  compile(expr: Expr, scope: Scope): Evaluate;
  compileBoolean(expr: Expr, scope: Scope): Test;
}

/** Below this many items a scan costs less than keeping an index. */
const KEYED_MIN = 32;

interface Index {
  /** How many items passed the conjuncts before the key (the probe is evaluated only if some did). */
  passed: number;
  kind: "string" | "number" | "none";
  /** Positions in the list of the items with each key, ascending. */
  byString: Map<string, number[]>;
  byNumber: Map<number, number[]>;
}

/**
 * The filter for a boolean predicate that reads no position, or null when it has no keyed
 * conjunct. `scan` is the plain filter, used below the threshold and wherever the index cannot answer.
 */
export function compileKeyedFilter(expr: Expr, scope: Scope, scan: Filter, compilers: Compilers): Filter | null {
  const conjuncts = conjunctsOf(expr);
  const at = keyedConjunct(conjuncts, scope);
  if (at < 0) return null;
  const keyed = conjuncts[at] as Extract<Expr, { kind: "binary" }>;
  const keyOnLeft = !(dependence(keyed.left, scope) & Depends.Local) && !(dependence(keyed.right, scope) & Depends.Focus);
  const key = compilers.compile(keyOnLeft ? keyed.left : keyed.right, scope);
  const probe = compilers.compile(keyOnLeft ? keyed.right : keyed.left, scope);
  const prefix = conjuncts.slice(0, at).map((conjunct) => compilers.compileBoolean(conjunct, scope));
  // Per list: null once seen (most lists are filtered once and never again, so the first filter
  // scans), then its index, or false when the index cannot answer for it.
  const indexes = new WeakMap<Sequence, Index | null | false>();
  return (items, runtime) => {
    if (items.length < KEYED_MIN) return scan(items, runtime);
    let index = indexes.get(items);
    if (index === undefined || index === false) {
      if (index === undefined) indexes.set(items, null);
      return scan(items, runtime);
    }
    if (index === null) {
      const built = indexOf(items, prefix, key, runtime);
      indexes.set(items, built ?? false);
      if (!built) return scan(items, runtime);
      index = built;
    }
    if (index.passed === 0) return EMPTY;
    const values = probe({ item: items[0], position: 1, size: items.length }, runtime);
    if (values.length === 0 || index.kind === "none") return EMPTY;
    const candidates = candidatesOf(index, values);
    return scan(candidates ? candidates.map((at) => items[at]) : items, runtime);
  };
}

const EMPTY: Sequence = [];

function conjunctsOf(expr: Expr): Expr[] {
  if (expr.kind === "sequence" && expr.items.length === 1) return conjunctsOf(expr.items[0]);
  if (expr.kind === "binary" && expr.op === "and") return [...conjunctsOf(expr.left), ...conjunctsOf(expr.right)];
  return [expr];
}

/**
 * The conjunct to index by: `K = P` with K reading no local variable and P no focus, all conjuncts
 * before it reading no local variable. One whose P reads a local variable (the `$rate` that
 * changes from one filtering to the next) is preferred to one whose P is fixed for the run (a
 * literal, as in `ram:CategoryCode = 'S'`, which then belongs to the conjuncts before the key).
 */
function keyedConjunct(conjuncts: Expr[], scope: Scope): number {
  let fixed = -1;
  for (let i = 0; i < conjuncts.length; i++) {
    const conjunct = conjuncts[i];
    if (conjunct.kind === "binary" && conjunct.op === "=") {
      const left = dependence(conjunct.left, scope);
      const right = dependence(conjunct.right, scope);
      const keyed = (key: number, probe: number) => !(key & Depends.Local) && !(probe & Depends.Focus);
      if (keyed(left, right) || keyed(right, left)) {
        if ((left | right) & Depends.Local) return i;
        if (fixed < 0) fixed = i;
      }
    }
    if (dependence(conjunct, scope) & Depends.Local) return fixed;
  }
  return fixed;
}

/** The items that pass the prefix, by their key values; null when the index cannot answer for this list. */
function indexOf(items: Sequence, prefix: Test[], key: Evaluate, runtime: Runtime): Index | null {
  const index: Index = { passed: 0, kind: "none", byString: new Map(), byNumber: new Map() };
  const size = items.length;
  try {
    for (let at = 0; at < size; at++) {
      const focus = { item: items[at], position: at + 1, size };
      if (!prefix.every((conjunct) => conjunct(focus, runtime))) continue;
      index.passed++;
      for (const value of key(focus, runtime)) {
        const atomic = atomize(value);
        const kind = classOf(atomic);
        if (!kind || (index.kind !== "none" && index.kind !== kind)) return null;
        index.kind = kind;
        if (kind === "string") add(index.byString, stringKey(atomic), at);
        else {
          const number = numberKey(atomic);
          // NaN equals nothing, itself included.
          if (!Number.isNaN(number)) add(index.byNumber, number, at);
        }
      }
    }
  } catch (error) {
    if (error instanceof XPathError) return null;
    throw error;
  }
  return index;
}

/** Values of one class compare with each other without a cast: as strings, or as numbers. */
function classOf(value: Atomic): Index["kind"] | null {
  if (typeof value === "string" || value instanceof Untyped) return "string";
  if (typeof value === "number" || value instanceof Dec) return "number";
  return null;
}

const stringKey = (value: Atomic) => (value instanceof Untyped ? value.value : (value as string));
const numberKey = (value: Atomic) => (value instanceof Dec ? value.toNumber() : (value as number));

function add<K>(map: Map<K, number[]>, key: K, at: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [at]);
  else if (list[list.length - 1] !== at) list.push(at);
}

/** Where in the list the items some probe value may equal are, ascending; null when the probe is not of the index's class. */
function candidatesOf(index: Index, values: Sequence): readonly number[] | null {
  const lists: number[][] = [];
  for (const value of values) {
    const atomic = atomize(value);
    if (classOf(atomic) !== index.kind) return null;
    const list = index.kind === "string" ? index.byString.get(stringKey(atomic)) : index.byNumber.get(numberKey(atomic));
    if (list) lists.push(list);
  }
  if (lists.length <= 1) return lists[0] ?? NO_POSITIONS;
  return [...new Set(lists.flat())].sort((a, b) => a - b);
}

const NO_POSITIONS: readonly number[] = [];
