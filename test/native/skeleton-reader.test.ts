// readSkeletonXslt on small stylesheets in the shape the ISO skeleton writes: what each XSLT shape
// becomes in the rule model, and what the native engine then reports for it.

import { describe, expect, test } from "bun:test";
import { compileSchema, runPlan } from "../../src/native/engine.ts";
import { readSkeletonXslt } from "../../src/native/from-xslt/skeleton.ts";
import { readXml } from "../../src/native/xml-reader.ts";
import { XPathError } from "../../src/native/xpath/errors.ts";

const LOCATION_TEMPLATES = `
<xsl:template match="*" mode="schematron-select-full-path">
  <xsl:apply-templates select="." mode="schematron-get-full-path"/>
</xsl:template>
<xsl:template match="*" mode="schematron-get-full-path">
  <xsl:apply-templates select="parent::*" mode="schematron-get-full-path"/>
  <xsl:text>/</xsl:text>
  <xsl:choose>
    <xsl:when test="namespace-uri()=''"><xsl:value-of select="name()"/></xsl:when>
    <xsl:otherwise>
      <xsl:text>*:</xsl:text><xsl:value-of select="local-name()"/><xsl:text>[namespace-uri()='</xsl:text><xsl:value-of select="namespace-uri()"/><xsl:text>']</xsl:text>
    </xsl:otherwise>
  </xsl:choose>
  <xsl:variable name="preceding" select="count(preceding-sibling::*[local-name()=local-name(current())
                                  and namespace-uri() = namespace-uri(current())])"/>
  <xsl:text>[</xsl:text><xsl:value-of select="1+ $preceding"/><xsl:text>]</xsl:text>
</xsl:template>
<xsl:template match="@*" mode="schematron-get-full-path">
  <xsl:apply-templates select="parent::*" mode="schematron-get-full-path"/>
  <xsl:text>/</xsl:text>
  <xsl:choose>
    <xsl:when test="namespace-uri()=''">@<xsl:value-of select="name()"/>
    </xsl:when>
    <xsl:otherwise>
      <xsl:text>@*[local-name()='</xsl:text><xsl:value-of select="local-name()"/><xsl:text>' and namespace-uri()='</xsl:text><xsl:value-of select="namespace-uri()"/><xsl:text>']</xsl:text>
    </xsl:otherwise>
  </xsl:choose>
</xsl:template>`;

/** A skeleton-shaped stylesheet with one pattern (mode M1) made of `rules`, traversing with `select`. */
function stylesheet(rules: string, options: { select?: string; top?: string } = {}): string {
  const select = options.select ?? "@*|*";
  return `<?xml version="1.0" encoding="UTF-8"?>
<xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:svrl="http://purl.oclc.org/dsdl/svrl"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:i="urn:example:invoice" version="2.0">
  <xsl:param name="archiveDirParameter"/>
  <xsl:variable name="document-uri"><xsl:value-of select="document-uri(/)"/></xsl:variable>
  <xsl:output indent="yes" method="xml"/>
  ${LOCATION_TEMPLATES}
  <xsl:template match="text()" priority="-1"/>
  ${options.top ?? ""}
  <xsl:template match="/">
    <svrl:schematron-output title="Example" schemaVersion="">
      <svrl:ns-prefix-in-attribute-values prefix="i" uri="urn:example:invoice"/>
      <svrl:active-pattern>
        <xsl:attribute name="document"><xsl:value-of select="document-uri(/)"/></xsl:attribute>
        <xsl:attribute name="id">P1</xsl:attribute>
        <xsl:attribute name="name">First pattern</xsl:attribute>
        <xsl:apply-templates/>
      </svrl:active-pattern>
      <xsl:apply-templates select="/" mode="M1"/>
    </svrl:schematron-output>
  </xsl:template>
  <svrl:text>Example</svrl:text>
  ${rules.replaceAll("TRAVERSE", `<xsl:apply-templates select="${select}" mode="M1"/>`)}
  <xsl:template match="text()" priority="-1" mode="M1"/>
  <xsl:template match="@*|node()" priority="-2" mode="M1">
    <xsl:apply-templates select="${select}" mode="M1"/>
  </xsl:template>
</xsl:stylesheet>`;
}

