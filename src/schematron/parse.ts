/**
 * Front end: reads an ISO Schematron file (queryBinding xslt2) into the model of `model.ts`.
 *
 * Resolution follows the ISO reference pipeline (iso_dsdl_include, abstract pattern expansion, skeleton)
 * and, where implementations differ, the one that produced the CEN-published XSLT, so that the
 * compiled rules judge documents exactly as the authorities' stylesheets do:
 * - `sch:include` is replaced by the included document's root element when that is a Schematron
 *   element, otherwise by the root's Schematron children; `href#id` picks the element with that id.
 *   Includes may appear anywhere (whole patterns, rules, lets, asserts) and nest.
 * - A pattern with `is-a` becomes a copy of the abstract pattern, keeping its own id, in which each
 *   `$name` of a `sch:param` is replaced by the parameter's text (see `substitution`) in `context`,
 *   `test`, `select`, `value`, `flag` and `sch:name/@path` attributes and in message text.
 * - `sch:extends rule="id"` inlines the abstract rule's lets and checks, looked up in the same
 *   pattern first and then in the whole schema, like the skeleton does.
 * - Every pattern runs, unless a {@link PatternSelection} names a phase (its active patterns run, as
 *   the skeleton's `phase` parameter does) or patterns to leave out.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { DOMParser, XMLSerializer, type Document, type Element, type Node } from "@xmldom/xmldom";
import { SchematronError } from "./error.ts";
import type { PatternSelection } from "../profiles/record.ts";
import type {
  Check,
  Let,
  MessagePart,
  Namespace,
  Origin,
  Pattern,
  Rule,
  RuleItem,
  Schema,
  XsltDeclaration,
} from "./model.ts";

const SCH_NS = "http://purl.oclc.org/dsdl/schematron";
export const XSL_NS = "http://www.w3.org/1999/XSL/Transform";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/** An element with the file it was read from (after includes, one schema mixes several files). */
interface Source {
  el: Element;
  file: string;
  /** Include targets leading here, to refuse include cycles. */
  chain: string[];
  /** Documents read so far in this parse, by absolute path. */
  documents: Map<string, Document>;
}

/** Parameter substitution of an abstract pattern instance (identity elsewhere). */
type Substitute = (text: string) => string;
const verbatim: Substitute = (text) => text;

interface Context {
  abstractPatterns: Map<string, Source>;
  /** Every pattern, abstract or not, where `sch:extends` may find an abstract rule. */
  allPatterns: Source[];
}

/** Reads `schPath` and everything it includes into a resolved {@link Schema}: all its patterns, or those selected. */
export function parseSchematron(schPath: string, selection?: PatternSelection): Schema {
  const file = resolve(schPath);
  const documents = new Map<string, Document>();
  const root: Source = { el: loadDocument(file, documents, undefined).documentElement!, file, chain: [file], documents };
  if (!isSch(root.el, "schema")) {
    fail(root, `expected an ISO Schematron <schema> root in namespace ${SCH_NS}`);
  }
  const queryBinding = attr(root.el, "queryBinding");
  if (queryBinding !== "xslt2") {
    fail(root, `queryBinding "${queryBinding ?? ""}" is not supported, only "xslt2"`);
  }
  const schema: Schema = {
    file,
    schemaVersion: attr(root.el, "schemaVersion"),
    queryBinding,
    namespaces: [],
    lets: [],
    xslt: [],
    patterns: [],
  };
  const concrete: Source[] = [];
  const phases = new Map<string, string[]>();
  const context: Context = { abstractPatterns: new Map(), allPatterns: [] };
  for (const child of children(root)) {
    if (child.el.namespaceURI === XSL_NS) {
      schema.xslt.push(parseXsltDeclaration(child));
      continue;
    }
    switch (schLocalName(child)) {
      case "title":
        schema.title = child.el.textContent ?? "";
        break;
      case "ns":
        schema.namespaces.push(parseNamespace(child));
        break;
      case "let":
        schema.lets.push(parseLet(child, verbatim));
        break;
      case "pattern":
        context.allPatterns.push(child);
        if (attr(child.el, "abstract") === "true") registerAbstract(child, context);
        else concrete.push(child);
        break;
      case "phase":
        phases.set(requiredAttr(child, "id"), parsePhase(child));
        break;
      // Paragraphs and diagnostics carry no findings.
      case "p":
      case "diagnostics":
        break;
      default:
        fail(child, "unsupported at schema level");
    }
  }
  schema.patterns = select(root, concrete, phases, selection).map((pattern) => parsePattern(pattern, context));
  return schema;
}

