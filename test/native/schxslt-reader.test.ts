// `readSchxslt` on small stylesheets in SchXslt 1.10's shape: rule order by priority, shadowing
// within a pattern, asserts vs reports, messages, lets, locations of every node kind, findings
// grouped per pattern, and the shapes it refuses. SchXslt's own machinery (root template, built-in
// traversal templates, `schxslt:location`) is taken from the pinned XRechnung file, never copied;
// the rule templates around it are written here in the shape SchXslt emits. Each snippet's native
// findings are asserted literally and, where Java runs, checked against Saxon-HE on the same file.

import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileSchema, runPlan } from "../../src/native/engine.ts";
import { readSchxslt } from "../../src/native/from-xslt/schxslt.ts";
import { XPathError } from "../../src/native/xpath/errors.ts";
import { parseSvrl } from "../../src/validation/svrl.ts";
import type { Finding } from "../../src/schematron/finding.ts";
import { runSaxonHe, saxonHeUnavailable } from "../support/saxon-he.ts";
import { cannotRun } from "../support/requirements.ts";
import { RULESETS, sharedUnavailable } from "../schematron/corpus.ts";

const skip = cannotRun("readSchxslt snippets", sharedUnavailable());
const saxonSkip = skip || cannotRun("readSchxslt snippets on Saxon-HE", saxonHeUnavailable());
const PINNED = join(RULESETS, "xrechnung_schematron/2.5.0/schematron/ubl/XRechnung-UBL-validation.xsl");

interface CheckSpec {
  kind: "assert" | "report";
  test: string;
  id: string;
  flag?: string;
  /** XPath of the subject passed to schxslt:location (the context node when absent). */
  subject?: string;
  /** Content of svrl:text, as XSLT. */
  text: string;
}

interface RuleSpec {
  context: string;
  priority: number;
  lets?: [string, string][];
  checks: CheckSpec[];
}

/** A pattern's rules in the order they are written into the file (which need not be priority order). */
type PatternSpec = RuleSpec[];

/** The mode and named template of the pinned file's only pattern group, whose root template calls it. */
const GROUP = "d13e227";

function machinery(): { root: string; location: string } {
  const pinned = readFileSync(PINNED, "utf8");
  const root = pinned.slice(pinned.indexOf(`<xsl:param name="schxslt.validate.initial-document-uri"`), pinned.indexOf(`<xsl:template name="${GROUP}">`));
  const start = pinned.indexOf(`<xsl:function name="schxslt:location"`);
  return { root, location: pinned.slice(start, pinned.indexOf("</xsl:function>", start) + "</xsl:function>".length) };
}

