// A plan compiles a rule's lets and checks the first time the rule fires (workers then hold only
// the rules their documents reach); `eager` compiles all of them at once, as the build does to
// prove that the engine supports every rule of a bundled plan.

import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileSchema, runPlan } from "../../src/native/engine.ts";
import { parseSchematron } from "../../src/schematron/parse.ts";

// R2's test calls a function nobody declares: a static error, met only when R2 is compiled.
const work = mkdtempSync(join(tmpdir(), "lazy-rules-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const schemaFile = join(work, "lazy.sch");
writeFileSync(
  schemaFile,
  `<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2">
  <ns prefix="p" uri="urn:p"/>
  <pattern>
    <rule context="p:a"><let name="n" value="count(p:c)"/><assert id="R1" test="$n = 1">one c, not <value-of select="$n"/></assert></rule>
    <rule context="p:b"><assert id="R2" test="p:undeclared(.)">never compiled unless a b fires</assert></rule>
  </pattern>
</schema>`,
);
const SCHEMA = parseSchematron(schemaFile);

test("a rule that never fires is never compiled", () => {
  const plan = compileSchema(SCHEMA);
  expect(runPlan(plan, `<p:r xmlns:p="urn:p"><p:a><p:c/></p:a></p:r>`)).toEqual([]);
  expect(runPlan(plan, `<p:r xmlns:p="urn:p"><p:a/><p:a><p:c/><p:c/></p:a></p:r>`).map((f) => f.message)).toEqual(["one c, not 0", "one c, not 2"]);
});

test("a rule is compiled when it first fires, so a static error in it stops that run", () => {
  const plan = compileSchema(SCHEMA);
  expect(() => runPlan(plan, `<p:r xmlns:p="urn:p"><p:b/></p:r>`)).toThrow("XPST0017");
});

test("eager compiles every rule up front and reports the static error there", () => {
  expect(() => compileSchema(SCHEMA, { eager: true })).toThrow("XPST0017");
});
