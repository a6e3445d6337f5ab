/**
 * Reads an XSLT written by the ISO Schematron skeleton (iso_svrl_for_xslt2) back into the rule
 * model, so the native engine judges with exactly the pinned file a seal names. The shapes read:
 *
 * - the `match="/"` template lists the patterns in run order, each an `svrl:active-pattern`
 *   followed by `<xsl:apply-templates select="/" mode="Mn"/>`;
 * - a pattern's rules are the templates of its mode; the highest priority among those matching a
 *   node wins, so rules are ordered by falling priority; a rule ends with the same traversal
 *   (`@*|*`, or `*` in builds that never visit attributes, or `*|comment()|processing-instruction()`
 *   where no rule can match a comment or processing instruction) as the mode's `@*|node()`
 *   fallback, or with none, and then the pattern visits nothing below the nodes it fires on;
 * - an assert is `xsl:choose/xsl:when[@test]` (empty) `/xsl:otherwise/svrl:failed-assert`, a report
 *   `xsl:if[@test]/svrl:successful-report`; id, flag and role are `xsl:attribute`s with constant
 *   text (or literal attributes), the location `<xsl:apply-templates select="SUBJECT"
 *   mode="schematron-select-full-path"/>`, the message `svrl:text` with text, `xsl:text` and
 *   `xsl:value-of`;
 * - rule lets are `xsl:variable`s between the checks, schema and pattern lets top-level
 *   `xsl:param`s and `xsl:variable`s, and `xsl:function`s are kept as declarations.
 *
 * Anything else, or a variant of the location templates other than the two known ones, throws
 * XTSE0010 so that the file runs on SaxonJS instead of being judged by a guess.
 */
import type { Check, Let, MessagePart, Namespace, Origin, Pattern, Rule, RuleItem, Schema, XsltDeclaration } from "../../schematron/model.ts";
import { Kind, type XNode } from "../xpath/document.ts";
import { readXml } from "../xml-reader.ts";
import { mayMatchCommentOrInstruction } from "../match.ts";
import { fail } from "../xpath/errors.ts";
import { attribute, canonical, declaredPrefixes, instructions, isSvrl, isXsl, isWhitespace, serializeElement, XSL_NS } from "./xslt-dom.ts";

const DEFAULT_MODE = "#default";
/** The traversal of elements only that also selects comments and processing instructions (France CTC's CDAR rules). */
const COMMENTS_TRAVERSAL = "*|comment()|processing-instruction()";
const LOCATION_MODE = "schematron-select-full-path";

export function readSkeletonXslt(text: string, file: string): Schema {
  return new SkeletonReader(text, file).read();
}

class SkeletonReader {
  private readonly origin: Origin;
  private readonly prefixes: Map<string, string>;
  private readonly templates = new Map<string, XNode[]>();
  /** The one traversal every template of the file writes, once read. */
  private traversalSelect: string | undefined;

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {
    // The XML reader keeps no line numbers; findings are traced by rule id and test instead.
    this.origin = { file, line: 0 };
    this.prefixes = declaredPrefixes(text, file);
  }

  private unsupported(what: string): never {
    return fail("XTSE0010", `${this.file}: ${what} is not supported natively`);
  }

