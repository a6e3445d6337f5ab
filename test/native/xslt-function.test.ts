// Native xsl:function support against Saxon-HE, call by call: the Peppol BIS 3.0.19 functions as
// declared (check digits, the recursive u:addPIVA, u:slack's xs:decimal parameters) plus small
// functions for each construct the compiler accepts (choose/when/otherwise, if, value-of, variables
// with select or content, `as` conversions and cardinality), each called with good values, untyped
// nodes, and values the function conversion rules reject. Every value and error code must be
// Saxon-HE's. What the engine does not implement must be refused when the schema is compiled.

import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { compileFunctions, UnsupportedXslt } from "../../src/native/xslt-function.ts";
import { compileXPath } from "../../src/native/xpath/compile.ts";
import { Scope } from "../../src/native/xpath/context.ts";
import { CompileSession } from "../../src/native/xpath/session.ts";
import type { XsltDeclaration } from "../../src/schematron/model.ts";
import { parseSchematron } from "../../src/schematron/parse.ts";
import { RULESETS, sharedUnavailable } from "../schematron/corpus.ts";
import { saxonHeUnavailable } from "../support/saxon-he.ts";
import { cannotRun } from "../support/requirements.ts";
import { disagreements, nativeEvaluate, saxonEvaluate } from "./saxon-eval.ts";

const XSL = "http://www.w3.org/1999/XSL/Transform";
const XS = "http://www.w3.org/2001/XMLSchema";
const NAMESPACES = { u: "utils", t: "urn:test" };

const declaration = (name: string, xml: string): XsltDeclaration => ({
  kind: "function",
  name,
  xml: xml.replace(/^<xsl:function /, `<xsl:function xmlns:xsl="${XSL}" xmlns:xs="${XS}" xmlns:t="urn:test" `),
  origin: { file: "test", line: 0 },
});

/** One function per construct. */
const CONSTRUCTS: XsltDeclaration[] = [
  declaration(
    "t:kind",
    `<xsl:function name="t:kind" as="xs:string"><xsl:param name="v"/><xsl:choose>
      <xsl:when test="empty($v)"><xsl:sequence select="'empty'"/></xsl:when>
      <xsl:when test="$v instance of xs:integer">int</xsl:when>
      <xsl:otherwise><xsl:variable name="s" select="string($v[1])"/><xsl:value-of select="'other', $s, count($v)"/></xsl:otherwise>
    </xsl:choose></xsl:function>`,
  ),
  declaration("t:ints", `<xsl:function name="t:ints" as="xs:integer*"><xsl:param name="v" as="xs:integer*"/><xsl:sequence select="for $i in $v return $i * 2"/></xsl:function>`),
  declaration("t:opt", `<xsl:function name="t:opt" as="xs:decimal?"><xsl:param name="v" as="xs:decimal?"/><xsl:if test="exists($v)"><xsl:sequence select="$v + 1"/></xsl:if></xsl:function>`),
  declaration("t:dbl", `<xsl:function name="t:dbl" as="xs:double"><xsl:param name="v" as="xs:double"/><xsl:sequence select="$v * 2"/></xsl:function>`),
  declaration("t:some", `<xsl:function name="t:some" as="xs:string+"><xsl:param name="v" as="xs:string+"/><xsl:sequence select="$v"/></xsl:function>`),
  declaration(
    "t:tree",
    `<xsl:function name="t:tree"><xsl:param name="v"/><xsl:variable name="t">ab<xsl:value-of select="$v"/>cd</xsl:variable><xsl:variable name="e"/>` +
      `<xsl:sequence select="string-length($t), boolean($t), count($t/node()), $t instance of document-node(), string($t), boolean($e), count($t//text())"/></xsl:function>`,
  ),
  declaration("t:el", `<xsl:function name="t:el" as="xs:string"><xsl:param name="e" as="element()?"/><xsl:sequence select="if ($e) then name($e) else 'none'"/></xsl:function>`),
  declaration("t:fact", `<xsl:function name="t:fact" as="xs:integer"><xsl:param name="n" as="xs:integer"/><xsl:sequence select="if ($n le 1) then 1 else $n * t:fact($n - 1)"/></xsl:function>`),
  declaration(
    "t:sum",
    `<xsl:function name="t:sum" as="xs:integer"><xsl:param name="v"/><xsl:variable name="s" as="xs:integer"><xsl:value-of select="sum($v)"/></xsl:variable><xsl:sequence select="$s"/></xsl:function>`,
  ),
  declaration("t:lazy", `<xsl:function name="t:lazy" as="xs:boolean"><xsl:param name="v"/><xsl:variable name="bad" select="xs:integer($v)"/><xsl:sequence select="true()"/></xsl:function>`),
  declaration("t:text", `<xsl:function name="t:text" as="xs:boolean"><xsl:param name="v"/><xsl:value-of select="$v"/></xsl:function>`),
  declaration("t:res", `<xsl:function name="t:res" as="xs:integer"><xsl:param name="v"/><xsl:sequence select="$v"/></xsl:function>`),
  declaration("t:var", `<xsl:function name="t:var"><xsl:param name="v"/><xsl:variable name="x" as="xs:integer" select="$v"/><xsl:sequence select="$x"/></xsl:function>`),
  declaration("t:raw", `<xsl:function name="t:raw"><xsl:param name="v"/><xsl:value-of select="$v" separator="-"/></xsl:function>`),
  declaration("t:two", `<xsl:function name="t:two" as="xs:string"><xsl:param name="a" as="xs:string"/><xsl:param name="b" as="xs:string?"/><xsl:sequence select="concat($a, '/', $b)"/></xsl:function>`),
  declaration("t:two", `<xsl:function name="t:two" as="xs:string"><xsl:param name="a" as="xs:string"/><xsl:sequence select="t:two($a, 'x')"/></xsl:function>`),
];