function assert(test: string, id: string, message: string, flag = "fatal"): string {
  return `<xsl:choose><xsl:when test="${test}"/><xsl:otherwise>
    <svrl:failed-assert test="${test}">
      <xsl:attribute name="id">${id}</xsl:attribute>
      <xsl:attribute name="flag">${flag}</xsl:attribute>
      <xsl:attribute name="location"><xsl:apply-templates select="." mode="schematron-select-full-path"/></xsl:attribute>
      <svrl:text>${message}</svrl:text>
    </svrl:failed-assert></xsl:otherwise></xsl:choose>`;
}

function rule(match: string, priority: number, body: string, traverse = true): string {
  return `<xsl:template match="${match}" priority="${priority}" mode="M1">
    <svrl:fired-rule context="${match}"/>
    ${body}
    ${traverse ? "TRAVERSE" : ""}
  </xsl:template>`;
}

const INVOICE = `<i:Invoice xmlns:i="urn:example:invoice" currency="EUR"><i:Line id="1"><i:Amount>5</i:Amount></i:Line><i:Line id="2"><i:Amount>7</i:Amount></i:Line></i:Invoice>`;

function run(xslt: string, xml = INVOICE, documents?: (href: string) => ReturnType<typeof readXml> | undefined) {
  return runPlan(compileSchema(readSkeletonXslt(xslt, "/rules/example.xsl"), { documents }), xml);
}

