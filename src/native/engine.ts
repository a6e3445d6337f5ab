/**
 * The native Schematron engine: compiles a parsed {@link Schema} into a plan once, then judges a
 * document in one pass per pattern over only the nodes some rule of the pattern can match (looked
 * up by element name), producing the same findings, in the same order, as `parseSvrl` reads from
 * the SVRL of our emitted XSLT on Saxon-HE.
 *
 * Evaluation order follows that XSLT: per pattern, nodes in document order (the document node,
 * then each element followed by its attributes); each node fires the first rule of the pattern
 * whose context matches; rule items run in order, lets lazily (an unused let never raises).
 * A dynamic error stops the whole run with an {@link XPathError}, as it stops the transformation.
 */
import type { Check, Let, MessagePart, Rule, Schema } from "../schematron/model.ts";
import type { Finding } from "../schematron/finding.ts";
import { Kind, nameKey, UNNUMBERED, XNode, type XDocument } from "./xpath/document.ts";
import { locatorFor, normalizeMessage, valueOf, type FindingLocator, type LocationStyle } from "./location.ts";
import { ANY_ATTRIBUTE, ANY_ELEMENT, compilePattern, DOCUMENT, Fit, type MatchPattern } from "./match.ts";
import { DocumentPaths, NO_PATH } from "./name-paths.ts";
import { readXml } from "./xml-reader.ts";
import { compileFunctions } from "./xslt-function.ts";
import { compileBoolean, compileXPath, type Test } from "./xpath/compile.ts";
import { absentAnswer, type AbsentAnswer } from "./xpath/absent-names.ts";
import { parseXPath } from "./xpath/parser.ts";
import { Lazy, Scope, type Evaluate, type Frame, type Runtime } from "./xpath/context.ts";
import { fail, XPathError } from "./xpath/errors.ts";
import { CompileSession } from "./xpath/session.ts";

type CompiledPart = { text: string } | { value: Evaluate } | { name: Evaluate };

interface CompiledCheck {
  /** The test as written, naming a check without an id in a {@link RuleProfile}. */
  source: string;
  assert: boolean;
  test: Test;
  /** The test's value on a document lacking a name it needs, answered without running it. */
  absent: AbsentAnswer | null;
  ruleId: string | null;
  flag: string | null;
  subject: Evaluate;
  message: CompiledPart[];
}

type CompiledItem = { let: Evaluate; slot: number } | { check: CompiledCheck };

interface CompiledRule {
  context: MatchPattern;
  /** The rule's lets and checks, compiled on first call (see {@link CompileOptions.eager}). */
  items: () => CompiledItem[];
  /** The rule does not traverse onwards from its node (only known where some rule of the pattern does not). */
  stops?: boolean;
}

interface CompiledPattern {
  rules: CompiledRule[];
  /** Rules by index key, in rule order; wildcard rules are merged into each key's list on first use. */
  byKey: Map<string, CompiledRule[]>;
  /** The same for elements, by name number (see `nameIdOf`): no key string to build or hash per node. */
  byNameId?: Map<number, CompiledRule[]>;
  keys: Set<string>;
  /** The element names among the keys, as `[ns, local]`: what {@link candidates} looks up per document. */
  elementNames: [string, string][];
  /**
   * The rules whose context may match a node of each name path, in rule order, each marked when
   * names alone decide that it does (see {@link Fit}); absent where names do not decide.
   */
  byPath?: Map<number, PathRules>;
  /** Whether some rule's names include the node's lexical name, so that a path's rules hold for one lexical name. */
  lexical: boolean;
}

interface PathRules {
  /** The lexical name of the node they were found for. */
  qname: string;
  rules: PathRule[];
}

interface PathRule {
  rule: CompiledRule;
  /** Matches every node of the path: no predicate to evaluate. */
  sure: boolean;
}

interface CompiledGlobal {
  value: Evaluate;
}

export interface Plan {
  globals: CompiledGlobal[];
  patterns: CompiledPattern[];
  locations: LocationStyle;
}

