// "No earlier duplicate" tests (`X = preceding::T/PATH`, `X = preceding-sibling::T/PATH`: CEN's
// UBL-SR-44 and UBL-SR-47, XRechnung's BR-DE-22) compared each T with every T before it, quadratic
// in the number of T. They are lookups in an index of the T's values now; the findings must be
// exactly Saxon-HE's, ancestors, other parents, attributes, string and numeric probes included.

import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileSchema, runPlan } from "../../src/native/engine.ts";
import { parseSchematron } from "../../src/schematron/parse.ts";
import { saxonHeUnavailable } from "../support/saxon-he.ts";
import { cannotRun } from "../support/requirements.ts";
import { differentialOfText } from "./differential.ts";

const report = (id: string, context: string, test: string) =>
  `<pattern><rule context="${context}"><report id="${id}" test="${test}">${id} <value-of select="."/></report></rule></pattern>`;

const SCHEMA = `<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2">
  <ns prefix="p" uri="urn:p"/>
  ${report("SR44", "p:r", "count(//p:id[not(preceding::p:id/. = .)]) &gt; 1")}
  ${report("DUP", "p:id", "preceding::p:id = .")}
  ${report("DUP-DOT", "p:id", ". = preceding::p:id/.")}
  ${report("SIB", "p:doc", "./p:att/@name = preceding-sibling::p:doc/p:att/@name")}
  ${report("ATT", "p:doc/p:att/@name", ". = preceding::p:id")}
  ${report("STR", "p:n[1]", "preceding::p:id = 'b'")}
  ${report("NUM", "p:n[. = '1.0']", "preceding::p:n = 1")}
  ${report("SIB-STR", "p:n[1]", "'a' = preceding-sibling::p:id")}
</schema>`;

const DOCUMENTS = [
  // A duplicate, an ancestor with the same value (not preceding), values under other parents, a
  // numeric probe (compared as numbers, not as strings).
  `<p:r xmlns:p="urn:p"><p:id>a</p:id><p:g><p:id>b</p:id></p:g><p:id>a<p:id>a</p:id></p:id><p:id><p:id>z</p:id></p:id><p:n>1</p:n><p:n>1.0</p:n></p:r>`,
  // File names: repeated among siblings, repeated under another parent only, an attribute context.
  `<p:r xmlns:p="urn:p"><p:id>f</p:id><p:doc><p:att name="f"/></p:doc><p:doc><p:att name="g"/></p:doc><p:doc><p:att name="f"/></p:doc><p:x><p:doc><p:att name="g"/></p:doc></p:x></p:r>`,
  // No T at all.
  `<p:r xmlns:p="urn:p"><p:doc/></p:r>`,
];

const work = mkdtempSync(join(tmpdir(), "earlier-equality-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const skip = cannotRun("earlier-duplicate tests vs Saxon-HE", saxonHeUnavailable());

describe.skipIf(skip)("earlier-duplicate tests", () => {
  test("find exactly what Saxon-HE finds", async () => {
    const outcome = await differentialOfText(SCHEMA, DOCUMENTS);
    expect(outcome.differences).toEqual([]);
    expect(outcome.identical).toBe(DOCUMENTS.length);
    expect(outcome.findings).toBe(9);
  }, 60_000);
});

test("are linear in the number of earlier nodes", () => {
  const file = join(work, "sr44.sch");
  writeFileSync(file, `<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2"><ns prefix="p" uri="urn:p"/>${report("SR44", "p:r", "count(//p:id[not(preceding::p:id/. = .)]) &gt; 1")}${report("SIB", "p:doc[1]", "count(../p:doc[not(./@n = preceding-sibling::p:doc/@n)]) &gt; 1")}</schema>`);
  const plan = compileSchema(parseSchematron(file));
  const count = 40_000;
  const document = `<p:r xmlns:p="urn:p">${'<p:id>1</p:id><p:doc n="1"/>'.repeat(count)}<p:id>2</p:id><p:doc n="2"/></p:r>`;
  const started = performance.now();
  const findings = runPlan(plan, document);
  // Generous: comparing each with every earlier one was quadratic; this only proves it no longer is.
  expect(performance.now() - started).toBeLessThan(3_000);
  expect(findings.map((f) => f.ruleId)).toEqual(["SR44", "SIB"]);
});
