/**
 * Reads an XSLT written by SchXslt 1.10 back into the rule model, so the native engine runs exactly
 * the published file the seal names. What SchXslt writes, and how it maps:
 *
 * - top-level `xsl:param`/`xsl:variable` (schema and pattern lets) become schema lets, and every
 *   other `xsl:function` an {@link XsltDeclaration}; `schxslt:location` is the location form
 *   (`locations: "schxslt"`), checked to be the function this reader implements;
 * - the `match="root()"` template calls one named template per pattern group; each writes a
 *   `schxslt:document` listing its patterns (`schxslt:pattern`) and applies templates in the group's
 *   mode to the document. The final report is assembled per pattern, in that listing order, from
 *   the `schxslt:rule` results in traversal order: findings are grouped by pattern, nodes in
 *   document order (element, its attributes, its children), as `runPlan` produces them;
 * - a rule is a template of the group's mode. All rules of all patterns of a group share the mode,
 *   chained by `xsl:next-match` in priority order, and a rule whose pattern already fired on the
 *   node is shadowed: per pattern the first matching rule by priority wins, which is the model's
 *   rule order. Its `xsl:variable`s (before the shadowing test) are the rule's lets;
 * - an assert is `xsl:if test="not(T)"` around `svrl:failed-assert`, a report `xsl:if test="T"`
 *   around `svrl:successful-report`; id, flag and role are literal attributes, the location is
 *   `{schxslt:location(SUBJECT)}`, the message `svrl:text` of text and `xsl:value-of`.
 *
 * Everything else SchXslt writes (fired/suppressed-rule records, active patterns, metadata) cannot
 * change a finding; it is checked to have the known shape rather than skipped blindly. Any other
 * shape throws XTSE0010, and the entry runs on SaxonJS instead.
 */
import { DOMParser, XMLSerializer, type Element, type Node } from "@xmldom/xmldom";
import type { Check, Let, MessagePart, Namespace, Origin, Pattern, Rule, Schema, XsltDeclaration } from "../../schematron/model.ts";
import type { Expr } from "../xpath/ast.ts";
import { fail } from "../xpath/errors.ts";
import { parseXPath } from "../xpath/parser.ts";

const XSL_NS = "http://www.w3.org/1999/XSL/Transform";
const SVRL_NS = "http://purl.oclc.org/dsdl/svrl";
const SCHXSLT_NS = "https://doi.org/10.5281/zenodo.1495494";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/** Only an entry point for running the stylesheet without a source document (`-it`); the service always passes one. */
const INITIAL_DOCUMENT_PARAM = "schxslt.validate.initial-document-uri";
const PATTERNS_MATCHED = "schxslt:patterns-matched";

export function readSchxslt(text: string, file: string): Schema {
  return new Reader(text, file).read();
}

interface RuleTemplate {
  pattern: string;
  priority: number;
  rule: Rule;
}

class Reader {
  private readonly root: Element;
  private readonly namespaces = new Map<string, string>();

  constructor(
    text: string,
    private readonly file: string,
  ) {
    const document = new DOMParser({
      onError: (level: string, message: string) => {
        if (level !== "warning") fail("XTSE0010", `${file}: not well-formed XML: ${message}`);
      },
    }).parseFromString(text, "text/xml");
    this.root = document.documentElement ?? fail("XTSE0010", `${file}: no root element`);
    if (!isXsl(this.root, "transform") && !isXsl(this.root, "stylesheet")) this.refuse(this.root, "a root element other than xsl:transform");
    for (const [prefix, uri] of declarations(this.root)) if (prefix) this.namespaces.set(prefix, uri);
    this.checkDeclarations(this.root);
  }