const DOCUMENT = `<r><gln>5790000435951</gln><gln>5790000435952</gln><amt>100.30</amt><s>abc</s><n>5567321707</n><i>12</i><i>3</i><flag>true</flag><b>bad</b></r>`;

/**
 * A value whose static type Saxon cannot narrow (the branch not taken is a node), so that a wrong
 * argument fails when the call runs, as it does in the rule sets, not when the stylesheet compiles.
 */
const dyn = (value: string) => `(if (exists(/r)) then ${value} else /r)`;

const EXPRESSIONS = [
  // Peppol functions as published.
  "u:gln('5790000435951')", "u:gln('5790000435952')", "u:gln((//gln)[1])", "u:gln(())", "u:gln(//gln)", "u:gln('')", "u:gln('abc')",
  "u:slack(1, 1.02, 0.02)", "u:slack(1, 1.03, 0.02)", "u:slack(//amt, 100.5, 0.2)", "u:slack(//amt, 100, 0.2)", `u:slack(${dyn("1e0")}, 1, 1)`, `u:slack(${dyn("()")}, 1, 1)`,
  `u:slack(${dyn("'1'")}, 1, 1)`, "u:slack(//s, 1, 1)", `u:slack(${dyn("(1, 2)")}, 1, 1)`, "u:slack(//i, 1, 1)",
  "u:mod11('123456785')", "u:mod11('123456789')", "u:mod11('0')", "u:mod11('x')", "u:mod97-0208('1234567890')", "u:mod97-0208('0123456749')", "u:mod97-0208('abc')", "u:mod97-0208(())",
  "u:checkCodiceIPA('ABC123')", "u:checkCodiceIPA('ABC12')", "u:checkCodiceIPA('ABC-23')", "u:checkCodiceIPA(())", `u:checkCodiceIPA(${dyn("123")})`, "u:checkCodiceIPA(//s)",
  "u:checkCF('RSSMRA85T10A562S')", "u:checkCF('RSSMRA8XT10A562S')", "u:checkCF('12345678901')", "u:checkCF('1234567890x')", "u:checkCF('x')", "u:checkCF(())",
  "u:checkCF16('RSSMRA85T10A562S')", "u:checkPIVAseIT('IT12345678903')", "u:checkPIVAseIT('IT00743110157')", "u:checkPIVAseIT('it00743110158')", "u:checkPIVAseIT('DE123')",
  "u:checkPIVAseIT('IT0074311015x')", `u:checkPIVAseIT(${dyn("()")})`, "u:checkPIVA('abc')", "u:checkPIVA('00743110157')", "u:checkPIVA(())", "u:addPIVA('123', 0)", "u:addPIVA('123', 1)",
  `u:addPIVA('1', ${dyn("1.0")})`, "u:addPIVA('12', //i[1])", "u:abn('51824753556')", "u:abn('51824753557')", "u:abn('abc')", "u:TinVerification('123456789')", "u:TinVerification('100000009')",
  "u:TinVerification('12')", "u:checkSEOrgnr('5567321707')", "u:checkSEOrgnr('5567321708')", "u:checkSEOrgnr('abc')", "u:checkSEOrgnr(//n)", `u:checkSEOrgnr(${dyn("()")})`, "u:checkSEOrgnr('')",
  // Constructs.
  "t:kind(())", "t:kind(3)", "t:kind(3.0)", "t:kind(('a', 'b'))", "t:kind(//i)", "t:ints((1, 2, 3))", "t:ints(//i)", "t:ints(())", `t:ints(${dyn("2.0")})`, `t:ints(${dyn("'1'")})`, "t:ints(//s)",
  "t:opt(())", "t:opt(1)", "t:opt(//amt)", `t:opt(${dyn("1e0")})`, `t:opt(${dyn("(1, 2)")})`, "t:dbl(1)", "t:dbl(1.5)", "t:dbl(//amt)", `t:dbl(${dyn("'1'")})`, `t:dbl(${dyn("true()")})`, `t:some(${dyn("()")})`, "t:some(('a', 'b'))",
  "t:some(//i)", `t:some(${dyn("1")})`, "t:tree('x')", "t:tree(())", "t:tree((1, 2))", "t:el(())", "t:el(/r/s)", "t:el(//i)", "t:el(//s/text())", `t:el(${dyn("'s'")})`, "t:fact(10)", "t:fact(25)",
  "t:fact(//i[1])", "t:sum(//i)", "t:sum(//amt)", "t:sum((1.5, 2))", "t:lazy('x')", "t:text(//flag)", "t:text('1')", "t:text('yes')", "t:text(())", "t:raw((1, 'a', //i))",
  "count(t:raw(1))", "t:raw(()) instance of text()", "t:res(1)", "t:res(())", "t:res((1, 2))", "t:res('a')", "t:res(1.5)", "t:res(//i[1])", "t:res(//s)",
  "t:var(1)", "t:var(())", "t:var((1, 2))", "t:var('a')", "t:var(1.5)", "t:var(//i[1])", "t:var(//s)", "t:two('a', ())", "t:two('a')", "t:two(//s)", `t:two(${dyn("1")})`,
];

