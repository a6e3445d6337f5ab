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
import type { Check, Let, MessagePart, Schema } from "../schematron/model.ts";
import type { Finding } from "../validation/svrl.ts";
import { Kind, nameKey, XNode, type XDocument } from "./document.ts";
import { locatorFor, normalizeMessage, valueOf, type FindingLocator, type LocationStyle } from "./location.ts";
import { ANY_ATTRIBUTE, ANY_ELEMENT, compilePattern, DOCUMENT, type MatchPattern } from "./match.ts";
import { readXml } from "./xml-reader.ts";
import { compileFunctions } from "./xslt-function.ts";
import { compileXPath } from "./xpath/compile.ts";
import { Lazy, Scope, type Evaluate, type Frame, type Runtime } from "./xpath/context.ts";
import { fail } from "./xpath/errors.ts";
import { effectiveBoolean } from "./xpath/values.ts";

type CompiledPart = { text: string } | { value: Evaluate } | { name: Evaluate };

interface CompiledCheck {
  assert: boolean;
  test: Evaluate;
  ruleId: string | null;
  flag: string | null;
  subject: Evaluate;
  message: CompiledPart[];
}

type CompiledItem = { let: Evaluate; slot: number } | { check: CompiledCheck };

interface CompiledRule {
  context: MatchPattern;
  items: CompiledItem[];
}

interface CompiledPattern {
  rules: CompiledRule[];
  /** Rules by index key, in rule order; wildcard rules are merged into each key's list on first use. */
  byKey: Map<string, CompiledRule[]>;
  keys: Set<string>;
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
  const functions = compileFunctions(schema.xslt, stylesheetNamespaces, globalSlots);
  const scope = () => new Scope(namespaces, globalSlots, functions);
  const globals = globalLets.map((let_) => ({ value: compileXPath(letValue(let_), scope()) }));
  const patterns = schema.patterns.map((pattern) => {
    const rules = pattern.rules.map((rule) => {
      const ruleScope = scope();
      const items: CompiledItem[] = [];
      for (const item of rule.items) {
        if (item.kind === "let") {
          const value = compileXPath(letValue(item), ruleScope);
          items.push({ let: value, slot: ruleScope.declare(item.name) });
        } else items.push({ check: compileCheck(item, rule.subject, ruleScope) });
      }
      return { context: compilePattern(rule.context, scope()), items };
    });
    const byKey = new Map<string, CompiledRule[]>();
    const keys = new Set<string>();
    for (const rule of rules) for (const key of rule.context.keys) keys.add(key);
    return { rules, byKey, keys };
  });
  return { globals, patterns, locations: schema.locations ?? "skeleton" };
}

function letValue(let_: Let): string {
  return let_.value ?? fail("XTSE0010", `let $${let_.name} given as element content is not supported natively`);
}

function compileCheck(check: Check, ruleSubject: string | undefined, scope: Scope): CompiledCheck {
  return {
    assert: check.kind === "assert",
    test: compileXPath(check.test, scope),
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

/** Judges one document (bytes or text) with a compiled plan. Throws XPathError when the rules stop on it. */
export function runPlan(plan: Plan, xml: string | Uint8Array | XDocument): Finding[] {
  const document = typeof xml === "string" || xml instanceof Uint8Array ? readXml(xml) : xml;
  const globals: Frame = plan.globals.map(
    ({ value }) => new Lazy(() => value({ item: document.node, position: 1, size: 1 }, { document, globals, locals: [] })),
  );
  const locator = locatorFor(plan.locations);
  const findings: Finding[] = [];
  const matching: Runtime = { document, globals, locals: [] };
  for (const pattern of plan.patterns) {
    for (const node of candidates(pattern, document)) {
      const rule = rulesFor(pattern, node).find((candidate) => candidate.context.matches(node, matching));
      if (rule) fire(rule, node, { document, globals, locals: [] }, locator, findings);
    }
  }
  return findings;
}

function fire(rule: CompiledRule, node: XNode, runtime: Runtime, locator: FindingLocator, findings: Finding[]): void {
  const focus = { item: node, position: 1, size: 1 };
  for (const item of rule.items) {
    if ("let" in item) {
      const value = item.let;
      runtime.locals[item.slot] = new Lazy(() => value(focus, runtime));
      continue;
    }
    const check = item.check;
    if (effectiveBoolean(check.test(focus, runtime)) === check.assert) continue;
    const location = locator.locate(check.subject(focus, runtime));
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
    findings.push({ ruleId: check.ruleId, flag: check.flag, location, message: normalizeMessage(message) });
  }
}

/** The nodes a pattern's rules can match, in document order. */
function candidates(pattern: CompiledPattern, document: XDocument): readonly XNode[] {
  const { keys } = pattern;
  if (keys.has(ANY_ATTRIBUTE)) return document.nodes.filter((node) => node.kind !== Kind.Text && node.kind !== Kind.Comment && node.kind !== Kind.ProcessingInstruction);
  const lists: (readonly XNode[])[] = [];
  if (keys.has(DOCUMENT)) lists.push([document.node]);
  if (keys.has(ANY_ELEMENT)) lists.push(document.elements);
  else {
    for (const key of keys) {
      if (key === DOCUMENT) continue;
      const [ns, local] = splitKey(key);
      lists.push(document.named(ns, local));
    }
  }
  const nonEmpty = lists.filter((list) => list.length);
  if (nonEmpty.length <= 1) return nonEmpty[0] ?? [];
  return nonEmpty.flat().sort((a, b) => a.order - b.order);
}

function splitKey(key: string): [string, string] {
  if (!key.startsWith("{")) return ["", key];
  const close = key.indexOf("}");
  return [key.slice(1, close), key.slice(close + 1)];
}

function rulesFor(pattern: CompiledPattern, node: XNode): CompiledRule[] {
  const key = node.kind === Kind.Document ? DOCUMENT : node.kind === Kind.Attribute ? ANY_ATTRIBUTE : nameKey(node.ns, node.local);
  let rules = pattern.byKey.get(key);
  if (!rules) {
    const wildcard = node.kind === Kind.Element ? ANY_ELEMENT : null;
    rules = pattern.rules.filter((rule) => rule.context.keys.includes(key) || (wildcard !== null && rule.context.keys.includes(wildcard)));
    pattern.byKey.set(key, rules);
  }
  return rules;
}
