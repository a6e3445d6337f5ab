// A finding's location numbers its node among like-named siblings. Counting them for every finding
// made a document whose many siblings all fail a rule (an empty unknown element repeated under the
// root) quadratic in their number; each parent's children are now numbered once. And a run can
// decline findings past the verdict's caps without locating them, while every error the rules or
// the location code raise still stops the run.

import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileSchema, runPlan } from "../../src/native/engine.ts";
import type { LocationStyle } from "../../src/native/location.ts";
import { parseSchematron } from "../../src/schematron/parse.ts";

const work = mkdtempSync(join(tmpdir(), "finding-locations-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function schema(rules: string) {
  const file = join(work, `schema-${Math.random().toString(36).slice(2)}.sch`);
  writeFileSync(file, `<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2"><ns prefix="p" uri="urn:p"/><pattern>${rules}</pattern></schema>`);
  return parseSchematron(file);
}

const EMPTY = schema(`<rule context="p:a | p:b"><assert id="EMPTY" test="node()">empty</assert></rule>`);

// 60,000 empty siblings, a and b alternating with text between them: each name numbered on its own.
const SIBLINGS = 60_000;
const document = `<p:r xmlns:p="urn:p">${Array.from({ length: SIBLINGS }, (_, i) => (i % 2 ? "<p:b/>" : "<p:a/> ")).join("")}</p:r>`;

const LAST_A: Record<LocationStyle, string> = {
  skeleton: `/*:r[namespace-uri()='urn:p'][1]/*:a[namespace-uri()='urn:p'][${SIBLINGS / 2}]`,
  "skeleton-prefixed": `/p:r/p:a[${SIBLINGS / 2}]`,
  schxslt: `/Q{urn:p}r[1]/Q{urn:p}a[${SIBLINGS / 2}]`,
};

for (const style of Object.keys(LAST_A) as LocationStyle[]) {
  test(`${style} locations of many like-named siblings are numbered without counting preceding siblings per finding`, () => {
    const plan = compileSchema({ ...EMPTY, locations: style });
    const started = performance.now();
    const findings = runPlan(plan, document);
    const elapsed = performance.now() - started;
    expect(findings).toHaveLength(SIBLINGS);
    expect(findings[SIBLINGS - 2].location).toBe(LAST_A[style]);
    expect(findings[SIBLINGS - 1].location).toBe(LAST_A[style].replaceAll(":a", ":b").replaceAll("}a", "}b"));
    // Generous: counting preceding siblings per finding was quadratic; this only proves it no longer is.
    expect(elapsed).toBeLessThan(2_000);
  });
}

test("the schxslt form numbers text nodes among text siblings", () => {
  const plan = compileSchema({ ...schema(`<rule context="p:r"><assert id="T" test="false()" subject="text()[last()]">t</assert></rule>`), locations: "schxslt" });
  expect(runPlan(plan, `<p:r xmlns:p="urn:p">one<p:a/>two<p:a/>three</p:r>`).map((f) => f.location)).toEqual(["/Q{urn:p}r[1]/text()[3]"]);
});

test("a declined finding is neither located nor returned", () => {
  const plan = compileSchema(EMPTY);
  const asked: string[] = [];
  const kept = runPlan(plan, `<p:r xmlns:p="urn:p"><p:a/><p:b/><p:a/></p:r>`, undefined, (finding) => {
    asked.push(`${finding.ruleId} ${finding.message}`);
    return asked.length === 2;
  });
  expect(asked).toEqual(["EMPTY empty", "EMPTY empty", "EMPTY empty"]);
  expect(kept).toEqual([{ ruleId: "EMPTY", flag: null, location: "/*:r[namespace-uri()='urn:p'][1]/*:b[namespace-uri()='urn:p'][1]", message: "empty" }]);
});

test("a declined finding still raises what its location or message would raise, as the stylesheet does", () => {
  const notANode = compileSchema(schema(`<rule context="p:a"><assert id="S" test="false()" subject="'text'">s</assert></rule>`));
  expect(() => runPlan(notANode, `<p:r xmlns:p="urn:p"><p:a/></p:r>`, undefined, () => false)).toThrow("XTTE0520");
  const badMessage = compileSchema(schema(`<rule context="p:a"><assert id="M" test="false()"><value-of select="xs:integer('x')"/></assert></rule>`));
  expect(() => runPlan(badMessage, `<p:r xmlns:p="urn:p"><p:a/></p:r>`, undefined, () => false)).toThrow("FORG0001");
});