  read(): Schema {
    const lets: Let[] = [];
    const xslt: XsltDeclaration[] = [];
    const templates: Element[] = [];
    let locationFunction = false;
    for (const el of elementChildren(this.root)) {
      // XSLT ignores top-level elements outside its namespace (SchXslt's rdf:Description metadata).
      if (el.namespaceURI !== XSL_NS) continue;
      switch (el.localName) {
        case "output":
          continue;
        case "function":
          if (this.expandedName(el, this.required(el, "name")) === `{${SCHXSLT_NS}}location`) {
            this.checkLocationFunction(el);
            locationFunction = true;
          } else xslt.push({ kind: "function", name: this.required(el, "name"), xml: serializeInScope(el), origin: this.origin(el) });
          continue;
        case "param":
          if (el.getAttribute("name") === INITIAL_DOCUMENT_PARAM) {
            this.only(el, ["name", "as"]);
            if (elementChildren(el).length || el.hasAttribute("select")) this.refuse(el, `a default value for $${INITIAL_DOCUMENT_PARAM}`);
            continue;
          }
          lets.push(this.readLet(el));
          continue;
        case "variable":
          lets.push(this.readLet(el));
          continue;
        case "template":
          templates.push(el);
          continue;
        default:
          this.refuse(el, `top-level xsl:${el.localName}`);
      }
    }
    if (!locationFunction) this.refuse(this.root, "no schxslt:location function");

    const root = templates.find((el) => el.getAttribute("match") === "root()" && !el.hasAttribute("mode")) ?? this.refuse(this.root, "no match=\"root()\" template");
    const { groups, title } = this.readRootTemplate(root);
    const modes = new Set<string>();
    const patterns: Pattern[] = [];
    const patternById = new Map<string, Pattern>();
    const modeOfPattern = new Map<string, string>();
    for (const name of groups) {
      const template = templates.find((el) => el.getAttribute("name") === name) ?? this.refuse(root, `no template named ${name}`);
      const group = this.readGroupTemplate(template);
      modes.add(group.mode);
      for (const [id, pattern] of group.ids) {
        patternById.set(id, pattern);
        modeOfPattern.set(id, group.mode);
        patterns.push(pattern);
      }
    }

    const rules: RuleTemplate[] = [];
    let builtIns = 0;
    for (const template of templates) {
      if (template === root || groups.includes(template.getAttribute("name") ?? "")) continue;
      if (template.getAttribute("name") === "schxslt.validate") {
        this.checkValidateTemplate(template);
        continue;
      }
      const mode = template.getAttribute("mode") ?? "";
      if (mode === "#all") {
        this.checkBuiltIn(template);
        builtIns++;
        continue;
      }
      if (!modes.has(mode)) this.refuse(template, `a template in mode "${mode}", which no pattern group applies`);
      const rule = this.readRuleTemplate(template);
      if (modeOfPattern.get(rule.pattern) !== mode) this.refuse(template, `a rule of pattern ${rule.pattern} in mode ${mode}`);
      rules.push(rule);
    }
    if (builtIns !== BUILT_INS.size) this.refuse(this.root, "not the three built-in traversal templates");

    for (const [id, pattern] of patternById) {
      const own = rules.filter((rule) => rule.pattern === id).sort((a, b) => b.priority - a.priority);
      own.forEach((rule, i) => {
        if (i && rule.priority === own[i - 1].priority) this.refuse(this.root, `two rules of pattern ${id} with priority ${rule.priority}`);
      });
      pattern.rules = own.map((rule) => rule.rule);
    }

    const namespaces: Namespace[] = [...this.namespaces].map(([prefix, uri]) => ({ prefix, uri, origin: this.origin(this.root) }));
    return { file: this.file, title, queryBinding: "xslt2", namespaces, lets, xslt, patterns, locations: "schxslt" };
  }

  /** The pattern groups called, in order, and how their results are assembled into the report. */
  private readRootTemplate(template: Element): { groups: string[]; title?: string } {
    const report = descendants(template).find((el) => el.namespaceURI === SCHXSLT_NS && el.localName === "report") ?? this.refuse(template, "no schxslt:report");
    const groups = elementChildren(report).map((call) => {
      if (!isXsl(call, "call-template")) this.refuse(call, "content of schxslt:report other than xsl:call-template");
      return this.required(call, "name");
    });
    const assembly = descendants(template).find((el) => isXsl(el, "variable") && el.getAttribute("name") === "schxslt:report") ?? this.refuse(template, "no $schxslt:report");
    // Per schxslt:document, per pattern: the pattern's own output, then the rules' output for it in traversal order.
    const selects = descendants(assembly).map((el) => `${el.localName}:${el.getAttribute("select")}`);
    const expected = ["sequence:$metadata", "for-each:$report/schxslt:document", "for-each:schxslt:pattern", "sequence:node()", "sequence:../schxslt:rule[@pattern = current()/@id]/node()"];
    if (selects.join("\n") !== expected.join("\n")) this.refuse(assembly, "a report assembled in an unknown way");
    const output = descendants(template).find((el) => el.namespaceURI === SVRL_NS && el.localName === "schematron-output");
    return { groups, title: output?.getAttribute("title") ?? undefined };
  }

