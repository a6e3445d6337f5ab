/**
 * XSLT match patterns (rule contexts) compiled for matching a given node right to left, plus the
 * keys under which the engine indexes them: the element names a pattern's last step can match, so
 * a rule is only ever tried on nodes of those names.
 */
import { Kind, nameKey, XNode, type XDocument } from "./xpath/document.ts";
import type { Expr } from "./xpath/ast.ts";
import { compileTest, lowerBound, type CompiledTest } from "./xpath/axes.ts";
import { compile, compileBoolean, isBooleanPredicate, type Test } from "./xpath/compile.ts";
import type { Evaluate, Runtime, Scope } from "./xpath/context.ts";
import { effectiveBoolean } from "./xpath/values.ts";
import { fail, XPathError } from "./xpath/errors.ts";
import { parseXPath } from "./xpath/parser.ts";
import { isNumeric } from "./xpath/atomic.ts";
import { compileNamePredicate, type NamePredicate } from "./name-predicates.ts";

/** Index keys: an element name key (`{ns}local`), or one of these for nodes of any name. */
export const ANY_ELEMENT = "*";
export const ANY_ATTRIBUTE = "@";
export const DOCUMENT = "/";

interface PatternStep {
  test: CompiledTest;
  attribute: boolean;
  /** A predicate that may be a position counts among the node's like-named siblings; any other is a test of the node alone. */
  predicates: ({ positional: true; evaluate: Evaluate } | { positional: false; test: Test; name?: NamePredicate })[];
  /** For positional predicates only: the siblings passing `test`, listed once per parent (see {@link predicateHolds}). */
  siblings?: WeakMap<XNode, readonly XNode[]>;
  /** How this step relates to the previous one: its parent ("/") or any ancestor ("//"). */
  separator: "/" | "//";
}

/** One alternative of a union pattern. */
interface Branch {
  /** Whether the first step hangs off the document node (`/a`, `//a`), or anywhere (`a`). */
  absolute: boolean;
  /** A parenthesized pattern the first step hangs off (XSLT 3.0 `(P1 | P2)/a`). */
  head?: MatchPattern;
  /** Empty for the pattern `/`, which matches the document node. */
  steps: PatternStep[];
  key: string;
  /** Whether some step has a predicate, so that checking names alone first can spare evaluating it. */
  predicated: boolean;
  /** The name-only part of the last step's first predicate, if it has one (see {@link nameFit}). */
  named?: NamedBranch;
}

interface NamedBranch {
  predicate: NamePredicate;
  /** Whether it is the branch's only predicate, whole, with no head: then where it holds the branch matches. */
  decides: boolean;
}

/** What the names of a node and its ancestors alone say about a match. */
export const enum Fit {
  /** It cannot match. */
  No,
  /** It may: predicates (or a parenthesized head) decide. */
  Maybe,
  /** It matches, whatever the rest of the document holds. */
  Yes,
}

export interface MatchPattern {
  keys: string[];
  /** Whether every alternative is absolute (`/a`, `//a`), so its matches are fixed for a document. */
  absolute: boolean;
  matches(node: XNode, runtime: Runtime): boolean;
  /**
   * The same for every node of one name path (see `name-paths.ts`), so the engine asks once per
   * path; once per path and lexical name where {@link lexical}.
   */
  byNames(node: XNode, runtime: Runtime): Fit;
  /** Whether {@link byNames} also reads the node's lexical name (`name()`, with its prefix): see {@link nameFit}. */
  lexical: boolean;
}

export function compilePattern(source: string, scope: Scope): MatchPattern {
  return compileParsed(parseXPath(source), scope, source);
}

