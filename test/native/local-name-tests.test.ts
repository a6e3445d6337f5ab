// Tests `*[local-name() = 'X']` read as the name test `*:X` (issue 23): which steps are folded, that
// the values and errors stay Saxon-HE's (the same local name in several namespaces and none, a
// processing instruction and attributes so named, positional predicates after the folded one), and
// that a descendant step is then answered from the per-local-name index.

import { beforeAll, describe, expect, test } from "bun:test";
import type { Expr } from "../../src/native/xpath/ast.ts";
import { XDocument } from "../../src/native/xpath/document.ts";
import { parseXPath } from "../../src/native/xpath/parser.ts";
import { saxonHeUnavailable } from "../support/saxon-he.ts";
import { cannotRun } from "../support/requirements.ts";
import { disagreements, nativeEvaluate, saxonEvaluate } from "./saxon-eval.ts";

/** The steps of a parsed path, as `axis::test[predicate count]`. */
function steps(source: string): string[] {
  const expr = parseXPath(source);
  const list: Expr[] = expr.kind === "path" ? expr.steps : [expr];
  return list.map((step) => {
    if (step.kind !== "step") return step.kind;
    const test = step.test.kind === "type" ? `${step.test.type}()` : `${step.test.prefix ?? "*"}:${step.test.local ?? "*"}`;
    return `${step.axis}::${test}[${step.predicates.length}]`;
  });
}

describe("which steps are read as a name test", () => {
  const CASES: [string, string[]][] = [
    ["*[local-name() = 'a']", ["child::*:a[0]"]],
    ["*['a' eq local-name(.)]", ["child::*:a[0]"]],
    ["//*[(local-name() = 'a')]/*[local-name()='b'][2]", ["root", "descendant-or-self::node()[0]", "child::*:a[0]", "child::*:b[1]"]],
    ["@*[local-name() = 'k']", ["attribute::*:k[0]"]],
    // Only the first predicate, of a `*` test, comparing the context's local name with a string.
    ["*[2][local-name() = 'a']", ["child::*:*[2]"]],
    ["p:*[local-name() = 'a']", ["child::p:*[1]"]],
    ["*[local-name() != 'a']", ["child::*:*[1]"]],
    ["*[local-name(..) = 'a']", ["child::*:*[1]"]],
    ["*[name() = 'a']", ["child::*:*[1]"]],
    ["*[local-name() = $v]", ["child::*:*[1]"]],
    ["*[local-name() = 1]", ["child::*:*[1]"]],
  ];
  for (const [source, expected] of CASES) {
    test(source, () => {
      expect(steps(source)).toEqual(expected);
    });
  }

  test("inside predicates, function arguments and loops too", () => {
    const folded = JSON.stringify(parseXPath("for $x in 1 return count(/r[exists(*[local-name()='a'])])"));
    expect(folded).toContain('"local":"a"');
    expect(folded).not.toContain("local-name");
  });
});

// `a` in no namespace, in q and in p, at several depths; a processing instruction and attributes named a.
const DOCUMENT = `<r xmlns:q="urn:q" xmlns:p="urn:p" a="0"><a>1</a><q:a>2<a>3</a></q:a><?a pi?><w p:a="4"><p:a>5<q:a>6</q:a></p:a><b/><a>7</a></w></r>`;

const EXPRESSIONS = [
  "string-join(//*[local-name() = 'a'], ',')",
  "string-join(//*[local-name() = 'a'][2], ',')",
  "string-join((//*[local-name() = 'a'])[last()], ',')",
  "string-join(/r/*[local-name() = 'a'], ',')",
  "string-join(//w//*[local-name() = 'a'], ',')",
  "string-join(//w/descendant-or-self::*[local-name() = 'a'], ',')",
  "string-join(//*['a' eq local-name(.)]/namespace-uri(), ',')",
  "string-join(//*[local-name() = 'a'][. > 2][1], ',')",
  "count(//*[local-name() = 'a'][position() mod 2 = 0])",
  "count(//@*[local-name() = 'a'])",
  "count(//*[local-name() = 'zz'])",
  "count(//*[local-name() = 'q:a'])",
  "count(//*[local-name() = ''])",
  "string-join(//*[local-name() = 'p']/name(), ',')",
  "count(//node()[local-name() = 'a'])",
  "string-join(//*[local-name() = 'a']/following-sibling::*[local-name() = 'a'], ',')",
  "//*[local-name() = 'a'][xs:integer(.) = 3]/string()",
  "//*[local-name() = 'a'][xs:integer(concat(., 'x')) = 1]",
];

describe.skipIf(cannotRun("local-name tests vs Saxon-HE", saxonHeUnavailable()))("steps read as name tests agree with Saxon-HE", () => {
  let reference: string[] = [];
  beforeAll(async () => {
    reference = await saxonEvaluate(EXPRESSIONS, DOCUMENT, { q: "urn:q", p: "urn:p" });
  }, 120_000);

  test("every expression gives Saxon-HE's value or error code", () => {
    const ours = nativeEvaluate(EXPRESSIONS, DOCUMENT, { q: "urn:q", p: "urn:p" });
    expect(disagreements(EXPRESSIONS, ours, reference)).toEqual([]);
    // The fixture is not vacuous: the same local name in three namespaces, and an error raised after the fold.
    expect(reference[0]).toBe("1,23,3,56,6,7");
    expect(reference.at(-1)).toBe("error FORG0001");
  });
});

test("a descendant step of a local name is answered from the per-local-name index", () => {
  const asked = XDocument.prototype.namedInAnyNamespace;
  const names: string[] = [];
  XDocument.prototype.namedInAnyNamespace = function (this: XDocument, local: string) {
    names.push(local);
    return asked.call(this, local);
  };
  try {
    expect(nativeEvaluate(["string-join(//*[local-name() = 'a'], ',')", "count(//w//*[local-name() = 'b'])"], DOCUMENT)).toEqual(["1,23,3,56,6,7", "1"]);
  } finally {
    XDocument.prototype.namedInAnyNamespace = asked;
  }
  expect(names).toEqual(["a", "b"]);
});