  /** A pattern group: its mode and its patterns in report order (rules are filled in later). */
  private readGroupTemplate(template: Element): { mode: string; ids: Map<string, Pattern> } {
    const [document, ...rest] = elementChildren(template);
    if (!document || rest.length || document.namespaceURI !== SCHXSLT_NS || document.localName !== "document") this.refuse(template, "a pattern group without exactly one schxslt:document");
    const ids = new Map<string, Pattern>();
    let mode: string | undefined;
    for (const el of elementChildren(document)) {
      if (mode !== undefined) this.refuse(el, "content after the group's xsl:apply-templates");
      if (el.namespaceURI === SCHXSLT_NS && el.localName === "pattern") {
        const id = this.required(el, "id");
        if (ids.has(id)) this.refuse(el, `pattern ${id} listed twice`);
        const active = descendants(el).find((node) => node.namespaceURI === SVRL_NS && node.localName === "active-pattern");
        this.checkInert(el, ["exists(base-uri(root()))", "base-uri(root())", "root()", "base-uri(.)"]);
        const name = active?.getAttribute("name") || undefined;
        const patternId = active?.getAttribute("id") || undefined;
        ids.set(id, { id: patternId, title: name !== patternId ? name : undefined, lets: [], rules: [], origin: this.origin(el) });
      } else if (isXsl(el, "apply-templates")) {
        this.only(el, ["mode", "select"]);
        // Patterns with @documents apply to other documents than the one validated: not modelled.
        if (el.getAttribute("select") !== "root()") this.refuse(el, `a pattern group applied to ${el.getAttribute("select")}`);
        mode = this.required(el, "mode");
      } else this.refuse(el, "unknown content of schxslt:document");
    }
    if (mode === undefined) this.refuse(document, "a pattern group that applies no templates");
    return { mode, ids };
  }