export interface CompileOptions {
  /**
   * The documents `document(href)` may open (the code lists shipped beside a stylesheet), by the
   * href as written, resolved against the stylesheet. Anything else is an error: rules never reach
   * the file system or the network.
   */
  documents?: (href: string) => XDocument | undefined;
  /**
   * Compile every rule's lets and checks now, so that anything the engine does not support throws
   * here. Otherwise a rule's are compiled the first time it fires: most rules of a rule set never
   * fire on a given kind of invoice (other VAT categories, credit notes, allowances), and a worker
   * holding every plan's closures for every rule set it has run needed about 10 MiB more. The
   * build compiles eagerly, so a bundled plan cannot meet a static error at run time.
   */
  eager?: boolean;
}

const SELF = "self::node()";

export function compileSchema(schema: Schema, options: CompileOptions = {}): Plan {
  const namespaces = new Map(schema.namespaces.map(({ prefix, uri }) => [prefix, uri]));
  // Saxon binds xs even where the schema does not declare it.
  if (!namespaces.has("xs")) namespaces.set("xs", "http://www.w3.org/2001/XMLSchema");
  const globalLets = [...schema.lets, ...schema.patterns.flatMap((pattern) => pattern.lets)];
  const globalSlots = new Map(globalLets.map((let_, slot) => [let_.name, slot]));
  // xsl:function bodies see the emitted stylesheet's bindings (the schema's, xsl, svrl, xs) under their own.
  const stylesheetNamespaces = new Map([["xsl", "http://www.w3.org/1999/XSL/Transform"], ["svrl", "http://purl.oclc.org/dsdl/svrl"], ...namespaces]);
  // One session for the whole plan, rules compiled on first firing included: the rules share what
  // it caches, and it goes when the plan goes.
  const session = new CompileSession();
  const functions = compileFunctions(schema.xslt, stylesheetNamespaces, globalSlots, session);
  // document() hands out one tree per href, as XSLT's stable document() does, for as long as
  // anything holds it: a code list read only into tables (code-tables.ts) is then let go, and read
  // again should a rule compiled later need it.
  const opened = new Map<string, WeakRef<XDocument> | null>();
  const resolve = options.documents;
  const documents =
    resolve &&
    ((href: string) => {
      const known = opened.get(href);
      if (known === null) return undefined;
      const held = known?.deref();
      if (held) return held;
      const tree = resolve(href);
      opened.set(href, tree ? new WeakRef(tree) : null);
      return tree;
    });
  const scope = () => new Scope(session, namespaces, globalSlots, functions, documents);
  const matchingScope = () => Object.assign(scope(), { matching: true });
  const globals = globalLets.map((let_) => ({ value: compileXPath(letValue(let_), scope()) }));
  const patterns = schema.patterns.map((pattern) => {
    const rules = pattern.rules.map((rule) => {
      let compiled: CompiledItem[] | undefined;
      const items = () => (compiled ??= compileItems(rule, scope()));
      if (options.eager) items();
      const context = notMatchingOnError(compilePattern(rule.context, matchingScope()));
      if (schema.visitsAttributes !== false) return { context, items };
      // A traversal of elements only (`apply-templates select="*"`) never offers an attribute to a rule.
      const elementsOnly: MatchPattern = {
        keys: context.keys.filter((key) => key !== ANY_ATTRIBUTE),
        absolute: context.absolute,
        matches: (node, runtime) => node.kind !== Kind.Attribute && context.matches(node, runtime),
        byNames: (node, runtime) => (node.kind === Kind.Attribute ? Fit.No : context.byNames(node, runtime)),
        lexical: context.lexical,
      };
      return { context: elementsOnly, items };
    });
    if (pattern.rules.some((rule) => rule.descends === false)) {
      // A rule that does not traverse onwards hides its node's attributes and descendants from the
      // whole pattern: a node is visited only while no visited ancestor fired such a rule. The rule
      // a parent fired is found as for any node, among the rules its name fits, before hiding.
      const unhidden = indexed(rules.map((rule, i) => ({ ...rule, stops: pattern.rules[i].descends === false })), false);
      const stopsAt = new WeakMap<XNode, boolean>();
      const hidden = (node: XNode, runtime: Runtime): boolean => {
        const parent = node.parent;
        if (!parent) return false;
        let stops = stopsAt.get(parent);
        if (stops === undefined) {
          stops = hidden(parent, runtime) || firstMatching(rulesFor(unhidden, parent), parent, runtime)?.stops === true;
          stopsAt.set(parent, stops);
        }
        return stops;
      };
      for (const rule of rules) {
        const context = rule.context;
        rule.context = { ...context, matches: (node, runtime) => !hidden(node, runtime) && context.matches(node, runtime) };
      }
      // Hiding depends on what ancestors fired, not on names alone.
      return indexed(rules, false);
    }
    return indexed(rules, true);
  });
  return { globals, patterns, locations: schema.locations ?? "skeleton" };
}