describe("readSkeletonXslt", () => {
  test("reads patterns, rules, checks and the skeleton's location form", () => {
    const schema = readSkeletonXslt(stylesheet(rule("i:Line", 1000, assert("false()", "R-1", "Line"))), "/rules/example.xsl");
    expect(schema.title).toBe("Example");
    expect(schema.locations).toBe("skeleton");
    expect(schema.visitsAttributes).toBeUndefined();
    expect(schema.patterns.map((pattern) => [pattern.id, pattern.title])).toEqual([["P1", "First pattern"]]);
    const [only] = schema.patterns[0].rules;
    expect(only.context).toBe("i:Line");
    expect(only.items).toMatchObject([{ kind: "assert", id: "R-1", flag: "fatal", test: "false()", message: [{ kind: "text", text: "Line" }] }]);
    expect(schema.namespaces.find((ns) => ns.prefix === "i")?.uri).toBe("urn:example:invoice");
    // The skeleton's own parameters are globals like any other; its $document-uri tree is left out.
    expect(schema.lets.map((let_) => [let_.name, let_.value])).toEqual([["archiveDirParameter", "''"]]);
  });

  test("orders rules by falling priority, so a node fires only the highest matching one", () => {
    const xslt = stylesheet(
      rule("i:Line", 1000, assert("false()", "LOW", "low")) + rule("i:Line[@id = '2']", 1001, assert("false()", "HIGH", "high")),
    );
    expect(readSkeletonXslt(xslt, "/rules/example.xsl").patterns[0].rules.map((r) => r.context)).toEqual(["i:Line[@id = '2']", "i:Line"]);
    expect(run(xslt).map((finding) => [finding.ruleId, finding.location])).toEqual([
      ["LOW", "/*:Invoice[namespace-uri()='urn:example:invoice'][1]/*:Line[namespace-uri()='urn:example:invoice'][1]"],
      ["HIGH", "/*:Invoice[namespace-uri()='urn:example:invoice'][1]/*:Line[namespace-uri()='urn:example:invoice'][2]"],
    ]);
  });

  test("reads asserts and reports, with id and flag as attributes or absent", () => {
    const report = `<xsl:if test="@id = '1'"><svrl:successful-report test="@id = '1'">
      <xsl:attribute name="location"><xsl:apply-templates select="." mode="schematron-select-full-path"/></xsl:attribute>
      <svrl:text>first line</svrl:text></svrl:successful-report></xsl:if>`;
    const xslt = stylesheet(rule("i:Line", 1000, assert("i:Amount > 6", "R-2", "small amount", "warning") + report));
    const items = readSkeletonXslt(xslt, "/rules/example.xsl").patterns[0].rules[0].items;
    expect(items.map((item) => item.kind)).toEqual(["assert", "report"]);
    expect(run(xslt)).toEqual([
      { ruleId: "R-2", flag: "warning", location: "/*:Invoice[namespace-uri()='urn:example:invoice'][1]/*:Line[namespace-uri()='urn:example:invoice'][1]", message: "small amount" },
      { ruleId: null, flag: null, location: "/*:Invoice[namespace-uri()='urn:example:invoice'][1]/*:Line[namespace-uri()='urn:example:invoice'][1]", message: "first line" },
    ]);
  });

  test("joins message text, xsl:text and xsl:value-of; a spaces-only xsl:text still separates", () => {
    const message = `
      Line <xsl:text/><xsl:value-of select="@id"/><xsl:text/> has<xsl:text> </xsl:text><xsl:value-of select="i:Amount"/><xsl:text> </xsl:text><xsl:value-of select="name(.)"/>`;
    const xslt = stylesheet(rule("i:Line", 1000, assert("false()", "R-3", message)));
    const parts = readSkeletonXslt(xslt, "/rules/example.xsl").patterns[0].rules[0].items[0];
    expect(parts).toMatchObject({
      message: [
        { kind: "text", text: "\n      Line " },
        { kind: "value-of", select: "@id" },
        { kind: "text", text: " has " },
        { kind: "value-of", select: "i:Amount" },
        { kind: "inline", text: "" },
        { kind: "value-of", select: "name(.)" },
      ],
    });
    expect(run(xslt).map((finding) => finding.message)).toEqual(["Line 1 has 5 i:Line", "Line 2 has 7 i:Line"]);
  });

  test("reads rule lets in order between the checks, and global params and variables", () => {
    const body = `<xsl:variable name="amount" select="xs:decimal(i:Amount)"/>${assert("$amount &lt; $limit", "R-4", "over the limit")}`;
    const top = `<xsl:param name="limit" select="6"/><xsl:variable name="currency" select="/i:Invoice/@currency"/>`;
    const xslt = stylesheet(rule("i:Line", 1000, body), { top });
    const schema = readSkeletonXslt(xslt, "/rules/example.xsl");
    expect(schema.lets.map((let_) => [let_.name, let_.value])).toEqual([
      ["archiveDirParameter", "''"],
      ["limit", "6"],
      ["currency", "/i:Invoice/@currency"],
    ]);
    expect(schema.patterns[0].rules[0].items.map((item) => item.kind)).toEqual(["let", "assert"]);
    expect(run(xslt).map((finding) => finding.location)).toEqual([
      "/*:Invoice[namespace-uri()='urn:example:invoice'][1]/*:Line[namespace-uri()='urn:example:invoice'][2]",
    ]);
  });

  test("an attribute context fires under the @*|* traversal, never under *; the location of an attribute is its value", () => {
    const rules = rule("@currency", 1000, assert("false()", "R-5", "currency"));
    expect(run(stylesheet(rules))).toEqual([{ ruleId: "R-5", flag: "fatal", location: "EUR", message: "currency" }]);
    const elementsOnly = stylesheet(rules, { select: "*" });
    expect(readSkeletonXslt(elementsOnly, "/rules/example.xsl").visitsAttributes).toBe(false);
    expect(run(elementsOnly)).toEqual([]);
  });

  test("the *|comment()|processing-instruction() traversal fires the rules * does, and refuses a rule a comment or instruction could fire", () => {
    const rules = rule("i:Line", 1000, assert("false()", "R-8", "line")) + rule("@currency", 1000, assert("false()", "R-9", "currency"));
    const commented = stylesheet(rules, { select: "*|comment()|processing-instruction()" });
    expect(readSkeletonXslt(commented, "/rules/example.xsl").visitsAttributes).toBe(false);
    // Comments and instructions reach only the @*|node() template, which writes nothing.
    const xml = `<?pi first?><!-- c --><i:Invoice xmlns:i="urn:example:invoice" currency="EUR"><!-- c --><i:Line id="1"><?pi?></i:Line><i:Line/></i:Invoice>`;
    expect(run(commented, xml)).toEqual(run(stylesheet(rules, { select: "*" }), xml));
    expect(run(commented, xml).map((finding) => finding.ruleId)).toEqual(["R-8", "R-8"]);
    for (const context of ["comment()", "processing-instruction()", "node()", "i:Line | processing-instruction()", "(i:Line | node())[1]"]) {
      expect(() => readSkeletonXslt(stylesheet(rule(context, 1000, ""), { select: "*|comment()|processing-instruction()" }), "/rules/example.xsl")).toThrow("XTSE0010");
      // Under a traversal of elements only, no comment ever reaches such a rule.
      expect(() => readSkeletonXslt(stylesheet(rule(context, 1000, ""), { select: "*" }), "/rules/example.xsl")).not.toThrow();
    }
  });

  test("a rule without the traversal hides its node's descendants from the pattern", () => {
    const xslt = stylesheet(
      rule("i:Line[@id = '1']", 1001, assert("true()", "NONE", "never"), false) + rule("i:Amount", 1000, assert("false()", "R-6", "amount")),
    );
    expect(readSkeletonXslt(xslt, "/rules/example.xsl").patterns[0].rules[0].descends).toBe(false);
    expect(run(xslt).map((finding) => finding.location)).toEqual([
      "/*:Invoice[namespace-uri()='urn:example:invoice'][1]/*:Line[namespace-uri()='urn:example:invoice'][2]/*:Amount[namespace-uri()='urn:example:invoice'][1]",
    ]);
  });

  test("document() opens only what the compile options resolve", () => {
    const xslt = stylesheet(rule("i:Line", 1000, `<xsl:variable name="id" select="@id"/>${assert("document('codes.xml')/codes/code[. = $id]", "R-7", "unknown code")}`));
    const codes = readXml("<codes><code>2</code></codes>");
    expect(run(xslt, INVOICE, (href) => (href === "codes.xml" ? codes : undefined)).map((finding) => finding.ruleId)).toEqual(["R-7"]);
    expect(() => run(xslt, INVOICE, () => undefined)).toThrow("FODC0002");
    expect(() => run(xslt)).toThrow("XTSE0010");
  });

  test("refuses what it cannot map, with XTSE0010", () => {
    const refused = (xslt: string) => {
      try {
        readSkeletonXslt(xslt, "/rules/example.xsl");
      } catch (error) {
        return error instanceof XPathError ? error.code : String(error);
      }
      return "read";
    };
    expect(refused(stylesheet(rule("i:Line", 1000, "")))).toBe("read");
    expect(refused(stylesheet(rule("i:Line", 1000, ""), { top: `<xsl:key name="k" match="i:Line" use="@id"/>` }))).toBe("XTSE0010");
    expect(refused(stylesheet(rule("i:Line", 1000, `<xsl:for-each select="i:Amount"/>`)))).toBe("XTSE0010");
    expect(refused(stylesheet(rule("i:Line", 1000, ""), { select: "node()" }))).toBe("XTSE0010");
    expect(refused(stylesheet(rule("i:Line", 1000, "")).replace(`select="." mode="schematron-get-full-path"`, `select="." mode="schematron-get-full-path-2"`))).toBe("XTSE0010");
  });
});