  private readRuleTemplate(template: Element): RuleTemplate {
    this.only(template, ["match", "priority", "mode"]);
    const context = this.required(template, "match");
    const priority = Number(this.required(template, "priority"));
    // The built-in traversal templates have priority -10: a rule must come before them in the chain.
    if (!Number.isFinite(priority) || priority <= -10) this.refuse(template, `rule priority ${template.getAttribute("priority")}`);
    this.checkContext(template, context);
    const [param, ...body] = elementChildren(template);
    if (!param || !isXsl(param, "param") || param.getAttribute("name") !== PATTERNS_MATCHED) this.refuse(template, `a rule template without the $${PATTERNS_MATCHED} parameter first`);
    const choose = body.pop();
    if (!choose || !isXsl(choose, "choose")) this.refuse(template, "a rule template not ending in xsl:choose");
    const lets = body.map((el) => (isXsl(el, "variable") ? this.readLet(el) : this.refuse(el, "rule template content other than xsl:variable before xsl:choose")));
    const [when, otherwise, ...more] = elementChildren(choose);
    if (!when || !otherwise || more.length || !isXsl(when, "when") || !isXsl(otherwise, "otherwise")) this.refuse(choose, "not the when/otherwise of a shadowing test");
    const pattern = /^\$schxslt:patterns-matched\[\. = '([^']*)'\]$/.exec(when.getAttribute("test") ?? "")?.[1] ?? this.refuse(when, "an unknown shadowing test");
    this.checkShadowed(when, pattern);
    const checks = this.readFired(otherwise, pattern);
    return { pattern, priority, rule: { context, items: [...lets, ...checks], origin: this.origin(template) } };
  }

  /** A shadowed rule only records that it was shadowed and passes the node on unchanged. */
  private checkShadowed(when: Element, pattern: string): void {
    const [record, next, ...more] = elementChildren(when);
    if (!record || !next || more.length || !this.isRuleRecord(record, pattern)) this.refuse(when, "unknown content of a shadowed rule");
    this.checkInert(record, DOCUMENT_URI_XPATHS);
    this.checkNextMatch(next, "$schxslt:patterns-matched");
  }

  private readFired(otherwise: Element, pattern: string): Check[] {
    const [record, next, ...more] = elementChildren(otherwise);
    if (!record || !next || more.length || !this.isRuleRecord(record, pattern)) this.refuse(otherwise, "unknown content of a fired rule");
    this.checkNextMatch(next, `($schxslt:patterns-matched, '${pattern}')`);
    const [fired, ...checks] = elementChildren(record);
    if (!fired || fired.namespaceURI !== SVRL_NS || fired.localName !== "fired-rule") this.refuse(record, "a fired rule without svrl:fired-rule first");
    this.checkInert(fired, DOCUMENT_URI_XPATHS);
    return checks.map((el) => this.readCheck(el));
  }

  private isRuleRecord(el: Element, pattern: string): boolean {
    return el.namespaceURI === SCHXSLT_NS && el.localName === "rule" && el.getAttribute("pattern") === pattern;
  }

  private checkNextMatch(el: Element, select: string): void {
    const params = elementChildren(el);
    const param = params[0];
    if (!isXsl(el, "next-match") || params.length !== 1 || !isXsl(param, "with-param") || param.getAttribute("name") !== PATTERNS_MATCHED || param.getAttribute("select") !== select) {
      this.refuse(el, `not the xsl:next-match passing ${select}`);
    }
  }

  private readCheck(el: Element): Check {
    if (!isXsl(el, "if")) this.refuse(el, "rule content other than xsl:if");
    this.only(el, ["test"]);
    const condition = this.required(el, "test");
    const [finding, ...more] = elementChildren(el);
    if (!finding || more.length || finding.namespaceURI !== SVRL_NS) this.refuse(el, "an xsl:if that writes no single SVRL finding");
    const kind = finding.localName === "failed-assert" ? "assert" : finding.localName === "successful-report" ? "report" : this.refuse(finding, `svrl:${finding.localName}`);
    let subject: string | undefined;
    let written: string | undefined;
    const literals = new Map<string, string>();
    for (const a of Array.from(finding.attributes)) {
      if (a.name === "xmlns" || a.name.startsWith("xmlns:")) continue;
      if (a.name === "location") subject = this.locationSubject(finding, a.value);
      else if (a.name === "test") written = this.literalAvt(finding, a.value);
      else literals.set(a.name, this.literalAvt(finding, a.value));
    }
    let message: MessagePart[] | undefined;
    for (const child of elementChildren(finding)) {
      if (isXsl(child, "attribute")) {
        this.only(child, ["name", "select"]);
        const name = this.required(child, "name");
        if (name === "location" && child.hasAttribute("select") && !elementChildren(child).length) subject = this.locationSubject(child, `{${child.getAttribute("select")}}`);
        else if (child.hasAttribute("select") || elementChildren(child).length) this.refuse(child, `a computed ${name} attribute`);
        else if (name === "test") written = child.textContent ?? "";
        else literals.set(name, child.textContent ?? "");
      } else if (child.namespaceURI === SVRL_NS && child.localName === "text" && !message) message = this.readMessage(child);
      else this.refuse(child, `<${child.tagName}> in a finding`);
    }
    if (written === undefined) this.refuse(finding, "a finding without its test");
    // An assert fires when its test is false: SchXslt writes the test negated, and the original beside it.
    const test = kind === "assert" ? (condition.startsWith("not(") && condition.endsWith(")") ? condition.slice(4, -1) : undefined) : condition;
    if (test !== written) this.refuse(el, `${kind} condition "${condition}" not matching its test "${written}"`);
    return {
      kind,
      id: literals.get("id"),
      test,
      flag: literals.get("flag"),
      role: literals.get("role"),
      subject,
      message: message ?? [],
      origin: this.origin(finding),
    };
  }

  /** `{schxslt:location(SUBJECT)}`: the subject XPath, or none for the context node. */
  private locationSubject(el: Element, avt: string): string | undefined {
    const m = /^\{([\w.-]+):location\((.*)\)\}$/s.exec(avt);
    if (!m || el.lookupNamespaceURI(m[1]) !== SCHXSLT_NS || /[{}]/.test(m[2])) return this.refuse(el, `location "${avt}"`);
    return m[2].trim() === "." ? undefined : m[2];
  }

  /** An attribute value template without expressions: its literal value. */
  private literalAvt(el: Element, avt: string): string {
    if (/[{}]/.test(avt.replace(/\{\{|\}\}/g, ""))) this.refuse(el, `a computed attribute "${avt}"`);
    return avt.replace(/\{\{/g, "{").replace(/\}\}/g, "}");
  }

  private readMessage(text: Element): MessagePart[] {
    const parts: MessagePart[] = [];
    for (let node: Node | null = text.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) parts.push({ kind: "text", text: node.nodeValue ?? "" });
      else if (node.nodeType !== ELEMENT_NODE) continue;
      else if (isXsl(node as Element, "value-of")) {
        const el = node as Element;
        this.only(el, ["select"]);
        if (el.firstChild) this.refuse(el, "xsl:value-of with content");
        parts.push({ kind: "value-of", select: this.required(el, "select") });
      } else if (isXsl(node as Element, "text")) {
        const literal = node.textContent ?? "";
        // Unlike a text node of the stylesheet, xsl:text keeps whitespace: as a string literal it is never dropped.
        parts.push(/^[ \t\r\n]*$/.test(literal) ? { kind: "value-of", select: `'${literal}'` } : { kind: "text", text: literal });
      } else this.refuse(node as Element, `<${(node as Element).tagName}> in a message`);
    }
    return parts;
  }

  private readLet(el: Element): Let {
    this.only(el, ["name", "select"]);
    const name = this.required(el, "name");
    const select = el.getAttribute("select");
    if (select !== null) {
      if (el.firstChild && (el.textContent ?? "").trim()) this.refuse(el, `$${name} with both select and content`);
      return { kind: "let", name, value: select, origin: this.origin(el) };
    }
    const content = Array.from(el.childNodes)
      .map((node) => (node.nodeType === ELEMENT_NODE ? serializeInScope(node as Element) : new XMLSerializer().serializeToString(node)))
      .join("");
    return { kind: "let", name, content, origin: this.origin(el) };
  }

  /**
   * SchXslt visits text, comment and processing-instruction nodes too (its built-in template applies
   * templates to `node()`), the engine only the document node, elements and attributes: a rule that
   * could match one of those is refused rather than silently never fired.
   */
  private checkContext(template: Element, context: string): void {
    let expr: Expr;
    try {
      expr = parseXPath(context);
    } catch {
      return this.refuse(template, `the match pattern "${context}"`);
    }
    if (reachesOtherNodes(expr)) this.refuse(template, `the match pattern "${context}", which can match text, comment or processing-instruction nodes`);
  }

  private checkLocationFunction(el: Element): void {
    const shape = descendants(el).map((node) => `${node.localName}:${node.getAttribute("select") ?? node.getAttribute("test") ?? node.getAttribute("level") ?? ""}`);
    if (shape.join("\n") !== LOCATION_FUNCTION.join("\n")) this.refuse(el, "a schxslt:location function other than SchXslt 1.10's");
  }

  private checkValidateTemplate(template: Element): void {
    const [apply, ...more] = elementChildren(template);
    if (!apply || more.length || !isXsl(apply, "apply-templates") || apply.getAttribute("select") !== `document($${INITIAL_DOCUMENT_PARAM})`) this.refuse(template, "an unknown schxslt.validate template");
  }

  /** The default traversal: element, then its attributes, then its children (text included); nothing for text and attributes. */
  private checkBuiltIn(template: Element): void {
    const match = template.getAttribute("match") ?? "";
    const expected = BUILT_INS.get(match);
    const selects = elementChildren(template).map((el) => (isXsl(el, "apply-templates") && el.getAttribute("mode") === "#current" ? el.getAttribute("select") : `<${el.tagName}>`));
    if (template.getAttribute("priority") !== "-10" || !expected || selects.join(",") !== expected.join(",")) this.refuse(template, `an unknown built-in template for "${match}"`);
  }

  /** Content that writes only records no finding depends on: every XPath in it is one of `allowed`, none of which can fail. */
  private checkInert(el: Element, allowed: string[]): void {
    for (const node of [el, ...descendants(el)]) {
      for (const a of Array.from(node.attributes)) {
        const xpath = node.namespaceURI === XSL_NS ? a.name === "select" || a.name === "test" : /[{}]/.test(a.value);
        if (xpath && !allowed.includes(a.value)) this.refuse(node, `"${a.value}" in SchXslt's bookkeeping`);
      }
    }
  }

  /** XPath expressions resolve prefixes against the stylesheet's root bindings only: refuse any rebinding below it. */
  private checkDeclarations(el: Element): void {
    for (const child of elementChildren(el)) {
      for (const [prefix, uri] of declarations(child)) {
        if (prefix && this.namespaces.has(prefix) && this.namespaces.get(prefix) !== uri) this.refuse(child, `prefix "${prefix}" rebound to ${uri}`);
      }
      if (child.hasAttribute("xpath-default-namespace") || child.hasAttribute("xml:space") || child.hasAttributeNS(XSL_NS, "xpath-default-namespace")) {
        this.refuse(child, "xpath-default-namespace or xml:space");
      }
      this.checkDeclarations(child);
    }
  }

  private expandedName(el: Element, qname: string): string {
    const colon = qname.indexOf(":");
    return colon < 0 ? qname : `{${el.lookupNamespaceURI(qname.slice(0, colon)) ?? ""}}${qname.slice(colon + 1)}`;
  }

  private only(el: Element, allowed: string[]): void {
    for (const a of Array.from(el.attributes)) {
      if (a.name === "xmlns" || a.name.startsWith("xmlns:")) continue;
      if (!allowed.includes(a.name)) this.refuse(el, `attribute ${a.name}`);
    }
  }

  private required(el: Element, name: string): string {
    return el.getAttribute(name) ?? this.refuse(el, `no @${name}`);
  }

  private origin(el: Element): Origin {
    return { file: this.file, line: (el as unknown as { lineNumber?: number }).lineNumber ?? 0 };
  }

  private refuse(el: Element, what: string): never {
    return fail("XTSE0010", `${this.file}:${this.origin(el).line}: <${el.tagName}>: ${what} is not supported natively`);
  }
}