  read(): Schema {
    const stylesheet = readXml(this.text).node.children.find((child) => child.kind === Kind.Element)!;
    if (!isXsl(stylesheet, "stylesheet") && !isXsl(stylesheet, "transform")) this.unsupported(`root element <${stylesheet.qname}>`);
    // Version 1.0 would run in backwards-compatible mode, with other comparison and arithmetic rules.
    if (attribute(stylesheet, "version") !== "2.0") this.unsupported(`stylesheet version ${attribute(stylesheet, "version")}`);
    const lets: Let[] = [];
    const xslt: XsltDeclaration[] = [];
    for (const child of instructions(stylesheet)) {
      if (child.kind === Kind.Text) this.unsupported("text at the top level of the stylesheet");
      // XSLT ignores top-level elements in other namespaces, such as the skeleton's svrl:text titles.
      if (child.ns !== XSL_NS) continue;
      switch (child.local) {
        case "output":
          break;
        case "param":
        case "variable": {
          const let_ = this.globalLet(child);
          if (let_) lets.push(let_);
          break;
        }
        case "function":
          xslt.push({ kind: "function", name: attribute(child, "name") ?? "", xml: serializeElement(child, this.prefixes), origin: this.origin });
          break;
        case "template": {
          const mode = attribute(child, "mode") ?? DEFAULT_MODE;
          if (/[\s#]/.test(mode) && mode !== DEFAULT_MODE) this.unsupported(`template mode "${mode}"`);
          this.templates.set(mode, [...(this.templates.get(mode) ?? []), child]);
          break;
        }
        default:
          this.unsupported(`top-level xsl:${child.local}`);
      }
    }
    const seen = new Set<string>();
    for (const let_ of lets) {
      if (seen.has(let_.name)) this.unsupported(`a second global variable $${let_.name}`);
      seen.add(let_.name);
    }
    const locations = this.locationStyle();
    const output = this.rootOutput();
    const patterns = this.patterns(output);
    const namespaces: Namespace[] = [...this.prefixes].map(([prefix, uri]) => ({ prefix, uri, origin: this.origin }));
    return {
      file: this.file,
      title: attribute(output, "title"),
      schemaVersion: attribute(output, "schemaVersion"),
      queryBinding: "xslt2",
      namespaces,
      lets,
      xslt,
      patterns,
      locations,
      ...(this.traversalSelect !== undefined && this.traversalSelect !== "@*|*" ? { visitsAttributes: false } : {}),
    };
  }

  /** A top-level `xsl:param` or `xsl:variable`; null for the skeleton's own `$document-uri`, which no rule reads. */
  private globalLet(element: XNode): Let | null {
    this.checkAttributes(element, ["name", "select"]);
    const name = attribute(element, "name") ?? this.unsupported(`xsl:${element.local} without a name`);
    const select = attribute(element, "select");
    const content = instructions(element);
    if (select !== undefined) {
      if (content.length) this.unsupported(`$${name} with both @select and content`);
      return { kind: "let", name, value: select, origin: this.origin };
    }
    if (
      name === "document-uri" &&
      content.length === 1 &&
      isXsl(content[0], "value-of") &&
      attribute(content[0], "select") === "document-uri(/)"
    ) {
      return null;
    }
    // A parameter nobody sets, without a default, is the zero-length string.
    if (!content.length && element.local === "param") return { kind: "let", name, value: "''", origin: this.origin };
    return { kind: "let", name, content: content.map((node) => serializeElement(node, this.prefixes)).join(""), origin: this.origin };
  }

  private checkAttributes(element: XNode, allowed: string[]): void {
    for (const a of element.attributes) if (!allowed.includes(a.qname)) this.unsupported(`attribute ${a.qname} on <${element.qname}>`);
  }

  /**
   * How `schematron-select-full-path` writes a location: the skeleton's own templates, checked
   * against the two forms known from the pinned files (any other rendition would write other
   * locations), and nothing else in those modes.
   */
  private locationStyle(): "skeleton" | "skeleton-prefixed" {
    const select = this.templates.get(LOCATION_MODE) ?? this.unsupported(`a stylesheet without mode ${LOCATION_MODE}`);
    const form = select.map(canonical).join("");
    for (const [style, known] of Object.entries(LOCATION_FORMS) as [keyof typeof LOCATION_FORMS, (typeof LOCATION_FORMS)[keyof typeof LOCATION_FORMS]][]) {
      if (form !== known.select) continue;
      if ((this.templates.get(known.mode) ?? []).map(canonical).join("") !== known.path) this.unsupported(`the location templates of mode ${known.mode} as written`);
      return style;
    }
    return this.unsupported(`the location templates of mode ${LOCATION_MODE} as written`);
  }

  /**
   * The `svrl:schematron-output` the `/` template writes. The default mode must hold nothing but
   * that template and the text-stripping one, because `svrl:active-pattern` applies it to the
   * whole document.
   */
  private rootOutput(): XNode {
    let root: XNode | undefined;
    for (const template of this.templates.get(DEFAULT_MODE) ?? []) {
      const match = attribute(template, "match");
      if (match === "text()" && attribute(template, "priority") === "-1" && !instructions(template).length) continue;
      if (match !== "/" || root) this.unsupported(`a template matching "${match}" in the default mode`);
      this.checkAttributes(template, ["match"]);
      root = template;
    }
    if (!root) return this.unsupported("a stylesheet without a template matching /");
    const body = instructions(root);
    if (body.length !== 1 || !isSvrl(body[0], "schematron-output")) this.unsupported("a / template other than one svrl:schematron-output");
    return body[0];
  }

  private patterns(output: XNode): Pattern[] {
    const patterns: Pattern[] = [];
    const used = new Set<string>();
    let header: { id?: string; name?: string } = {};
    for (const child of instructions(output)) {
      if (isXsl(child, "comment") || isSvrl(child, "ns-prefix-in-attribute-values")) continue;
      if (isSvrl(child, "active-pattern")) {
        header = { id: this.constantAttribute(child, "id"), name: this.constantAttribute(child, "name") };
        continue;
      }
      if (isXsl(child, "apply-templates") && attribute(child, "select") === "/") {
        this.checkAttributes(child, ["select", "mode"]);
        const mode = attribute(child, "mode") ?? this.unsupported("a pattern applied without a mode");
        if (used.has(mode)) this.unsupported(`mode ${mode} applied twice`);
        used.add(mode);
        patterns.push({ id: header.id, title: header.name, lets: [], rules: this.rules(mode), origin: this.origin });
        header = {};
        continue;
      }
      this.unsupported(`<${child.qname}> in svrl:schematron-output`);
    }
    return patterns;
  }

  /** An attribute of a literal result element, given literally or as an `xsl:attribute` child with constant content. */
  private constantAttribute(element: XNode, name: string): string | undefined {
    let value = attribute(element, name);
    if (value !== undefined) value = this.literalValue(value);
    for (const child of instructions(element)) {
      if (isXsl(child, "attribute") && attribute(child, "name") === name) value = this.constantContent(child);
    }
    return value;
  }

  /** A literal result attribute is an attribute value template: only brace-free (or doubled-brace) text is constant. */
  private literalValue(value: string): string {
    const unescaped = value.replace(/\{\{|\}\}/g, "");
    if (/[{}]/.test(unescaped)) this.unsupported(`the attribute value template "${value}"`);
    return value.replace(/\{\{/g, "{").replace(/\}\}/g, "}");
  }

  private constantContent(element: XNode): string {
    this.checkAttributes(element, ["name"]);
    let text = "";
    for (const node of instructions(element)) {
      if (node.kind === Kind.Text) text += node.value;
      else if (isXsl(node, "text") && node.children.every((child) => child.kind === Kind.Text)) text += node.stringValue();
      else this.unsupported(`<${node.qname}> in xsl:attribute ${attribute(element, "name")}`);
    }
    return text;
  }

  private rules(mode: string): Rule[] {
    const templates = this.templates.get(mode) ?? [];
    let fallback: string | undefined;
    const rules: { rule: Rule; priority: number; position: number }[] = [];
    templates.forEach((template, position) => {
      this.checkAttributes(template, ["match", "mode", "priority"]);
      const match = attribute(template, "match") ?? this.unsupported(`a template without @match in mode ${mode}`);
      const priority = attribute(template, "priority");
      const body = instructions(template);
      if (match === "text()" && priority === "-1" && !body.length) return;
      if (match === "@*|node()" && priority === "-2") {
        if (body.length !== 1) this.unsupported(`the @*|node() template of mode ${mode} as written`);
        fallback = this.traversal(body[0], mode);
        return;
      }
      const value = Number(priority);
      if (priority === undefined || !Number.isFinite(value)) this.unsupported(`a rule template without a numeric priority in mode ${mode}`);
      rules.push({ rule: this.rule(template, match, mode), priority: value, position });
    });
    if (rules.length && fallback === undefined) this.unsupported(`mode ${mode} without the @*|node() traversal template`);
    if (fallback === COMMENTS_TRAVERSAL) {
      // The comments and processing instructions it selects reach only the built-in @*|node() template, which writes nothing.
      for (const { rule } of rules) if (mayMatchCommentOrInstruction(rule.context)) this.unsupported(`the rule "${rule.context}" under the traversal select="${fallback}"`);
    }
    // Of two matching templates of one priority, Saxon-HE takes the later one.
    rules.sort((a, b) => b.priority - a.priority || b.position - a.position);
    return rules.map(({ rule }) => rule);
  }

  /** The select of an `xsl:apply-templates` going on in the same mode; every template of a file must traverse alike. */
  private traversal(step: XNode, mode: string): string {
    if (attribute(step, "mode") !== mode) this.unsupported(`a template in mode ${mode} applying templates in another mode`);
    this.checkAttributes(step, ["select", "mode"]);
    const select = (attribute(step, "select") ?? "").replace(/\s+/g, "");
    if (select !== "@*|*" && select !== "*" && select !== COMMENTS_TRAVERSAL) this.unsupported(`the traversal select="${select}"`);
    if (this.traversalSelect !== undefined && this.traversalSelect !== select) this.unsupported("templates traversing differently in one stylesheet");
    this.traversalSelect = select;
    return select;
  }

  private rule(template: XNode, context: string, mode: string): Rule {
    const body = instructions(template);
    const rule: Rule = { context, items: [], origin: this.origin };
    const last = body.at(-1);
    if (last && isXsl(last, "apply-templates")) {
      this.traversal(last, mode);
      body.pop();
    } else rule.descends = false;
    for (const node of body) {
      if (isSvrl(node, "fired-rule")) {
        rule.id = this.optionalLiteral(node, "id");
        rule.flag = this.optionalLiteral(node, "flag");
        rule.role = this.optionalLiteral(node, "role");
      } else if (isXsl(node, "variable")) rule.items.push(this.localLet(node));
      else if (isXsl(node, "choose")) rule.items.push(this.assert(node));
      else if (isXsl(node, "if")) rule.items.push(this.report(node));
      else this.unsupported(`<${node.qname || "text"}> in the rule template for "${context}"`);
    }
    return rule;
  }

  private optionalLiteral(element: XNode, name: string): string | undefined {
    const value = attribute(element, name);
    return value === undefined ? undefined : this.literalValue(value);
  }

  private localLet(element: XNode): RuleItem {
    this.checkAttributes(element, ["name", "select"]);
    const name = attribute(element, "name") ?? this.unsupported("xsl:variable without a name");
    const select = attribute(element, "select");
    const content = instructions(element);
    if (select !== undefined && !content.length) return { kind: "let", name, value: select, origin: this.origin };
    if (select === undefined) return { kind: "let", name, content: content.map((node) => serializeElement(node, this.prefixes)).join(""), origin: this.origin };
    return this.unsupported(`$${name} with both @select and content`);
  }

  private assert(choose: XNode): Check {
    this.checkAttributes(choose, []);
    const [when, otherwise, ...rest] = instructions(choose);
    if (!when || !isXsl(when, "when") || !otherwise || !isXsl(otherwise, "otherwise") || rest.length || instructions(when).length) {
      return this.unsupported("an xsl:choose other than the skeleton's assert");
    }
    this.checkAttributes(when, ["test"]);
    this.checkAttributes(otherwise, []);
    const [finding, ...more] = instructions(otherwise);
    if (!finding || more.length || !isSvrl(finding, "failed-assert")) this.unsupported("an xsl:otherwise other than one svrl:failed-assert");
    return this.check("assert", attribute(when, "test")!, finding);
  }

  private report(test: XNode): Check {
    this.checkAttributes(test, ["test"]);
    const [finding, ...more] = instructions(test);
    if (!finding || more.length || !isSvrl(finding, "successful-report")) this.unsupported("an xsl:if other than one svrl:successful-report");
    return this.check("report", attribute(test, "test")!, finding);
  }

  private check(kind: "assert" | "report", test: string, finding: XNode): Check {
    const check: Check = { kind, test, message: [], origin: this.origin };
    for (const a of finding.attributes) {
      if (a.qname === "id" || a.qname === "flag" || a.qname === "role") check[a.qname] = this.literalValue(a.value);
      else if (a.qname === "location") this.unsupported("a literal location attribute");
    }
    let located = false;
    for (const node of instructions(finding)) {
      if (isXsl(node, "attribute")) {
        const name = attribute(node, "name");
        if (name === "location") {
          check.subject = this.subject(node);
          located = true;
        } else if (name === "id" || name === "flag" || name === "role") check[name] = this.constantContent(node);
        // Other attributes (`see`, `icon`) never reach a finding, but one computed by XPath could stop the run.
        else this.constantContent(node);
      } else if (isSvrl(node, "text")) check.message = this.message(node);
      else this.unsupported(`<${node.qname || "text"}> in ${finding.qname}`);
    }
    if (!located) this.unsupported(`${finding.qname} without a location`);
    // The subject "." is the model's default; keeping it absent keeps the plan on the context node.
    if (check.subject === ".") delete check.subject;
    return check;
  }

  private subject(location: XNode): string {
    this.checkAttributes(location, ["name"]);
    const [apply, ...rest] = instructions(location);
    if (!apply || rest.length || !isXsl(apply, "apply-templates") || attribute(apply, "mode") !== LOCATION_MODE) {
      return this.unsupported("a location other than applying mode schematron-select-full-path");
    }
    this.checkAttributes(apply, ["select", "mode"]);
    return attribute(apply, "select") ?? this.unsupported("a location without @select");
  }

  /**
   * The parts of `svrl:text`. Stripped whitespace never reaches the output, but `xsl:text` keeps
   * its spaces; a run of literal text that is only whitespace becomes an empty inline part, which
   * (padded by spaces, then normalized) separates its neighbours by one space exactly as it does.
   */
  private message(text: XNode): MessagePart[] {
    const parts: MessagePart[] = [];
    let literal = "";
    const flush = () => {
      if (literal) parts.push(isWhitespace(literal) ? { kind: "inline", text: "" } : { kind: "text", text: literal });
      literal = "";
    };
    for (const node of instructions(text)) {
      if (node.kind === Kind.Text) literal += node.value;
      else if (isXsl(node, "text") && node.children.every((child) => child.kind === Kind.Text)) {
        this.checkAttributes(node, []);
        literal += node.stringValue();
      } else if (isXsl(node, "value-of") && !instructions(node).length) {
        this.checkAttributes(node, ["select"]);
        flush();
        parts.push({ kind: "value-of", select: attribute(node, "select") ?? this.unsupported("xsl:value-of without @select") });
      } else this.unsupported(`<${node.qname}> in svrl:text`);
    }
    flush();
    return parts;
  }
}

/**
 * The location templates of the skeleton builds in the pinned files, in {@link canonical} form:
 * `skeleton` writes `/*:Invoice[namespace-uri()='…'][1]/…`; `skeleton-prefixed` (XRechnung 2.4.0)
 * routes through `schematron-get-full-path-3` and writes `/ubl:Invoice/cac:X[1]/…`.
 */
const LOCATION_FORMS = {
  skeleton: {
    select: `<xsl:template match="*" mode="schematron-select-full-path"><xsl:apply-templates mode="schematron-get-full-path" select="."></xsl:apply-templates></xsl:template>`,
    mode: "schematron-get-full-path",
    path:
      `<xsl:template match="*" mode="schematron-get-full-path"><xsl:apply-templates mode="schematron-get-full-path" select="parent::*"></xsl:apply-templates><xsl:text>/</xsl:text><xsl:choose><xsl:when test="namespace-uri()=''"><xsl:value-of select="name()"></xsl:value-of></xsl:when><xsl:otherwise><xsl:text>*:</xsl:text><xsl:value-of select="local-name()"></xsl:value-of><xsl:text>[namespace-uri()='</xsl:text><xsl:value-of select="namespace-uri()"></xsl:value-of><xsl:text>']</xsl:text></xsl:otherwise></xsl:choose><xsl:variable name="preceding" select="count(preceding-sibling::*[local-name()=local-name(current()) and namespace-uri() = namespace-uri(current())])"></xsl:variable><xsl:text>[</xsl:text><xsl:value-of select="1+ $preceding"></xsl:value-of><xsl:text>]</xsl:text></xsl:template>` +
      `<xsl:template match="@*" mode="schematron-get-full-path"><xsl:apply-templates mode="schematron-get-full-path" select="parent::*"></xsl:apply-templates><xsl:text>/</xsl:text><xsl:choose><xsl:when test="namespace-uri()=''">@<xsl:value-of select="name()"></xsl:value-of></xsl:when><xsl:otherwise><xsl:text>@*[local-name()='</xsl:text><xsl:value-of select="local-name()"></xsl:value-of><xsl:text>' and namespace-uri()='</xsl:text><xsl:value-of select="namespace-uri()"></xsl:value-of><xsl:text>']</xsl:text></xsl:otherwise></xsl:choose></xsl:template>`,
  },
  "skeleton-prefixed": {
    select: `<xsl:template match="*" mode="schematron-select-full-path"><xsl:apply-templates mode="schematron-get-full-path-3" select="."></xsl:apply-templates></xsl:template>`,
    mode: "schematron-get-full-path-3",
    path: `<xsl:template match="node() | @*" mode="schematron-get-full-path-3"><xsl:for-each select="ancestor-or-self::*"><xsl:text>/</xsl:text><xsl:value-of select="name(.)"></xsl:value-of><xsl:if test="parent::*"><xsl:text>[</xsl:text><xsl:value-of select="count(preceding-sibling::*[name(.)=name(current())])+1"></xsl:value-of><xsl:text>]</xsl:text></xsl:if></xsl:for-each><xsl:if test="not(self::*)"><xsl:text></xsl:text>/@<xsl:value-of select="name(.)"></xsl:value-of></xsl:if></xsl:template>`,
  },
};
