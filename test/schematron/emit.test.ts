// The compiled fixture schema run on Saxon-HE: first-rule-wins per pattern, lets at every level,
// abstract patterns, extends, functions, messages and the skeleton's location forms.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { schematronToXslt } from "../../src/schematron/compile.ts";
import { parseSvrl } from "../../src/validation/svrl.ts";
import { runSaxonHe, saxonHeUnavailable } from "../support/saxon-he.ts";
import { cannotRun } from "../support/requirements.ts";

const FIXTURES = join(import.meta.dir, "fixtures");
const INVOICE = "/*:Invoice[namespace-uri()='urn:test:invoice'][1]";
const line = (n: number) => `${INVOICE}/*:Line[namespace-uri()='urn:test:common'][${n}]`;
const skip = cannotRun("compiled fixture on Saxon-HE", saxonHeUnavailable());

test("the stylesheet declares the schema's namespaces and reports them", async () => {
  const xslt = await schematronToXslt(join(FIXTURES, "rules.sch"));
  expect(xslt).toContain(`xmlns:c="urn:test:common"`);
  expect(xslt).toContain(`<svrl:ns-prefix-in-attribute-values prefix="c" uri="urn:test:common"/>`);
  // Schema-level lets are global parameters, pattern-level lets global variables.
  expect(xslt).toContain(`<xsl:param name="currency" select="'EUR'"/>`);
  expect(xslt).toContain(`<xsl:variable name="lineCount" select="count(//c:Line)"/>`);
});

test("conflicts XSLT would reject are reported with their source", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sch-emit-errors-"));
  const write = (name: string, body: string) => {
    const file = join(dir, name);
    writeFileSync(file, `<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2">\n${body}\n</schema>`);
    return file;
  };
  const prefix = write("prefix.sch", `<ns prefix="svrl" uri="urn:other"/>`);
  await expect(schematronToXslt(prefix)).rejects.toThrow(`${prefix}:2: <ns>: prefix "svrl" is already bound to`);
  const lets = write("lets.sch", `<let name="a" value="1"/>\n<pattern><let name="a" value="2"/></pattern>`);
  await expect(schematronToXslt(lets)).rejects.toThrow(`${lets}:3: <let>: global variable "a" is already declared at ${lets}:2`);
});

describe.skipIf(skip)("compiled fixture on Saxon-HE", () => {
  test(
    "reports the findings the ISO skeleton would",
    async () => {
      const xsl = join(mkdtempSync(join(tmpdir(), "sch-emit-")), "rules.xslt");
      writeFileSync(xsl, await schematronToXslt(join(FIXTURES, "rules.sch")));
      const document = join(FIXTURES, "invoice.xml");
      const result = (await runSaxonHe(xsl, [document])).get(document)!;
      expect(result.error).toBeNull();
      expect(parseSvrl(result.svrl!)).toEqual([
        // Pattern "line-amounts": parameters substituted into context, flag and message text.
        {
          ruleId: "T-POSITIVE",
          flag: "warning",
          location: `${line(2)}/*:Amount[namespace-uri()='urn:test:common'][1]`,
          message: "Amount -5 of c:Line must be positive.",
        },
        // Pattern "order". Line 1 is taken by the first rule (its report fires, T-AMOUNT from the
        // abstract rule holds); the whitespace between two value-ofs is dropped as by the skeleton.
        { ruleId: "T-FIRST", flag: "warning", location: line(1), message: "Line x of 3 has c:Line amount 10EUR." },
        // Line 2 goes to the second rule, whose lets and assert come from an included fragment file.
        { ruleId: "T-LIMIT", flag: null, location: line(2), message: "Amount -5 is not above 0." },
        // The skeleton's location of an attribute context is the attribute's value (built-in template).
        { ruleId: "T-CODE", flag: null, location: "z", message: "bad code" },
        // An element in no namespace is named plainly.
        { ruleId: "T-NOTE", flag: null, location: `${INVOICE}/Note[1]`, message: "note" },
      ]);
      expect(result.svrl).toContain(`<svrl:active-pattern id="line-amounts" name="Amounts"`);
      expect(result.svrl).toContain(`<svrl:fired-rule context="c:Line[@code = 'x']"/>`);
    },
    60_000,
  );
});