/** What SchXslt's bookkeeping of fired and shadowed rules evaluates. */
const DOCUMENT_URI_XPATHS = ["document-uri()", "exists($documentUri)", "$documentUri"];

const BUILT_INS = new Map([
  ["text() | @*", []],
  ["/", ["node()"]],
  ["*", ["@*", "node()"]],
]);

/** SchXslt 1.10's `schxslt:location`, element by element (local name and the XPath it evaluates). */
const LOCATION_FUNCTION = [
  "param:",
  "variable:",
  "for-each:($node/ancestor-or-self::node())",
  "variable:",
  "number:single",
  "choose:",
  "when:. instance of element()",
  "value-of:concat('Q{', namespace-uri(.), '}', local-name(.), '[', $position, ']')",
  "when:. instance of attribute()",
  "value-of:concat('@Q{', namespace-uri(.), '}', local-name(.))",
  "when:. instance of processing-instruction()",
  `value-of:concat('processing-instruction("', name(.), '")[', $position, ']')`,
  "when:. instance of comment()",
  "value-of:concat('comment()[', $position, ']')",
  "when:. instance of text()",
  "value-of:concat('text()[', $position, ']')",
  "otherwise:",
  "value-of:concat('/', string-join($segments, '/'))",
];

/** Whether a match pattern's last step can match a text, comment or processing-instruction node. */
function reachesOtherNodes(expr: Expr): boolean {
  switch (expr.kind) {
    case "binary":
      return expr.op === "|" && (reachesOtherNodes(expr.left) || reachesOtherNodes(expr.right));
    case "sequence":
      return expr.items.some(reachesOtherNodes);
    case "filter":
      return reachesOtherNodes(expr.base);
    case "path":
      return reachesOtherNodes(expr.steps[expr.steps.length - 1]);
    case "step":
      return expr.axis !== "attribute" && expr.test.kind === "type" && ["node", "text", "comment", "processing-instruction"].includes(expr.test.type);
    default:
      return false;
  }
}