function compileParsed(expr: Expr, scope: Scope, source: string): MatchPattern {
  // XSLT 3.0 (Saxon-HE 9.9 accepts it in these version 2.0 stylesheets): `(P1 | P2)[Q]` matches
  // what P1 | P2 matches where Q holds; a numeric Q is the node's position among all those matches.
  if (expr.kind === "filter" && expr.base.kind === "sequence" && expr.base.items.length === 1) {
    const inner = compileParsed(expr.base.items[0], scope, source);
    // A numeric predicate counts among the union's matches: only implemented for absolute alternatives.
    if (!inner.absolute && !expr.predicates.every(isBooleanPredicate)) fail("XTSE0340", `unsupported match pattern (possibly positional predicate on a relative union): ${source}`);
    const predicates = expr.predicates.map((predicate) => compile(predicate, scope));
    // The union's matches in a document, listed once: not once per node a position is asked of.
    const matchesIn = new WeakMap<XDocument, readonly XNode[]>();
    return {
      keys: inner.keys,
      absolute: inner.absolute,
      byNames: (node, runtime) => (inner.byNames(node, runtime) === Fit.No ? Fit.No : Fit.Maybe),
      lexical: inner.lexical,
      matches: (node, runtime) => {
        if (!inner.matches(node, runtime)) return false;
        for (const predicate of predicates) {
          const result = predicate({ item: node, position: 1, size: 1 }, runtime);
          if (result.length === 1 && isNumeric(result[0] as never)) {
            const document = runtime.document;
            let matching = matchesIn.get(document);
            if (!matching) matchesIn.set(document, (matching = document.nodes.filter((candidate) => inner.matches(candidate, runtime))));
            if (Number(String(result[0])) !== lowerBound(matching, node.order) + 1) return false;
          } else if (!effectiveBoolean(result)) return false;
        }
        return true;
      },
    };
  }
  const branches = alternatives(expr)
    .flatMap(distributeGroups)
    .map((alternative) => compileBranch(alternative, scope, source));
  return {
    keys: [...new Set(branches.map((branch) => branch.key))],
    absolute: branches.every((branch) => branch.absolute || (branch.head?.absolute ?? false)),
    byNames: (node, runtime) => {
      let fit = Fit.No;
      for (const branch of branches) {
        if (!branch.steps.length) {
          if (node.kind === Kind.Document) return Fit.Yes;
          continue;
        }
        if (!fitsNames(branch, branch.steps.length - 1, node)) continue;
        // Without predicates or a head, fitsNames walks exactly as matchStep does.
        if (!branch.predicated && !branch.head) return Fit.Yes;
        const named = nameFit(branch, node, runtime);
        if (named === Fit.Yes) return Fit.Yes;
        if (named === Fit.Maybe) fit = Fit.Maybe;
      }
      return fit;
    },
    lexical: branches.some((branch) => branch.named !== undefined),
    matches: (node, runtime) => {
      for (let i = 0; i < branches.length; i++) {
        const branch = branches[i];
        // Names first: where they cannot fit, the predicates (the VAT rules test `normalize-space(cbc:ID)`
        // in nine rules of two branches each) are not evaluated, nor their errors raised: Saxon-HE
        // matches `b/c[xs:integer(.) = 1] | a/c` on an `a/c` that is no integer (see fast-paths.test.ts).
        if (branch.predicated && !fitsNames(branch, branch.steps.length - 1, node)) continue;
        if (matchBranch(branch, node, runtime)) return true;
      }
      return false;
    },
  };
}

/**
 * Whether a pattern may match a comment or a processing instruction: its last step (of some
 * alternative) tests `node()`, `comment()` or `processing-instruction()` on the child axis. The
 * engine offers rules documents, elements and attributes only, which is exact for a traversal that
 * also selects comments and processing instructions as long as no rule could match one.
 */
export function mayMatchCommentOrInstruction(source: string): boolean {
  const lastStepMay = (expr: Expr): boolean => {
    if (expr.kind === "root") return false;
    if (isParenthesized(expr)) return alternatives(expr.kind === "filter" ? expr.base : expr).some(lastStepMay);
    if (expr.kind === "path") return lastStepMay(expr.steps[expr.steps.length - 1]);
    if (expr.kind !== "step") return true;
    return expr.axis !== "attribute" && expr.test.kind === "type" && ["node", "comment", "processing-instruction"].includes(expr.test.type);
  };
  return alternatives(parseXPath(source)).some(lastStepMay);
}

function alternatives(expr: Expr): Expr[] {
  if (expr.kind === "binary" && expr.op === "|") return [...alternatives(expr.left), ...alternatives(expr.right)];
  if (expr.kind === "sequence" && expr.items.length === 1) return alternatives(expr.items[0]);
  return [expr];
}