/**
 * A dynamic error while matching a rule context makes the rule not match that node, as on Saxon-HE
 * (XSLT 2.0's recovery action, XSLT 3.0's rule); the node goes on to the pattern's next rules.
 */
function notMatchingOnError(context: MatchPattern): MatchPattern {
  return {
    ...context,
    matches: (node, runtime) => {
      try {
        return context.matches(node, runtime);
      } catch (error) {
        if (error instanceof XPathError) return false;
        throw error;
      }
    },
  };
}

function compileItems(rule: Rule, scope: Scope): CompiledItem[] {
  return rule.items.map((item) => {
    if (item.kind !== "let") return { check: compileCheck(item, rule.subject, scope) };
    // Compiled before its name is declared: a let's expression does not see the let itself.
    const value = compileXPath(letValue(item), scope);
    return { let: value, slot: scope.declare(item.name) };
  });
}

function letValue(let_: Let): string {
  return let_.value ?? fail("XTSE0010", `let $${let_.name} given as element content is not supported natively`);
}

function compileCheck(check: Check, ruleSubject: string | undefined, scope: Scope): CompiledCheck {
  const test = parseXPath(check.test);
  return {
    source: check.test,
    assert: check.kind === "assert",
    test: compileBoolean(test, scope),
    absent: absentAnswer(test, scope),
    ruleId: check.id || null,
    flag: check.flag || null,
    subject: compileXPath(check.subject ?? ruleSubject ?? SELF, scope),
    message: check.message.flatMap((part) => compilePart(part, scope)),
  };
}

function compilePart(part: MessagePart, scope: Scope): CompiledPart[] {
  switch (part.kind) {
    // The XSLT processor strips whitespace-only text nodes of the stylesheet, so they never reach the message.
    case "text":
      return /^[ \t\r\n]*$/.test(part.text) ? [] : [{ text: part.text }];
    case "inline":
      return [{ text: ` ${/^[ \t\r\n]*$/.test(part.text) ? "" : part.text} ` }];
    case "value-of":
      return [{ value: compileXPath(part.select, scope) }];
    case "name":
      return [{ name: compileXPath(part.path ?? SELF, scope) }];
  }
}

/**
 * Milliseconds spent per check (by rule id, else its test) and per rule context match, summed over
 * runs; a lazy let is charged to the first check that forces it. Only for finding hot spots.
 */
export type RuleProfile = Map<string, { ms: number; count: number }>;

/**
 * Whether a failed check's finding is kept, asked once its message is known; a finding not kept
 * gets no location and is not returned (the caller counts it). Its subject and message are still
 * evaluated, so a document that stops the rule file still stops it.
 */
type KeepFinding = (finding: Omit<Finding, "location">) => boolean;