const skip = cannotRun("native xsl:function vs Saxon-HE", sharedUnavailable() ?? saxonHeUnavailable());

function peppolFunctions(): XsltDeclaration[] {
  return parseSchematron(join(RULESETS, "peppol_bis_schematron/3.0.19/rules/sch/PEPPOL-EN16931-UBL.sch")).xslt;
}

function stylesheetNamespaces(): Map<string, string> {
  return new Map([["xs", XS], ["xsl", XSL], ...Object.entries(NAMESPACES)]);
}


describe.skipIf(skip)("native xsl:function agrees with Saxon-HE", () => {
  let declarations: XsltDeclaration[] = [];
  let reference: string[] = [];
  beforeAll(async () => {
    declarations = [...peppolFunctions(), ...CONSTRUCTS];
    reference = await saxonEvaluate(EXPRESSIONS, DOCUMENT, NAMESPACES, declarations.map((d) => d.xml));
  }, 120_000);

  test("every call gives Saxon-HE's value or error code", () => {
    const ours = nativeEvaluate(EXPRESSIONS, DOCUMENT, { xsl: XSL, ...NAMESPACES }, compileFunctions(declarations, stylesheetNamespaces(), new Map(), new CompileSession()));
    const differing = disagreements(EXPRESSIONS, ours, reference);
    expect(differing).toEqual([]);
  });
});

describe("unsupported XSLT is refused at compile time", () => {
  const refuse = (xml: string) => () => compileFunctions([declaration("t:f", xml)], stylesheetNamespaces(), new Map(), new CompileSession());
  test("instructions, attributes and types the engine does not implement", () => {
    expect(refuse(`<xsl:function name="t:f"><xsl:param name="v"/><xsl:for-each select="$v"><xsl:sequence select="."/></xsl:for-each></xsl:function>`)).toThrow(UnsupportedXslt);
    expect(refuse(`<xsl:function name="t:f"><xsl:param name="v"/><xsl:variable name="x"><xsl:copy-of select="$v"/></xsl:variable><xsl:sequence select="$x"/></xsl:function>`)).toThrow(
      UnsupportedXslt,
    );
    expect(refuse(`<xsl:function name="t:f"><xsl:param name="v"/><r/></xsl:function>`)).toThrow(UnsupportedXslt);
    expect(refuse(`<xsl:function name="t:f" as="xs:gYear"><xsl:param name="v"/><xsl:sequence select="$v"/></xsl:function>`)).toThrow(UnsupportedXslt);
    expect(refuse(`<xsl:function name="t:f" cache="yes"><xsl:param name="v"/><xsl:sequence select="$v"/></xsl:function>`)).toThrow(UnsupportedXslt);
    expect(refuse(`<xsl:function name="t:f"><xsl:param name="v" tunnel="yes"/><xsl:sequence select="$v"/></xsl:function>`)).toThrow(UnsupportedXslt);
    expect(() => compileFunctions([{ kind: "key", name: "k", xml: "<xsl:key/>", origin: { file: "test", line: 0 } }], stylesheetNamespaces(), new Map(), new CompileSession())).toThrow(UnsupportedXslt);
  });

  test("a call of an undeclared function or arity is a static error", () => {
    const session = new CompileSession();
    const functions = compileFunctions(CONSTRUCTS, stylesheetNamespaces(), new Map(), session);
    const scope = () => new Scope(session, stylesheetNamespaces(), new Map(), functions);
    expect(() => compileXPath("t:fact(1, 2)", scope())).toThrow("XPST0017");
    expect(() => compileXPath("t:nope(1)", scope())).toThrow("XPST0017");
    expect(() => compileXPath("t:fact($undeclared)", scope())).toThrow("XPST0008");
  });
});