function stylesheet(patterns: PatternSpec[], globals: [string, string][] = []): string {
  const { root, location } = machinery();
  const escape = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
  const rules = patterns.flatMap((rules, p) =>
    rules.map((rule) => {
      const pattern = `p${p}`;
      const record = (body: string) => `<schxslt:rule pattern="${pattern}">${body}</schxslt:rule>`;
      const bookkeeping = (element: string) =>
        `<svrl:${element} xmlns:svrl="http://purl.oclc.org/dsdl/svrl"><xsl:attribute name="context">${escape(rule.context)}</xsl:attribute>` +
        `<xsl:variable name="documentUri" as="xs:anyURI?" select="document-uri()"/><xsl:if test="exists($documentUri)"><xsl:attribute name="document" select="$documentUri"/></xsl:if></svrl:${element}>`;
      const next = (select: string) => `<xsl:next-match><xsl:with-param name="schxslt:patterns-matched" as="xs:string*" select="${select}"/></xsl:next-match>`;
      const checks = rule.checks.map((check) => {
        const element = check.kind === "assert" ? "failed-assert" : "successful-report";
        return (
          `<xsl:if test="${escape(check.kind === "assert" ? `not(${check.test})` : check.test)}">` +
          `<svrl:${element} xmlns:svrl="http://purl.oclc.org/dsdl/svrl" location="{schxslt:location(${escape(check.subject ?? ".")})}"${check.flag ? ` flag="${check.flag}"` : ""} id="${check.id}">` +
          `<xsl:attribute name="test">${escape(check.test)}</xsl:attribute><svrl:text>${check.text}</svrl:text></svrl:${element}></xsl:if>`
        );
      });
      return (
        `<xsl:template match="${escape(rule.context)}" priority="${rule.priority}" mode="${GROUP}">` +
        `<xsl:param name="schxslt:patterns-matched" as="xs:string*"/>` +
        (rule.lets ?? []).map(([name, select]) => `<xsl:variable name="${name}" select="${escape(select)}"/>`).join("") +
        `<xsl:choose><xsl:when test="$schxslt:patterns-matched[. = '${pattern}']">` +
        record(`<xsl:comment>shadowed</xsl:comment>${bookkeeping("suppressed-rule")}`) +
        next("$schxslt:patterns-matched") +
        `</xsl:when><xsl:otherwise>` +
        record(bookkeeping("fired-rule") + checks.join("")) +
        next(`($schxslt:patterns-matched, '${pattern}')`) +
        `</xsl:otherwise></xsl:choose></xsl:template>`
      );
    }),
  );
  const listed = patterns.map(
    (_, p) =>
      `<schxslt:pattern id="p${p}"><xsl:if test="exists(base-uri(root()))"><xsl:attribute name="documents" select="base-uri(root())"/></xsl:if>` +
      `<xsl:for-each select="root()"><svrl:active-pattern xmlns:svrl="http://purl.oclc.org/dsdl/svrl" name="pattern-${p}" id="pattern-${p}">` +
      `<xsl:attribute name="documents" select="base-uri(.)"/></svrl:active-pattern></xsl:for-each></schxslt:pattern>`,
  );
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<xsl:transform xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:xs="http://www.w3.org/2001/XMLSchema"`,
    `  xmlns:schxslt="https://doi.org/10.5281/zenodo.1495494" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"`,
    `  xmlns:r="urn:r" xmlns:o="urn:o" version="2.0">`,
    `<xsl:output indent="yes"/>`,
    ...globals.map(([name, select]) => `<xsl:param name="${name}" select="${escape(select)}"/>`),
    root,
    `<xsl:template name="${GROUP}"><schxslt:document>${listed.join("")}<xsl:apply-templates mode="${GROUP}" select="root()"/></schxslt:document></xsl:template>`,
    ...rules,
    location,
    `</xsl:transform>`,
  ].join("\n");
}

const DOCUMENT = `<?xml version="1.0" encoding="UTF-8"?>
<r:Root xmlns:r="urn:r" xmlns:o="urn:o" a="1">
  <r:Item id="x" o:code="c1"><r:Name>first</r:Name></r:Item>
  <Plain>t</Plain>
  <r:Item id="y"><r:Name>second</r:Name><r:Name/></r:Item>
  <!-- c -->
</r:Root>`;

const R = "Q{urn:r}Root[1]";

/** Every snippet run, for the Saxon-HE cross-check. */
const snippets: { name: string; xslt: string; expected: string[] }[] = [];

function line(finding: Finding): string {
  return `${finding.ruleId} [${finding.flag}] @ ${finding.location}: ${finding.message}`;
}

function nativeOutcome(xslt: string): string[] {
  try {
    return runPlan(compileSchema(readSchxslt(xslt, "snippet.xsl")), DOCUMENT).map(line);
  } catch (error) {
    if (error instanceof XPathError) return [`stopped ${error.code}`];
    throw error;
  }
}

function expectFindings(name: string, patterns: PatternSpec[], expected: string[], globals: [string, string][] = []): void {
  const xslt = stylesheet(patterns, globals);
  snippets.push({ name, xslt, expected });
  expect(nativeOutcome(xslt)).toEqual(expected);
}

