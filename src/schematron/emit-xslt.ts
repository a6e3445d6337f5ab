/**
 * Back end: writes a Schematron {@link Schema} as an XSLT 2.0 stylesheet producing SVRL in the shape
 * of the ISO skeleton (iso_svrl_for_xslt2), which compiled the authorities' published XSLT:
 * - one mode per pattern; a rule is a template of that mode whose priority falls with the rule's
 *   position, so each node is judged by the first matching rule only, and the traversal continues
 *   through attributes and child elements (never text) whether a rule fired or not;
 * - `svrl:active-pattern` precedes the pattern's `svrl:fired-rule`, `svrl:failed-assert` and
 *   `svrl:successful-report` elements, which are siblings under `svrl:schematron-output`;
 * - `@location` is the skeleton's `schematron-get-full-path` form
 *   (`/*:Invoice[namespace-uri()='…'][1]/*:ID[namespace-uri()='…'][1]`), including its quirks:
 *   for an attribute context the built-in template yields the attribute's value, and for the
 *   document node the root element's path;
 * - schema-level lets are global parameters, pattern-level lets global variables, rule-level lets
 *   local variables placed in order between the checks.
 */
import { basename, dirname, relative } from "node:path";
import { SchematronError } from "./error.ts";
import type { Check, Let, MessagePart, Namespace, Origin, Pattern, Rule, Schema } from "./model.ts";
import { XSL_NS } from "./parse.ts";

const SVRL_NS = "http://purl.oclc.org/dsdl/svrl";
const XS_NS = "http://www.w3.org/2001/XMLSchema";

