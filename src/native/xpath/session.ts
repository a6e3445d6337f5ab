/**
 * What the expressions compiled for one plan share: values hoisted out of their rules and compiled
 * regular expressions. A plan holds its session through its closures, so a worker keeps it exactly
 * as long as the plan, and every plan (every test's too) starts from an empty one: nothing the
 * compiler keeps outlives the plan or carries over from one test into the next.
 */
import type { CompiledTest } from "./axes.ts";
import type { CodeTable } from "./code-tables.ts";
import type { Evaluate, Frame } from "./context.ts";
import type { XDocument } from "./document.ts";
import { RegexCache } from "./regex.ts";

/** A scope's namespace bindings: identical expressions mean the same only under the same bindings. */
type Bindings = ReadonlyMap<string, string>;

export class CompileSession {
  /** Independent expressions already compiled, by bindings and share key (see `hoist` in hoist.ts). */
  readonly independent = new WeakMap<Bindings, Map<string, Evaluate>>();
  /** Paths cached per context node, likewise, with how many places use each (see `hoistPerNode`). */
  readonly perNode: SessionTables = new WeakMap();
  /** Functions of the context node remembered for the last node, likewise (see `rememberLastNode`). */
  readonly lastNode: SessionTables = new WeakMap();
  /** Node tests by what they test (see `compileTest` in axes.ts): pure, so every step testing one name shares one. */
  readonly nodeTests = new Map<string, CompiledTest>();
  /** Code lists read into tables (see code-tables.ts), by bindings and path; null where a list cannot be read so. */
  readonly codeTables = new WeakMap<Bindings, Map<string, CodeTable | null>>();
  /** Shared by every rule of the plan: the patterns are the rules' literals. */
  readonly regexes = new RegexCache();
  /** Per run (told apart by its globals frame, held weakly), what hoisted and remembered expressions keep, by slot. */
  private readonly runs = new WeakMap<Frame, RunValues>();
  private slots = 0;

  /** A slot for one expression's value in every run (see `hoisted` and `rememberLastNode` in hoist.ts). */
  newRunSlot(): number {
    return this.slots++;
  }

  /** The values of the run whose globals frame this is, empty at its first call. */
  runValues(globals: Frame): RunValues {
    let run = this.runs.get(globals);
    // Filled with undefined, so the engine keeps a dense array however the slots are first written.
    if (!run) this.runs.set(globals, (run = { document: undefined, values: new Array<unknown>(this.slots).fill(undefined) }));
    return run;
  }
}

/** The entry of `tables` for these bindings and key, made on first ask. */
export function sharedEntry<T>(tables: WeakMap<Bindings, Map<string, T>>, bindings: Bindings, key: string, make: () => T): T {
  let table = tables.get(bindings);
  if (!table) tables.set(bindings, (table = new Map()));
  let entry = table.get(key);
  if (entry === undefined) table.set(key, (entry = make()));
  return entry;
}

/** A compiled cache shared by the places that write one expression, and how many they are. */
export interface CountedUses {
  uses: number;
  evaluate: Evaluate;
}

/** Shared compiled caches by bindings and share key. */
export type SessionTables = WeakMap<Bindings, Map<string, CountedUses>>;

export interface RunValues {
  /** The tree the run's values of expressions reading `/` belong to: the first one such a value was computed for. */
  document: XDocument | undefined;
  values: unknown[];
}