/** The active patterns a phase names; a phase's own lets would change what its patterns test. */
function parsePhase(phase: Source): string[] {
  return children(phase).map((child) => {
    if (schLocalName(child) !== "active") fail(child, "unsupported in <phase>");
    return requiredAttr(child, "pattern");
  });
}

/** The concrete patterns a selection keeps; a name it gives that the schema lacks is refused, never ignored. */
function select(root: Source, patterns: Source[], phases: Map<string, string[]>, selection: PatternSelection | undefined): Source[] {
  if (!selection) return patterns;
  const inPhase = "phase" in selection;
  const named = inPhase ? (phases.get(selection.phase) ?? fail(root, `no phase "${selection.phase}"`)) : selection.without;
  const idOf = (pattern: Source) => attr(pattern.el, "id") ?? "";
  const unknown = named.filter((id) => !patterns.some((p) => idOf(p) === id));
  if (unknown.length) fail(root, `no pattern ${unknown.map((id) => `"${id}"`).join(", ")}`);
  return patterns.filter((p) => named.includes(idOf(p)) === inPhase);
}

function registerAbstract(pattern: Source, context: Context): void {
  const id = attr(pattern.el, "id");
  if (!id) fail(pattern, "an abstract pattern needs an id");
  if (context.abstractPatterns.has(id)) fail(pattern, `abstract pattern id "${id}" is declared twice`);
  context.abstractPatterns.set(id, pattern);
}

function parsePattern(pattern: Source, context: Context): Pattern {
  const id = attr(pattern.el, "id");
  const isA = attr(pattern.el, "is-a");
  if (attr(pattern.el, "documents")) fail(pattern, "@documents (rules on other documents) is not supported");
  if (isA === undefined) return parsePatternBody(pattern, verbatim, context, { id, origin: origin(pattern) });

  const abstract = context.abstractPatterns.get(isA);
  if (!abstract) fail(pattern, `is-a="${isA}" names no abstract pattern`);
  const params = new Map<string, string>();
  for (const child of children(pattern)) {
    const name = schLocalName(child);
    if (name === "param") {
      // A repeated parameter takes its last value: the CEN EN 16931 CII binding gives CII-SR-282 twice
      // and the published CEN XSLT (ph-schematron's expansion) tests the second value.
      params.set(requiredAttr(child, "name"), requiredAttr(child, "value"));
    } else if (name !== "title" && name !== "p") {
      // The ISO expansion keeps only the parameters of an instance; anything else would be silently lost.
      fail(child, `a pattern with is-a="${isA}" may only contain <param>`);
    }
  }
  return parsePatternBody(abstract, substitution(params), context, { id, isA, origin: origin(pattern) });
}

/**
 * Replaces each `$name` of a parameter by its text, as plain substrings, longest name first so that
 * `$Invoice` cannot rewrite part of `$Invoice_Line`. This is the expansion that produced the published
 * CEN XSLT (ph-schematron); it also honours names with a trailing space (`"Additional_supporting_documents "`),
 * which the CEN bindings contain and a token-based reading would miss.
 */
function substitution(params: Map<string, string>): Substitute {
  const longestFirst = [...params].sort(([a], [b]) => b.length - a.length);
  // A replacer function, because a replacement string would read `$'` in a regex value as a special pattern.
  return (text) => longestFirst.reduce((result, [name, value]) => result.replaceAll(`$${name}`, () => value), text);
}

function parsePatternBody(
  body: Source,
  substitute: Substitute,
  context: Context,
  head: Pick<Pattern, "id" | "isA" | "origin">,
): Pattern {
  const pattern: Pattern = { ...head, lets: [], rules: [] };
  for (const child of children(body)) {
    switch (schLocalName(child)) {
      case "title":
        pattern.title = child.el.textContent ?? "";
        break;
      case "let":
        pattern.lets.push(parseLet(child, substitute));
        break;
      case "rule":
        if (attr(child.el, "abstract") !== "true") pattern.rules.push(parseRule(child, body, substitute, context));
        break;
      case "p":
        break;
      default:
        fail(child, "unsupported in <pattern>");
    }
  }
  return pattern;
}

function parseRule(rule: Source, pattern: Source, substitute: Substitute, context: Context): Rule {
  return {
    id: attr(rule.el, "id"),
    context: substitute(requiredAttr(rule, "context")),
    flag: optional(attr(rule.el, "flag"), substitute),
    role: attr(rule.el, "role"),
    subject: attr(rule.el, "subject"),
    items: parseRuleBody(rule, pattern, substitute, context, []),
    origin: origin(rule),
  };
}

