// Code lists opened by document() are read into tables of codes when a lookup compiles
// (src/native/xpath/code-tables.ts): `document('codes.xml')/db/cl[@id=1]/e[@v=$code]`, the Factur-X
// rule files' code-list tests. Answers and errors must be Saxon-HE's, for codes of every type, and
// the tree must not be held once the tables are read.

import { describe, expect, test } from "bun:test";
import { saxonHeUnavailable } from "../support/saxon-he.ts";
import { cannotRun } from "../support/requirements.ts";
import { disagreements, nativeEvaluate, saxonEvaluate } from "./saxon-eval.ts";
import { compileSchema, runPlan } from "../../src/native/engine.ts";
import { readXml } from "../../src/native/xml-reader.ts";
import type { XDocument } from "../../src/native/xpath/document.ts";
import { parseSchematron } from "../../src/schematron/parse.ts";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// List 1 of country codes (one entry without a code); list 2 with a number before a code that is
// none and one after; list 4 empty. In the poisoned one, a list whose id is no number comes between
// two lists with id 1.
const CODES =
  `<db>\n  <cl id="1">\n    <e v="DE"/>\n    <e v="FR"/>\n    <e/>\n  </cl>\n  <cl id="2"><e v="10"/><e v="abc"/><e v="20"/></cl>\n` +
  `  <cl id="3"><e v="DE"/></cl>\n  <cl id="4"/>\n</db>`;
const POISONED = `<db><cl id="1"><e v="DE"/><e v="10"/></cl><cl id="x"><e v="FR"/></cl><cl id="1"><e v="IT"/></cl></db>`;
const DOCUMENT = `<d><c>DE</c><c>XX</c><c> DE</c><c/><n>10</n><n>20</n><n>30</n></d>`;
const FILES = { "codes.xml": CODES, "poisoned.xml": POISONED };

const EXPRESSIONS = [
  // Untyped codes (the rule files' `$codeValue := .`): one lookup each.
  "for $c in //c return boolean(document('codes.xml')/db/cl[@id = 1]/e[@v = $c])",
  "for $c in //c return exists(document('codes.xml')/db/cl[@id = 1]/e[@v = $c])",
  "for $c in //c return empty(document('codes.xml')/db/cl[@id = 1]/e[@v = $c])",
  "for $c in //c return not(document('codes.xml')/db/cl[@id = 1]/e[@v = $c])",
  "for $c in //c return (if (document('codes.xml')/db/cl[@id = 1]/e[$c = @v]) then 'in' else 'out')",
  "for $c in //c return (string-length($c) = 0 or document('codes.xml')/db/cl[@id = 1]/e[@v = $c])",
  // Strings, sequences of codes, the empty sequence.
  "boolean(document('codes.xml')/db/cl[@id = 1]/e[@v = 'FR'])",
  "boolean(document('codes.xml')/db/cl[@id = 1]/e[@v = ('XX', 'FR')])",
  "boolean(document('codes.xml')/db/cl[@id = 1]/e[@v = //c])",
  "boolean(document('codes.xml')/db/cl[@id = 1]/e[@v = ()])",
  "boolean(document('codes.xml')/db/cl[@id = 1]/e[@v = ''])",
  // Other lists: several lists matched by their constant predicate, an empty one, none matched.
  "boolean(document('codes.xml')/db/cl[@id = 3 or @id = 1]/e[@v = 'FR'])",
  "boolean(document('codes.xml')/db/cl[normalize-space(@id) = '3']/e[@v = 'DE'])",
  "boolean(document('codes.xml')/db/cl[@id = 4]/e[@v = 'DE'])",
  "boolean(document('codes.xml')/db/cl[@id = 9]/e[@v = 'DE'])",
  "boolean(document('codes.xml')/db/cl[@id = '1']/e[@v = 'DE'])",
  // Numbers compare as numbers, code by code, to the first equal one; a code that is none raises
  // FORG0001 where it is reached.
  "for $n in //n return boolean(document('codes.xml')/db/cl[@id = 2]/e[@v = xs:integer($n)])",
  "boolean(document('codes.xml')/db/cl[@id = 2]/e[@v = 10])",
  "boolean(document('codes.xml')/db/cl[@id = 2]/e[@v = ('DE', 10)])",
  "boolean(document('codes.xml')/db/cl[@id = 1]/e[@v = 10])",
  "boolean(document('codes.xml')/db/cl[@id = 4]/e[@v = 10])",
  // Not lookups of a constant list: evaluated as paths.
  "boolean(document('codes.xml')/db/cl[@id = //n[1] - 9]/e[@v = 'DE'])",
  "boolean(document('codes.xml')/db/cl[2]/e[@v = 'abc'])",
  "boolean(document('codes.xml')/db/cl[@id = 1]/e[@v = 'DE'][1])",
  "count(document('codes.xml')/db/cl[@id = 1]/e[@v = ('DE', 'FR')])",
  // A constant predicate raising an error on a list: the codes before it are found, as Saxon-HE
  // stops at the first node selected; anything else raises it.
  "boolean(document('poisoned.xml')/db/cl[@id = 1]/e[@v = 'DE'])",
  "boolean(document('poisoned.xml')/db/cl[@id = 1]/e[@v = 'IT'])",
  "boolean(document('poisoned.xml')/db/cl[@id = 1]/e[@v = 'ES'])",
  "boolean(document('poisoned.xml')/db/cl[@id = 1]/e[@v = 10])",
  "boolean(document('poisoned.xml')/db/cl[@id = 1]/e[@v = 11])",
  "for $c in //c return boolean(document('poisoned.xml')/db/cl[@id = 1]/e[@v = $c])",
];