/**
 * XSLT 3.0 lets a parenthesized union stand as a step inside a path (France CTC's
 * `(ubl:Invoice | cn:CreditNote)[…]/(cac:InvoiceLine | cac:CreditNoteLine)/cac:BillingReference`).
 * Where each of its alternatives is one step and its own predicates are boolean, `A/(B | C)[q]/D`
 * matches what `A/B[q]/D | A/C[q]/D` matches: a boolean `q` sees only its node, not its position
 * among the union. A first step in parentheses stays the branch's head (see {@link Branch.head}).
 */
function distributeGroups(expr: Expr): Expr[] {
  if (expr.kind !== "path") return [expr];
  const at = expr.steps.findIndex((step, index) => index > 0 && isParenthesized(step));
  if (at < 0) return [expr];
  const group = expr.steps[at];
  const predicates = group.kind === "filter" ? group.predicates : [];
  const inner = alternatives(group.kind === "filter" ? group.base : group);
  const steps = inner.filter((step) => step.kind === "step");
  // Anything else is left whole, for compileBranch to refuse.
  if (steps.length < inner.length || !predicates.every(isBooleanPredicate)) return [expr];
  return steps.flatMap((step) => {
    const distributed = { ...step, predicates: [...step.predicates, ...predicates] };
    return distributeGroups({ kind: "path", steps: expr.steps.map((original, index) => (index === at ? distributed : original)) });
  });
}

/** Most steps have no predicate: they share one empty list. */
const NO_PREDICATES: PatternStep["predicates"] = [];

function compileBranch(expr: Expr, scope: Scope, source: string): Branch {
  const unsupported = (): never => fail("XTSE0340", `unsupported match pattern: ${source}`);
  const raw = expr.kind === "path" ? expr.steps : [expr];
  let absolute = false;
  let at = 0;
  let head: MatchPattern | undefined;
  if (raw[0].kind === "root") {
    absolute = true;
    at = 1;
  } else if (raw.length > 1 && isParenthesized(raw[0])) {
    head = compileParsed(raw[0], scope, source);
    at = 1;
  }
  const steps: PatternStep[] = [];
  let separator: "/" | "//" = "/";
  for (; at < raw.length; at++) {
    const step = raw[at];
    if (step.kind !== "step") return unsupported();
    if (step.axis === "descendant-or-self" && step.test.kind === "type" && step.test.type === "node" && !step.predicates.length) {
      separator = "//";
      continue;
    }
    if (step.axis !== "child" && step.axis !== "attribute") return unsupported();
    const predicates: PatternStep["predicates"] = step.predicates.map((predicate) => {
      if (!isBooleanPredicate(predicate)) return { positional: true as const, evaluate: compile(predicate, scope) };
      const name = compileNamePredicate(predicate, scope, compileBoolean);
      return name ? { positional: false as const, test: name.test, name } : { positional: false as const, test: compileBoolean(predicate, scope) };
    });
    steps.push({
      test: compileTest(step.test, step.axis, scope),
      attribute: step.axis === "attribute",
      predicates: predicates.length ? predicates : NO_PREDICATES,
      ...(predicates.some((predicate) => predicate.positional) && { siblings: new WeakMap() }),
      separator,
    });
    separator = "/";
  }
  if (!steps.length) return absolute && !head ? { absolute, steps, key: DOCUMENT, predicated: false } : unsupported();
  const last = steps[steps.length - 1];
  const key = last.attribute ? ANY_ATTRIBUTE : last.test.name ? nameKey(last.test.name.ns, last.test.name.local) : ANY_ELEMENT;
  const predicateCount = steps.reduce((count, step) => count + step.predicates.length, 0);
  const first = last.predicates[0];
  const name = first && !first.positional ? first.name : undefined;
  const named = name && { predicate: name, decides: name.whole && predicateCount === 1 && !head };
  return { absolute, head, steps, key, predicated: predicateCount > 0, ...(named && { named }) };
}

function isParenthesized(expr: Expr): boolean {
  const base = expr.kind === "filter" ? expr.base : expr;
  return base.kind === "sequence" && base.items.length === 1;
}