/** Judges one document (bytes or text) with a compiled plan. Throws XPathError when the rules stop on it. */
export function runPlan(plan: Plan, xml: string | Uint8Array | XDocument, profile?: RuleProfile, keep?: KeepFinding): Finding[] {
  const document = typeof xml === "string" || xml instanceof Uint8Array ? readXml(xml) : xml;
  const globals: Frame = [];
  const atRoot = { item: document.node, position: 1, size: 1 };
  for (const { value } of plan.globals) globals.push(new Lazy(value, atRoot, { document, globals, locals: [] }));
  const locator = locatorFor(plan.locations);
  const findings: Finding[] = [];
  const matching: Runtime = { document, globals, locals: [] };
  // One frame for every rule firing: a rule binds its lets before any check reads them, and what
  // a firing binds is read before it ends.
  const firing: Runtime = { document, globals, locals: [] };
  const paths = new DocumentPaths(document);
  for (const pattern of plan.patterns) {
    for (const node of candidates(pattern, document)) {
      if (profile) {
        const started = performance.now();
        const rule = ruleFor(pattern, node, paths, matching);
        charge(profile, `match ${node.qname || "/"}`, started);
        if (rule) fire(rule, node, firing, locator, findings, keep, profile);
        continue;
      }
      const rule = ruleFor(pattern, node, paths, matching);
      if (rule) fire(rule, node, firing, locator, findings, keep);
    }
  }
  return findings;
}

/**
 * A pattern of `rules`, with the by-name lookup that {@link rulesFor} fills on first use, and the
 * by-path one that {@link ruleFor} does where names decide which rules can fire (`byPaths`).
 */
function indexed(rules: CompiledRule[], byPaths: boolean): CompiledPattern {
  const keys = new Set<string>();
  for (const rule of rules) for (const key of rule.context.keys) keys.add(key);
  const elementNames = [...keys].filter((key) => key !== DOCUMENT && key !== ANY_ELEMENT && key !== ANY_ATTRIBUTE).map(splitKey);
  const lexical = rules.some((rule) => rule.context.lexical);
  return { rules, byKey: new Map(), keys, elementNames, lexical, ...(byPaths && { byPath: new Map() }) };
}

/** The rule of `pattern` that fires on `node`: the first whose context matches it. */
function ruleFor(pattern: CompiledPattern, node: XNode, paths: DocumentPaths, runtime: Runtime): CompiledRule | undefined {
  const rules = rulesFor(pattern, node);
  // A single rule too: CII's long absolute contexts (`/rsm:.../ram:IncludedSupplyChainTradeLineItem/
  // .../ram:BilledQuantity`) walk every ancestor through the general matcher, where the path's
  // answer is one map read.
  const byPath = rules.length > 0 ? pattern.byPath : undefined;
  const path = byPath ? paths.of(node) : NO_PATH;
  if (path === NO_PATH) return firstMatching(rules, node, runtime);
  const known = byPath!.get(path);
  // Another prefix for the same names (rare) is answered afresh, and not kept.
  let fitting = known && (!pattern.lexical || known.qname === node.qname) ? known.rules : undefined;
  if (!fitting) {
    fitting = [];
    for (const rule of rules) {
      const fit = rule.context.byNames(node, runtime);
      if (fit !== Fit.No) fitting.push({ rule, sure: fit === Fit.Yes });
    }
    if (!known) byPath!.set(path, { qname: node.qname, rules: fitting });
  }
  for (let i = 0; i < fitting.length; i++) {
    const { rule, sure } = fitting[i];
    if (sure || rule.context.matches(node, runtime)) return rule;
  }
  return undefined;
}

function firstMatching(rules: CompiledRule[], node: XNode, runtime: Runtime): CompiledRule | undefined {
  for (let i = 0; i < rules.length; i++) if (rules[i].context.matches(node, runtime)) return rules[i];
  return undefined;
}

function charge(profile: RuleProfile, key: string, started: number): void {
  const entry = profile.get(key);
  const ms = performance.now() - started;
  if (entry) {
    entry.ms += ms;
    entry.count++;
  } else profile.set(key, { ms, count: 1 });
}

