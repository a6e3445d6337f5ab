// Tests a rule answers from the document's names (issue 23): which tests have such an answer and
// which names it rests on, that the engine takes it instead of running the test, and that the
// verdicts stay Saxon-HE's, errors included, where a name is absent, present, or present only as
// an attribute, and where a predicate or a variable before the absent name must still raise.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { absentAnswer } from "../../src/native/xpath/absent-names.ts";
import { Scope } from "../../src/native/xpath/context.ts";
import { nameIdOf, XDocument } from "../../src/native/xpath/document.ts";
import { parseXPath } from "../../src/native/xpath/parser.ts";
import { CompileSession } from "../../src/native/xpath/session.ts";
import { compileSchema, runPlan } from "../../src/native/engine.ts";
import { parseSchematron } from "../../src/schematron/parse.ts";
import { saxonHeUnavailable } from "../support/saxon-he.ts";
import { cannotRun } from "../support/requirements.ts";
import { differentialOfText } from "./differential.ts";

const P = "urn:p";
const scope = () => new Scope(new CompileSession(), new Map([["p", P]]), new Map());
const names = (...locals: string[]) => locals.map((local) => nameIdOf(local.startsWith("@") ? "" : P, local.replace(/^@/, "")));

describe("which tests are answered from the document's names", () => {
  const CASES: [string, { ids: number[]; value: boolean } | null][] = [
    ["not(p:a/p:b/p:c)", { ids: names("a", "b", "c"), value: true }],
    ["exists(p:a/p:b)", { ids: names("a", "b"), value: false }],
    ["boolean(p:a)", { ids: names("a"), value: false }],
    ["empty(p:a/@k)", { ids: names("a", "@k"), value: true }],
    ["p:a/p:b", { ids: names("a", "b"), value: false }],
    ["fn:not(not(p:a))", { ids: names("a"), value: false }],
    // `//` and a union first step select from the rule's node and raise nothing.
    ["exists(//p:a/p:b)", { ids: names("a", "b"), value: false }],
    ["not((p:a | p:b)/p:c)", { ids: names("c"), value: true }],
    // The names stop at the first step with predicates: its own name counts, later ones do not.
    ["exists(p:a[xs:integer(.) = 1]/p:b)", { ids: names("a"), value: false }],
    ["exists(p:a/p:b[p:x]/p:c)", { ids: names("a", "b"), value: false }],
    // `and` and `or` through their left operand, when it decides alone.
    ["exists(p:a) and xs:integer(p:b) = 1", { ids: names("a"), value: false }],
    ["not(p:a) or xs:integer(p:b) = 1", { ids: names("a"), value: true }],
    ["not(p:a) and exists(p:b)", null],
    ["xs:integer(p:b) = 1 or not(p:a)", null],
    // A step after a variable, a filter or a function may raise before the name is reached.
    ["exists($v/p:a)", null],
    ["exists(p:a/string()/p:b)", null],
    ["exists((p:a, p:b))", null],
    ["count(p:a) = 0", null],
    ["exists(*/node())", null],
  ];
  for (const [source, expected] of CASES) {
    test(source, () => {
      expect(absentAnswer(parseXPath(source), scope())).toEqual(expected);
    });
  }
});

const SCHEMA = `<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2">
  <ns prefix="p" uri="${P}"/>
  <pattern><rule context="/p:r">
    <assert id="A1" test="not(p:a/p:b/p:c)">A1</assert>
    <assert id="A2" test="not(p:a/p:zz)">A2</assert>
    <assert id="A3" test="exists(p:a/p:zz)">A3</assert>
    <assert id="A4" test="empty(//p:zz/p:b)">A4</assert>
    <report id="A5" test="p:a/@k">A5 <value-of select="count(p:a)"/></report>
    <report id="A6" test="p:a/@zz">A6</report>
    <assert id="A7" test="not((p:a | p:y)/p:b)">A7</assert>
    <report id="A8" test="exists(p:a) and count(p:a) = 2">A8</report>
    <report id="A9" test="not(p:k) or count(p:a) = 2">A9</report>
    <report id="A10" test="p:a[xs:integer(p:n) = 1]/p:zz">A10</report>
    <report id="A11" test="exists(p:zz[xs:integer(.) = 1])">A11</report>
  </rule></pattern>
  <pattern><rule context="p:a"><let name="m" value="p:m"/>
    <report id="B1" test="exists($m[xs:integer(.) = 1]/p:zz)">B1</report>
    <assert id="B2" test="p:b/p:c">B2 <value-of select="p:n"/></assert>
  </rule></pattern>
</schema>`;

const DOCUMENTS = [
  // No zz anywhere: every test about it answered from the names; `k` only as an attribute.
  `<p:r xmlns:p="${P}"><p:a k="1"><p:n>1</p:n><p:b><p:c/></p:b></p:a><p:a><p:n>2</p:n><p:b/></p:a></p:r>`,
  // zz present, under another parent: the tests run and answer as on Saxon-HE.
  `<p:r xmlns:p="${P}"><p:a><p:n>1</p:n><p:b/></p:a><p:y><p:zz/></p:y><p:a><p:n>1</p:n><p:zz/></p:a></p:r>`,
  // A predicate before the absent zz meets a value that is no integer: Saxon-HE stops, and so must we;
  // A10's in a step, B1's after a variable.
  `<p:r xmlns:p="${P}"><p:a><p:n>x</p:n><p:b><p:c/></p:b></p:a></p:r>`,
  `<p:r xmlns:p="${P}"><p:a><p:n>2</p:n><p:m>x</p:m><p:b><p:c/></p:b></p:a></p:r>`,
];

describe.skipIf(cannotRun("absent names vs Saxon-HE", saxonHeUnavailable()))("tests answered from the document's names agree with Saxon-HE", () => {
  test("findings and stops are Saxon-HE's", async () => {
    const report = await differentialOfText(SCHEMA, DOCUMENTS);
    expect(report.differences).toEqual([]);
    expect([report.identical, report.bothStopped]).toEqual([2, 2]);
    expect(report.findings).toBeGreaterThan(5);
  }, 120_000);
});

test("the engine answers from the names instead of running the test", () => {
  const work = mkdtempSync(join(tmpdir(), "absent-names-"));
  writeFileSync(join(work, "schema.sch"), SCHEMA);
  const plan = compileSchema(parseSchematron(join(work, "schema.sch")));
  rmSync(work, { recursive: true });
  const asked = XDocument.prototype.lacksAnyName;
  let answered = 0;
  XDocument.prototype.lacksAnyName = function (this: XDocument, ids: readonly number[]) {
    const lacks = asked.call(this, ids);
    if (lacks) answered++;
    return lacks;
  };
  try {
    runPlan(plan, DOCUMENTS[0]);
  } finally {
    XDocument.prototype.lacksAnyName = asked;
  }
  // A2, A3, A4, A11 (no zz), A6 (no zz attribute), A9 (no p:k element, though an attribute k);
  // B1's path starts from a variable, A10's names stop at its predicate's `p:a`.
  expect(answered).toBe(6);
});