const report = (id: string, test: string, text: string, extra: Partial<CheckSpec> = {}): CheckSpec => ({ kind: "report", id, test, text, ...extra });
const assert = (id: string, test: string, text: string, extra: Partial<CheckSpec> = {}): CheckSpec => ({ kind: "assert", id, test, text, ...extra });

describe.skipIf(skip)("readSchxslt", () => {
  test("locations of the document node, elements (with and without namespace), attributes, text and comments", () => {
    expectFindings(
      "locations",
      [
        [
          { context: "/", priority: 9, checks: [report("DOC", "true()", "document")] },
          { context: "r:Item", priority: 8, checks: [report("ITEM", "true()", "item"), report("NAME2", "r:Name[2]", "second name", { subject: "r:Name[2]" })] },
          { context: "@o:code", priority: 7, checks: [report("ATTR", "true()", "attribute")] },
          { context: "Plain", priority: 6, checks: [report("PLAIN", "true()", "plain"), report("TEXT", "true()", "text", { subject: "text()" })] },
          { context: "r:Root", priority: 5, checks: [report("COMMENT", "true()", "comment", { subject: "comment()" }), report("A", "true()", "a", { subject: "@a" })] },
        ],
      ],
      [
        "DOC [null] @ /: document",
        `COMMENT [null] @ /${R}/comment()[1]: comment`,
        `A [null] @ /${R}/@Q{}a: a`,
        `ITEM [null] @ /${R}/Q{urn:r}Item[1]: item`,
        `ATTR [null] @ /${R}/Q{urn:r}Item[1]/@Q{urn:o}code: attribute`,
        `PLAIN [null] @ /${R}/Q{}Plain[1]: plain`,
        `TEXT [null] @ /${R}/Q{}Plain[1]/text()[1]: text`,
        `ITEM [null] @ /${R}/Q{urn:r}Item[2]: item`,
        `NAME2 [null] @ /${R}/Q{urn:r}Item[2]/Q{urn:r}Name[2]: second name`,
      ],
    );
  });

  test("per pattern the matching rule of highest priority wins, whatever the file order; other patterns still fire; findings are grouped by pattern", () => {
    expectFindings(
      "shadowing",
      [
        [
          { context: "r:Item", priority: 9, checks: [report("GENERAL", "true()", "general")] },
          { context: "r:Item[@id = 'y']", priority: 10, checks: [report("SPECIFIC", "true()", "specific")] },
          { context: "r:Name", priority: 8, checks: [report("NAME", "true()", "name")] },
        ],
        [{ context: "r:Item", priority: 7, checks: [report("OTHER", "true()", "other pattern")] }],
      ],
      [
        `GENERAL [null] @ /${R}/Q{urn:r}Item[1]: general`,
        `NAME [null] @ /${R}/Q{urn:r}Item[1]/Q{urn:r}Name[1]: name`,
        `SPECIFIC [null] @ /${R}/Q{urn:r}Item[2]: specific`,
        `NAME [null] @ /${R}/Q{urn:r}Item[2]/Q{urn:r}Name[1]: name`,
        `NAME [null] @ /${R}/Q{urn:r}Item[2]/Q{urn:r}Name[2]: name`,
        `OTHER [null] @ /${R}/Q{urn:r}Item[1]: other pattern`,
        `OTHER [null] @ /${R}/Q{urn:r}Item[2]: other pattern`,
      ],
    );
  });

  test("an assert fires when its test is false, a report when it is true; flags and messages with value-of and name()", () => {
    expectFindings(
      "assert-report",
      [
        [
          {
            context: "r:Item",
            priority: 3,
            checks: [
              assert("ASSERT", "@id = 'x'", `Item <xsl:value-of select="@id"/> is a <xsl:value-of select="name()"/>`, { flag: "fatal" }),
              report("REPORT", "@id = 'x'", "\n   reported   <xsl:value-of select=\"r:Name\"/>\n ", { flag: "warning" }),
            ],
          },
        ],
      ],
      [`REPORT [warning] @ /${R}/Q{urn:r}Item[1]: reported first`, `ASSERT [fatal] @ /${R}/Q{urn:r}Item[2]: Item y is a r:Item`],
    );
  });

  test("rule lets and global parameters", () => {
    expectFindings(
      "lets",
      [[{ context: "r:Item", priority: 1, lets: [["names", "count(r:Name)"]], checks: [assert("ONE", "$names = 1", `<xsl:value-of select="$names"/> of <xsl:value-of select="$items"/>`)] }]],
      [`ONE [null] @ /${R}/Q{urn:r}Item[2]: 2 of 2`],
      [["items", "count(//r:Item)"]],
    );
  });

  test("a location of no node stops the run with XPTY0004, as schxslt:location's node() parameter does", () => {
    expectFindings("empty-subject", [[{ context: "r:Item", priority: 1, checks: [report("NONE", "true()", "none", { subject: "r:Missing" })] }]], ["stopped XPTY0004"]);
  });

  test("shapes it cannot model are refused with XTSE0010", () => {
    const refused = (xslt: string) => {
      try {
        readSchxslt(xslt, "snippet.xsl");
      } catch (error) {
        return error instanceof XPathError ? error.code : String(error);
      }
      return "read";
    };
    const item = (context: string) => stylesheet([[{ context, priority: 1, checks: [report("X", "true()", "x")] }]]);
    expect(refused(item("r:Item"))).toBe("read");
    // SchXslt visits text nodes, the engine does not: such a rule must not be silently dropped.
    expect(refused(item("r:Name/text()"))).toBe("XTSE0010");
    expect(refused(item("r:Root/node()"))).toBe("XTSE0010");
    expect(refused(item("r:Item").replace(`id="X"`, `id="{@id}"`))).toBe("XTSE0010");
    expect(refused(item("r:Item").replace(`select="root()"/></schxslt:document>`, `select="document('other.xml')"/></schxslt:document>`))).toBe("XTSE0010");
    expect(refused(item("r:Item").replace(`<xsl:variable name="documentUri" as="xs:anyURI?" select="document-uri()"/>`, `<xsl:variable name="documentUri" select="error()"/>`))).toBe("XTSE0010");
    expect(refused(item("r:Item").replace(`'[', $position, ']'`, `'(', $position, ')'`))).toBe("XTSE0010");
    const asserted = stylesheet([[{ context: "r:Item", priority: 1, checks: [assert("X", "true()", "x")] }]]);
    expect(refused(asserted)).toBe("read");
    expect(refused(asserted.replace(`<xsl:if test="not(true())">`, `<xsl:if test="not(false())">`))).toBe("XTSE0010");
  });

  describe.skipIf(saxonSkip)("Saxon-HE on the same stylesheets", () => {
    const work = mkdtempSync(join(tmpdir(), "schxslt-reader-"));
    afterAll(() => rmSync(work, { recursive: true, force: true }));
    test(
      "gives the same findings for every snippet",
      async () => {
        expect(snippets.length).toBeGreaterThan(0);
        const document = join(work, "document.xml");
        writeFileSync(document, DOCUMENT);
        for (const snippet of snippets) {
          const xslt = join(work, `${snippet.name}.xsl`);
          writeFileSync(xslt, snippet.xslt);
          const result = (await runSaxonHe(xslt, [document])).get(document)!;
          const outcome = result.error !== null ? [`stopped ${/^[A-Z]{4}\d{4}/.exec(result.error)?.[0]}`] : parseSvrl(result.svrl!).map(line);
          expect({ snippet: snippet.name, outcome }).toEqual({ snippet: snippet.name, outcome: snippet.expected });
        }
      },
      5 * 60_000,
    );
  });
});