function parseRuleBody(
  rule: Source,
  pattern: Source,
  substitute: Substitute,
  context: Context,
  extending: string[],
): RuleItem[] {
  const items: RuleItem[] = [];
  for (const child of children(rule)) {
    switch (schLocalName(child)) {
      case "let":
        items.push(parseLet(child, substitute));
        break;
      case "assert":
      case "report":
        items.push(parseCheck(child, substitute));
        break;
      case "extends": {
        const base = findAbstractRule(child, pattern, context);
        const key = `${base.file}:${origin(base).line}`;
        if (extending.includes(key)) fail(child, "abstract rules extend each other in a cycle");
        items.push(...parseRuleBody(base, pattern, substitute, context, [...extending, key]));
        break;
      }
      case "title":
      case "p":
        break;
      default:
        fail(child, "unsupported in <rule>");
    }
  }
  return items;
}

function findAbstractRule(extend: Source, pattern: Source, context: Context): Source {
  const href = attr(extend.el, "href");
  if (href !== undefined) {
    const [base] = includeTargets(extend, href);
    if (!base || !isSch(base.el, "rule")) fail(extend, `href="${href}" does not name a <rule>`);
    return base;
  }
  const id = requiredAttr(extend, "rule");
  const isTarget = (candidate: Source) =>
    isSch(candidate.el, "rule") && attr(candidate.el, "abstract") === "true" && attr(candidate.el, "id") === id;
  const local = children(pattern).find(isTarget);
  if (local) return local;
  for (const other of context.allPatterns) {
    const found = children(other).find(isTarget);
    if (found) return found;
  }
  return fail(extend, `rule="${id}" names no abstract rule`);
}

function parseCheck(check: Source, substitute: Substitute): Check {
  return {
    kind: schLocalName(check) as Check["kind"],
    id: attr(check.el, "id"),
    test: substitute(requiredAttr(check, "test")),
    flag: optional(attr(check.el, "flag"), substitute),
    role: attr(check.el, "role"),
    subject: attr(check.el, "subject"),
    message: parseMessage(check, substitute),
    origin: origin(check),
  };
}

function parseMessage(check: Source, substitute: Substitute): MessagePart[] {
  const parts: MessagePart[] = [];
  // Comments split text nodes; the ISO pipeline concatenates the pieces, so adjacent text is merged.
  const addText = (text: string) => {
    const last = parts.at(-1);
    if (last?.kind === "text") last.text += text;
    else parts.push({ kind: "text", text });
  };
  for (const node of Array.from(check.el.childNodes)) {
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) {
      addText(substitute(node.nodeValue ?? ""));
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE) continue;
    const part: Source = { ...check, el: node as Element };
    switch (schLocalName(part)) {
      case "value-of":
        parts.push({ kind: "value-of", select: substitute(requiredAttr(part, "select")) });
        break;
      case "name": {
        const path = attr(part.el, "path");
        parts.push(path === undefined ? { kind: "name" } : { kind: "name", path: substitute(path) });
        break;
      }
      case "emph":
      case "dir":
      case "span":
        parts.push({ kind: "inline", text: substitute(part.el.textContent ?? "") });
        break;
      default:
        fail(part, "unsupported in an assertion message");
    }
  }
  return parts;
}

function parseLet(let_: Source, substitute: Substitute): Let {
  const name = requiredAttr(let_, "name");
  const value = attr(let_.el, "value");
  if (value !== undefined) return { kind: "let", name, value: substitute(value), origin: origin(let_) };
  const content = Array.from(let_.el.childNodes)
    .map((node) => (node.nodeType === ELEMENT_NODE ? serializeInScope(node as Element) : serializeNode(node)))
    .join("");
  return { kind: "let", name, content, origin: origin(let_) };
}

function parseNamespace(ns: Source): Namespace {
  return { prefix: requiredAttr(ns, "prefix"), uri: requiredAttr(ns, "uri"), origin: origin(ns) };
}

function parseXsltDeclaration(declaration: Source): XsltDeclaration {
  const kind = declaration.el.localName;
  if (kind !== "function" && kind !== "key") fail(declaration, "only xsl:function and xsl:key are allowed in a schema");
  return { kind, name: requiredAttr(declaration, "name"), xml: serializeInScope(declaration.el), origin: origin(declaration) };
}

/** Serializes an element so that it carries every namespace binding in scope where it was written. */
function serializeInScope(el: Element): string {
  const copy = el.cloneNode(true) as Element;
  for (const [prefix, uri] of inScopeNamespaces(el)) {
    const name = prefix ? `xmlns:${prefix}` : "xmlns";
    if (!copy.hasAttribute(name)) copy.setAttributeNS(XMLNS_NS, name, uri);
  }
  return new XMLSerializer().serializeToString(copy);
}