function isXsl(el: Element, local: string): boolean {
  return el.namespaceURI === XSL_NS && el.localName === local;
}

function elementChildren(el: Element): Element[] {
  return Array.from(el.childNodes).filter((node): node is Element => node.nodeType === ELEMENT_NODE);
}

function descendants(el: Element): Element[] {
  return elementChildren(el).flatMap((child) => [child, ...descendants(child)]);
}

/** The namespace declarations written on `el`, "" for the default namespace. */
function declarations(el: Element): [string, string][] {
  const out: [string, string][] = [];
  for (const a of Array.from(el.attributes)) {
    if (a.name === "xmlns") out.push(["", a.value]);
    else if (a.name.startsWith("xmlns:")) out.push([a.name.slice(6), a.value]);
  }
  return out;
}

/** Serializes an element so that it carries every namespace binding in scope where it was written. */
function serializeInScope(el: Element): string {
  const copy = el.cloneNode(true) as Element;
  const seen = new Set<string>();
  for (let at: Node | null = el; at && at.nodeType === ELEMENT_NODE; at = at.parentNode) {
    for (const [prefix, uri] of declarations(at as Element)) {
      if (seen.has(prefix)) continue;
      seen.add(prefix);
      const name = prefix ? `xmlns:${prefix}` : "xmlns";
      if (!copy.hasAttribute(name)) copy.setAttributeNS(XMLNS_NS, name, uri);
    }
  }
  return new XMLSerializer().serializeToString(copy);
}