describe("code-list lookups through document()", () => {
  test.skipIf(cannotRun("native code tables agree with Saxon-HE", saxonHeUnavailable()))("answers and errors as Saxon-HE's", async () => {
    const reference = await saxonEvaluate(EXPRESSIONS, DOCUMENT, {}, [], FILES);
    const native = nativeEvaluate(EXPRESSIONS, DOCUMENT, {}, new Map(), FILES);
    expect(disagreements(EXPRESSIONS, native, reference)).toEqual([]);
    // The cases the tables are for, spelled out: not only equal to Saxon-HE, but these answers.
    expect(native.slice(0, 2)).toEqual(["true|false|false|false", "true|false|false|false"]);
    expect(native.slice(16, 21)).toEqual(["error FORG0001", "true", "true", "error FORG0001", "false"]);
    // Found before the list whose id is no number; anything else reaches it ("DE" is no number either).
    expect(native.slice(-6)).toEqual(["true", ...Array(5).fill("error FORG0001")]);
  });

  test("a plan keeps the code table, not the tree, and answers from it", () => {
    const work = mkdtempSync(join(tmpdir(), "code-tables-"));
    const file = join(work, "codes.sch");
    writeFileSync(
      file,
      `<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2"><pattern><rule context="c">
        <let name="code" value="."/>
        <assert id="CL-1" test="string-length($code) = 0 or document('codes.xml')/db/cl[@id = 1]/e[@v = $code]">unknown code</assert>
      </rule></pattern></schema>`,
    );
    const schema = parseSchematron(file);
    rmSync(work, { recursive: true, force: true });
    let opened = 0;
    let tree: WeakRef<XDocument> | undefined;
    const plan = compileSchema(schema, {
      documents: (href) => {
        if (href !== "codes.xml") return undefined;
        opened++;
        const document = readXml(CODES);
        tree = new WeakRef(document);
        return document;
      },
    });
    const failed = () => runPlan(plan, DOCUMENT).map((finding) => finding.ruleId);
    expect(failed()).toEqual(["CL-1", "CL-1"]);
    expect(opened).toBe(1);
    expect(released(() => tree)).toBe(true);
    // Answered from the table: the tree is not read again.
    expect(failed()).toEqual(["CL-1", "CL-1"]);
    expect(opened).toBe(1);
  });
});

/** Whether the tree the reference points to has been collected, after a few full collections. */
function released(reference: () => WeakRef<object> | undefined): boolean {
  for (let i = 0; i < 10; i++) {
    Bun.gc(true);
    if (reference()?.deref() === undefined) return true;
  }
  return false;
}