function serializeNode(node: Node): string {
  return new XMLSerializer().serializeToString(node);
}

function inScopeNamespaces(el: Element): Map<string, string> {
  const bindings = new Map<string, string>();
  for (let at: Node | null = el; at && at.nodeType === ELEMENT_NODE; at = at.parentNode) {
    for (const a of Array.from((at as Element).attributes)) {
      const prefix = a.name === "xmlns" ? "" : a.name.startsWith("xmlns:") ? a.name.slice(6) : undefined;
      if (prefix !== undefined && !bindings.has(prefix)) bindings.set(prefix, a.value);
    }
  }
  return bindings;
}

/** The element children of `parent`, with every `sch:include` replaced by what it includes. */
function children(parent: Source): Source[] {
  const out: Source[] = [];
  for (const node of Array.from(parent.el.childNodes)) {
    if (node.nodeType !== ELEMENT_NODE) continue;
    const child: Source = { ...parent, el: node as Element };
    if (isSch(child.el, "include")) out.push(...resolveInclude(child));
    else out.push(child);
  }
  return out;
}

function resolveInclude(include: Source): Source[] {
  const out: Source[] = [];
  for (const target of includeTargets(include, requiredAttr(include, "href"))) {
    if (isSch(target.el, "include")) out.push(...resolveInclude(target));
    else if (isSch(target.el, "schema")) fail(include, "includes a whole <schema>, which ISO Schematron forbids");
    else out.push(target);
  }
  return out;
}

function includeTargets(include: Source, href: string): Source[] {
  const [path = "", fragment = ""] = href.trim().split("#", 2);
  const file = path ? resolve(dirname(include.file), decodeURI(path)) : include.file;
  const key = `${file}#${fragment}`;
  if (include.chain.includes(key)) fail(include, `href="${href}" includes itself (cycle)`);
  const root = loadDocument(file, include.documents, include).documentElement!;
  const chain = [...include.chain, key];
  const documents = include.documents;
  if (fragment) {
    const found = Array.from(root.ownerDocument!.getElementsByTagNameNS(SCH_NS, "*")).find(
      (el) => el.getAttribute("id") === fragment,
    );
    if (!found) fail(include, `href="${href}": no Schematron element with id "${fragment}" in ${file}`);
    return [{ el: found, file, chain, documents }];
  }
  // A Schematron root is included itself; any other root is a container whose Schematron children are included.
  if (root.namespaceURI === SCH_NS || root.namespaceURI === XSL_NS) return [{ el: root, file, chain, documents }];
  return Array.from(root.childNodes)
    .filter((node): node is Element => node.nodeType === ELEMENT_NODE && (node as Element).namespaceURI === SCH_NS)
    .map((el) => ({ el, file, chain, documents }));
}

function loadDocument(file: string, documents: Map<string, Document>, includedBy: Source | undefined): Document {
  const cached = documents.get(file);
  if (cached) return cached;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (includedBy) fail(includedBy, `cannot read ${file}: ${(error as Error).message}`);
    throw new Error(`cannot read Schematron file ${file}: ${(error as Error).message}`);
  }
  const document = new DOMParser({
    onError: (level: string, message: string) => {
      if (level !== "warning") throw new Error(`${file}: not well-formed XML: ${message}`);
    },
  }).parseFromString(text, "text/xml");
  documents.set(file, document);
  return document;
}

function isSch(el: Element, localName: string): boolean {
  return el.namespaceURI === SCH_NS && el.localName === localName;
}

/** The local name of a Schematron element; any element of another namespace is an error here. */
function schLocalName(source: Source): string {
  if (source.el.namespaceURI !== SCH_NS) fail(source, `unexpected element outside the Schematron namespace`);
  return source.el.localName!;
}

function attr(el: Element, name: string): string | undefined {
  return el.hasAttribute(name) ? el.getAttribute(name)! : undefined;
}

function requiredAttr(source: Source, name: string): string {
  const value = attr(source.el, name);
  if (value === undefined) fail(source, `missing @${name}`);
  return value;
}

function optional(value: string | undefined, substitute: Substitute): string | undefined {
  return value === undefined ? undefined : substitute(value);
}

function origin(source: Source): Origin {
  return { file: source.file, line: (source.el as unknown as { lineNumber?: number }).lineNumber ?? 0 };
}

function fail(source: Source, problem: string): never {
  throw new SchematronError(origin(source), source.el.tagName, problem);
}