function fire(rule: CompiledRule, node: XNode, runtime: Runtime, locator: FindingLocator, findings: Finding[], keep?: KeepFinding, profile?: RuleProfile): void {
  const focus = { item: node, position: 1, size: 1 };
  for (const item of rule.items()) {
    if ("let" in item) {
      const value = item.let;
      runtime.locals[item.slot] = new Lazy(value, focus, runtime);
      continue;
    }
    const check = item.check;
    const started = profile ? performance.now() : 0;
    const absent = check.absent;
    const value = absent !== null && runtime.document.lacksAnyName(absent.ids) ? absent.value : check.test(focus, runtime);
    const holds = value === check.assert;
    if (profile) charge(profile, check.ruleId ?? check.source, started);
    if (holds) continue;
    const subject = check.subject(focus, runtime);
    // The location's errors come first, as in the stylesheet; the path itself only for a finding kept.
    locator.check(subject);
    let message = "";
    for (const part of check.message) {
      if ("text" in part) message += part.text;
      else if ("value" in part) message += valueOf(part.value(focus, runtime));
      else {
        const named = part.name(focus, runtime);
        if (named.length > 1) fail("XPTY0004", "a sequence of more than one item is not allowed as the argument of name()");
        const target = named[0];
        if (target !== undefined) message += target instanceof XNode ? target.qname : fail("XPTY0004", "name() of an atomic value");
      }
    }
    const finding = { ruleId: check.ruleId, flag: check.flag, message: normalizeMessage(message) };
    if (keep && !keep(finding)) continue;
    findings.push({ ruleId: finding.ruleId, flag: finding.flag, location: locator.locate(subject), message: finding.message });
  }
}

/** The nodes a pattern's rules can match, in document order. */
function candidates(pattern: CompiledPattern, document: XDocument): readonly XNode[] {
  const { keys } = pattern;
  if (keys.has(ANY_ATTRIBUTE)) return document.nodes.filter((node) => node.kind !== Kind.Text && node.kind !== Kind.Comment && node.kind !== Kind.ProcessingInstruction);
  const lists: (readonly XNode[])[] = [];
  if (keys.has(DOCUMENT)) lists.push([document.node]);
  if (keys.has(ANY_ELEMENT)) lists.push(document.elements);
  else for (const [ns, local] of pattern.elementNames) lists.push(document.named(ns, local));
  const nonEmpty = lists.filter((list) => list.length);
  if (nonEmpty.length <= 1) return nonEmpty[0] ?? [];
  // Merged by order number, in one pass over the document instead of a sort.
  const picked = new Uint8Array(document.nodes.length);
  for (const list of nonEmpty) for (const node of list) picked[node.order] = 1;
  const merged: XNode[] = [];
  for (let order = 0; order < picked.length; order++) if (picked[order]) merged.push(document.nodes[order]);
  return merged;
}

function splitKey(key: string): [string, string] {
  if (!key.startsWith("{")) return ["", key];
  const close = key.indexOf("}");
  return [key.slice(1, close), key.slice(close + 1)];
}

function rulesFor(pattern: CompiledPattern, node: XNode): CompiledRule[] {
  if (node.kind === Kind.Element) {
    const id = node.nameId;
    // A name the full table left unnumbered is looked up by its key string.
    if (id === UNNUMBERED) return rulesForKey(pattern, nameKey(node.ns, node.local), node);
    const byNameId = (pattern.byNameId ??= new Map());
    let rules = byNameId.get(id);
    if (!rules) byNameId.set(id, (rules = rulesForKey(pattern, nameKey(node.ns, node.local), node)));
    return rules;
  }
  return rulesForKey(pattern, node.kind === Kind.Document ? DOCUMENT : ANY_ATTRIBUTE, node);
}

function rulesForKey(pattern: CompiledPattern, key: string, node: XNode): CompiledRule[] {
  let rules = pattern.byKey.get(key);
  if (!rules) {
    const wildcard = node.kind === Kind.Element ? ANY_ELEMENT : null;
    rules = pattern.rules.filter((rule) => rule.context.keys.includes(key) || (wildcard !== null && rule.context.keys.includes(wildcard)));
    pattern.byKey.set(key, rules);
  }
  return rules;
}
