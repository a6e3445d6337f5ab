/** What compiled expressions run against: the focus, the variable frames and the document. */
import type { XDocument } from "./document.ts";
import { fail } from "./errors.ts";
import type { CompileSession } from "./session.ts";
import type { Item, Sequence } from "./values.ts";

export interface Focus {
  item: Item | undefined;
  position: number;
  size: number;
}

/** A variable bound by a let: evaluated on first use, as Saxon does, so an unused let never raises its error. */
export class Lazy {
  private running = false;
  private failed: unknown;
  // The expression and what it runs against, rather than a closure over them: a rule firing binds
  // its lets this way on every node it fires on, and a closure is two more objects each time.
  constructor(
    private readonly evaluate: Evaluate,
    private readonly focus: Focus,
    private readonly runtime: Runtime,
  ) {}

  force(): Sequence {
    // A variable whose evaluation failed (e.g. inside a rule context, where the error only makes the
    // rule not match) fails the same way wherever it is used again.
    if (this.failed !== undefined) throw this.failed;
    if (this.running) fail("XQDY0054", "circular variable definition");
    this.running = true;
    try {
      return this.evaluate(this.focus, this.runtime);
    } catch (error) {
      this.failed = error;
      throw error;
    }
  }
}

/** Variable slots: a value, a {@link Lazy} not yet forced, or undefined before binding. */
export type Frame = (Sequence | Lazy | undefined)[];

export interface Runtime {
  document: XDocument;
  /** Schema- and pattern-level lets, once per document. */
  globals: Frame;
  /** Rule-level lets and `for`/`some`/`every` variables of the current rule firing. */
  locals: Frame;
}

export type Evaluate = (focus: Focus, runtime: Runtime) => Sequence;

/** A function callable from XPath by its expanded name and arity (an `xsl:function`, compiled natively). */
export interface StylesheetFunction {
  readonly name: string;
  call(args: Sequence[], runtime: Runtime): Sequence;
}

export function functionKey(uri: string, local: string, arity: number): string {
  return `{${uri}}${local}#${arity}`;
}

export function readSlot(frame: Frame, slot: number): Sequence {
  const value = frame[slot];
  if (value instanceof Lazy) return (frame[slot] = value.force());
  return value ?? fail("XPDY0002", "variable used before it is bound");
}

/**
 * Compile-time scope: namespace prefixes, global variable slots, and local slots allocated as
 * lets and range variables come into scope (names shadow outer ones, like XSLT local variables).
 */
export class Scope {
  private readonly locals: { name: string; slot: number; range: boolean }[] = [];
  /** Local slots a frame for this scope needs. */
  size = 0;
  /** Set while an expression cached by the items its range variables hold compiles (`perRangeItems` in hoist.ts): its parts need no such cache of their own. */
  inRangeCache = false;
  /**
   * Set for the scope of a rule context (a match pattern): the rules of a pattern are tried one after
   * another on one node, so a function of the node their predicates share is remembered for the last
   * node (see `rememberLastNode` in hoist.ts); in checks it would cost more than it saves.
   */
  matching = false;
  private invariants = 0;

  constructor(
    /** What this scope's expressions share with the other scopes of a plan (see session.ts). */
    readonly session: CompileSession,
    readonly namespaces: ReadonlyMap<string, string>,
    private readonly globals: ReadonlyMap<string, number>,
    /** Stylesheet functions (`xsl:function`) by `{uri}local#arity`. */
    readonly functions: ReadonlyMap<string, StylesheetFunction> = new Map(),
    /** What `document(href)` may open (see `CompileOptions.documents` in engine.ts); none when absent. */
    readonly documents?: (href: string) => XDocument | undefined,
  ) {}

  /** A new local slot; `range` for a `for`/`some`/`every` variable, bound to one item at a time. */
  declare(name: string, range = false): number {
    const slot = this.size++;
    this.locals.push({ name, slot, range });
    return slot;
  }

  /** The slot of `name` when the innermost local so named is a range variable, else undefined. */
  rangeSlot(name: string): number | undefined {
    for (let i = this.locals.length - 1; i >= 0; i--) if (this.locals[i].name === name) return this.locals[i].range ? this.locals[i].slot : undefined;
    return undefined;
  }

  /**
   * A name for a loop-invariant part lifted into a local (see invariants.ts), unique in this scope;
   * not an XPath name, so no variable of the rules can shadow or be shadowed by it.
   */
  invariantName(): string {
    return `#invariant${this.invariants++}`;
  }

  /** Ends the scope of the most recent `count` local declarations (their slots are not reused). */
  release(count: number): void {
    this.locals.length -= count;
  }

  resolve(name: string): { global: boolean; slot: number } {
    for (let i = this.locals.length - 1; i >= 0; i--) if (this.locals[i].name === name) return { global: false, slot: this.locals[i].slot };
    const slot = this.globals.get(name);
    if (slot === undefined) fail("XPST0008", `variable $${name} is not declared`);
    return { global: true, slot };
  }

  namespace(prefix: string): string {
    if (prefix === "") return "";
    const uri = this.namespaces.get(prefix);
    if (uri === undefined) fail("XPST0081", `namespace prefix "${prefix}" is not declared`);
    return uri;
  }
}