/**
 * What a branch's name-only predicate says of a node whose names fit it: CEN CII's syntax rules
 * (`//ram:*[ends-with(name(), 'Amount') and not(self::ram:TaxTotalAmount)]`, and five more such)
 * are tried on every element of an invoice, each of them through the general matcher, where the
 * answer depends on the node's lexical name alone. Only the first predicate of the last step is
 * read: matchStep evaluates it before anything else of the branch, so when it is false nothing
 * else is evaluated, no error raised. An error leaves the answer to the general matcher.
 */
function nameFit(branch: Branch, node: XNode, runtime: Runtime): Fit {
  const named = branch.named;
  if (!named) return Fit.Maybe;
  let holds: boolean;
  try {
    holds = named.predicate.byName({ item: node, position: 1, size: 1 }, runtime);
  } catch (error) {
    if (error instanceof XPathError) return Fit.Maybe;
    throw error;
  }
  if (!holds) return Fit.No;
  return named.decides ? Fit.Yes : Fit.Maybe;
}

function matchBranch(branch: Branch, node: XNode, runtime: Runtime): boolean {
  if (!branch.steps.length) return node.kind === Kind.Document;
  return matchStep(branch, branch.steps.length - 1, node, runtime);
}

/** Whether `node` and its ancestors pass the node tests of the branch's steps from `index` down, predicates aside. */
function fitsNames(branch: Branch, index: number, node: XNode): boolean {
  const step = branch.steps[index];
  if (step.attribute !== (node.kind === Kind.Attribute) || !step.test.matches(node)) return false;
  const parent = node.parent;
  if (!parent) return false;
  if (index === 0) return branch.head !== undefined || !branch.absolute || step.separator === "//" || parent.kind === Kind.Document;
  if (step.separator === "/") return fitsNames(branch, index - 1, parent);
  for (let ancestor: XNode | null = parent; ancestor; ancestor = ancestor.parent) if (fitsNames(branch, index - 1, ancestor)) return true;
  return false;
}

function matchStep(branch: Branch, index: number, node: XNode, runtime: Runtime): boolean {
  const step = branch.steps[index];
  if (step.attribute !== (node.kind === Kind.Attribute) || !step.test.matches(node)) return false;
  for (const predicate of step.predicates) if (!predicateHolds(predicate, step, node, runtime)) return false;
  const parent = node.parent;
  if (!parent) return false;
  if (index === 0) {
    const head = branch.head;
    if (head) {
      if (step.separator === "/") return head.matches(parent, runtime);
      for (let ancestor: XNode | null = parent; ancestor; ancestor = ancestor.parent) if (head.matches(ancestor, runtime)) return true;
      return false;
    }
    if (!branch.absolute) return true;
    return step.separator === "//" || parent.kind === Kind.Document;
  }
  if (step.separator === "/") return matchStep(branch, index - 1, parent, runtime);
  for (let ancestor: XNode | null = parent; ancestor; ancestor = ancestor.parent) {
    if (matchStep(branch, index - 1, ancestor, runtime)) return true;
  }
  return false;
}

/**
 * A predicate of a pattern step sees the node's position among its siblings that pass the step's
 * test. Those are listed once per parent, and the node found among them by its order number: a
 * rule such as XRechnung's `cac:PrepaidPayment[$isExtension]` (a variable may hold a number) tried
 * on each of many like-named siblings was quadratic in their number otherwise.
 */
function predicateHolds(predicate: PatternStep["predicates"][number], step: PatternStep, node: XNode, runtime: Runtime): boolean {
  if (!predicate.positional) return predicate.test({ item: node, position: 1, size: 1 }, runtime);
  let position = 1;
  let size = 1;
  const parent = node.parent;
  if (parent) {
    let siblings = step.siblings!.get(parent);
    if (!siblings) step.siblings!.set(parent, (siblings = (step.attribute ? parent.attributes : parent.children).filter((sibling) => step.test.matches(sibling))));
    position = lowerBound(siblings, node.order) + 1;
    size = siblings.length;
  }
  const result = predicate.evaluate({ item: node, position, size }, runtime);
  if (result.length === 1 && isNumeric(result[0] as never)) return Number(String(result[0])) === position;
  return effectiveBoolean(result);
}