export function emitXslt(schema: Schema): string {
  const where = (origin: Origin) => `${relative(dirname(schema.file), origin.file) || basename(origin.file)}:${origin.line}`;
  checkGlobalNames(schema);
  const out: string[] = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<!-- Compiled from ${comment(basename(schema.file))} by the einvoice Schematron compiler. -->`,
    `<xsl:stylesheet version="2.0"${namespaceDeclarations(schema.namespaces)}>`,
    `<xsl:output method="xml" indent="no"/>`,
  ];
  for (const declaration of schema.xslt) out.push(`<!-- ${comment(where(declaration.origin))} -->`, declaration.xml);
  for (const let_ of schema.lets) out.push(binding(let_, "param"));
  for (const pattern of schema.patterns) for (const let_ of pattern.lets) out.push(binding(let_, "variable"));
  out.push(LOCATION_TEMPLATES, rootTemplate(schema));
  schema.patterns.forEach((pattern, index) => out.push(...patternTemplates(pattern, `M${index}`, where)));
  out.push(`</xsl:stylesheet>`, "");
  return out.join("\n");
}

/** XSLT refuses two global variables of one name; say which lets collide instead of leaving it to the XSLT compiler. */
function checkGlobalNames(schema: Schema): void {
  const seen = new Map<string, Let>();
  for (const let_ of [...schema.lets, ...schema.patterns.flatMap((pattern) => pattern.lets)]) {
    const first = seen.get(let_.name);
    if (first) {
      throw new SchematronError(
        let_.origin,
        "let",
        `global variable "${let_.name}" is already declared at ${first.origin.file}:${first.origin.line}`,
      );
    }
    seen.set(let_.name, let_);
  }
}

function namespaceDeclarations(namespaces: Namespace[]): string {
  const bindings = new Map<string, string>([
    ["xsl", XSL_NS],
    ["svrl", SVRL_NS],
  ]);
  for (const { prefix, uri, origin } of namespaces) {
    const bound = bindings.get(prefix);
    if (bound !== undefined && bound !== uri) {
      throw new SchematronError(origin, "ns", `prefix "${prefix}" is already bound to ${bound}, cannot bind it to ${uri}`);
    }
    bindings.set(prefix, uri);
  }
  if (!bindings.has("xs")) bindings.set("xs", XS_NS);
  return [...bindings].map(([prefix, uri]) => ` xmlns:${prefix}="${attribute(uri)}"`).join("");
}

/** A let as an XSLT binding; a let given by content instead of `@value` is always a variable. */
function binding(let_: Let, element: "param" | "variable"): string {
  if (let_.value !== undefined) return `<xsl:${element} name="${attribute(let_.name)}" select="${attribute(let_.value)}"/>`;
  return `<xsl:variable name="${attribute(let_.name)}">${let_.content}</xsl:variable>`;
}

function rootTemplate(schema: Schema): string {
  const lines = [
    `<xsl:template match="/">`,
    `<svrl:schematron-output${literal("title", schema.title ?? "")}${literal("schemaVersion", schema.schemaVersion ?? "")}>`,
    ...schema.namespaces.map(
      ({ prefix, uri }) => `<svrl:ns-prefix-in-attribute-values${literal("prefix", prefix)}${literal("uri", uri)}/>`,
    ),
  ];
  schema.patterns.forEach((pattern, index) => {
    // The skeleton names a pattern by its title when it has one, else by its id.
    const name = pattern.title ?? pattern.id;
    lines.push(
      `<svrl:active-pattern${optionalLiteral("id", pattern.id)}${optionalLiteral("name", name)}>` +
        `<xsl:attribute name="document" select="document-uri(/)"/></svrl:active-pattern>`,
      `<xsl:apply-templates select="/" mode="M${index}"/>`,
    );
  });
  lines.push(`</svrl:schematron-output>`, `</xsl:template>`);
  return lines.join("\n");
}

function patternTemplates(pattern: Pattern, mode: string, where: (origin: Origin) => string): string[] {
  const out = [`<!-- pattern ${comment(pattern.id ?? "(no id)")} (${comment(where(pattern.origin))}) -->`];
  pattern.rules.forEach((rule, index) => {
    const priority = 1000 + pattern.rules.length - index;
    out.push(ruleTemplate(rule, mode, priority, where));
  });
  out.push(
    `<xsl:template match="text()" mode="${mode}" priority="-1"/>`,
    `<xsl:template match="@*|node()" mode="${mode}" priority="-2"><xsl:apply-templates select="@*|*" mode="${mode}"/></xsl:template>`,
  );
  return out;
}

function ruleTemplate(rule: Rule, mode: string, priority: number, where: (origin: Origin) => string): string {
  const lines = [
    `<!-- ${comment(where(rule.origin))} -->`,
    `<xsl:template match="${attribute(rule.context)}" priority="${priority}" mode="${mode}">`,
    `<svrl:fired-rule${literal("context", rule.context)}${optionalLiteral("id", rule.id)}${optionalLiteral("role", rule.role)}${optionalLiteral("flag", rule.flag)}/>`,
  ];
  for (const item of rule.items) lines.push(item.kind === "let" ? binding(item, "variable") : check(item, rule));
  lines.push(`<xsl:apply-templates select="@*|*" mode="${mode}"/>`, `</xsl:template>`);
  return lines.join("\n");
}

function check(check: Check, rule: Rule): string {
  const element = check.kind === "assert" ? "svrl:failed-assert" : "svrl:successful-report";
  const subject = check.subject ?? rule.subject ?? ".";
  const finding =
    `<${element}${literal("test", normalizeSpace(check.test))}${optionalLiteral("id", check.id)}` +
    `${optionalLiteral("flag", check.flag)}${optionalLiteral("role", check.role)}>` +
    `<xsl:attribute name="location"><xsl:apply-templates select="${attribute(subject)}" mode="schematron-select-full-path"/></xsl:attribute>` +
    `<svrl:text>${check.message.map(messagePart).join("")}</svrl:text>` +
    `</${element}>`;
  const test = attribute(check.test);
  return check.kind === "assert"
    ? `<xsl:choose><xsl:when test="${test}"/><xsl:otherwise>${finding}</xsl:otherwise></xsl:choose>`
    : `<xsl:if test="${test}">${finding}</xsl:if>`;
}

/**
 * Message text goes out as literal text, like the skeleton's: a whitespace-only piece between two
 * `value-of`s is therefore dropped by the XSLT processor exactly as it is from the authorities' XSLT.
 */
function messagePart(part: MessagePart): string {
  switch (part.kind) {
    case "text":
      return text(part.text);
    case "value-of":
      return `<xsl:value-of select="${attribute(part.select)}"/>`;
    case "name":
      return `<xsl:value-of select="${attribute(`name(${part.path ?? "."})`)}"/>`;
    case "inline":
      return `<xsl:text> </xsl:text>${text(part.text)}<xsl:text> </xsl:text>`;
  }
}

/** The skeleton's location modes (see the module comment for the quirks they carry). */
const LOCATION_TEMPLATES = `<xsl:template match="*" mode="schematron-select-full-path"><xsl:apply-templates select="." mode="schematron-get-full-path"/></xsl:template>
<xsl:template match="*" mode="schematron-get-full-path">
<xsl:apply-templates select="parent::*" mode="schematron-get-full-path"/>
<xsl:text>/</xsl:text>
<xsl:choose>
<xsl:when test="namespace-uri()=''"><xsl:value-of select="name()"/></xsl:when>
<xsl:otherwise><xsl:text>*:</xsl:text><xsl:value-of select="local-name()"/><xsl:text>[namespace-uri()='</xsl:text><xsl:value-of select="namespace-uri()"/><xsl:text>']</xsl:text></xsl:otherwise>
</xsl:choose>
<xsl:text>[</xsl:text><xsl:value-of select="1 + count(preceding-sibling::*[local-name()=local-name(current()) and namespace-uri() = namespace-uri(current())])"/><xsl:text>]</xsl:text>
</xsl:template>
<xsl:template match="@*" mode="schematron-get-full-path">
<xsl:apply-templates select="parent::*" mode="schematron-get-full-path"/>
<xsl:text>/</xsl:text>
<xsl:choose>
<xsl:when test="namespace-uri()=''">@<xsl:value-of select="name()"/></xsl:when>
<xsl:otherwise><xsl:text>@*[local-name()='</xsl:text><xsl:value-of select="local-name()"/><xsl:text>' and namespace-uri()='</xsl:text><xsl:value-of select="namespace-uri()"/><xsl:text>']</xsl:text></xsl:otherwise>
</xsl:choose>
</xsl:template>`;

/** The skeleton reports `@test` with its whitespace normalized. */
function normalizeSpace(value: string): string {
  return value.replace(/[ \t\r\n]+/g, " ").trim();
}

/** An attribute of a literal result element: an attribute value template, so braces are doubled. */
function literal(name: string, value: string): string {
  return ` ${name}="${attribute(value).replace(/[{}]/g, "$&$&")}"`;
}

function optionalLiteral(name: string, value: string | undefined): string {
  return value === undefined ? "" : literal(name, value);
}

function attribute(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/"/g, "&quot;")
    .replace(/\t/g, "&#9;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;");
}

function text(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#13;");
}

function comment(value: string): string {
  return value.replace(/--/g, "- -");
}
