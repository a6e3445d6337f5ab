// Tests descendant steps of a local name in any namespace (`//*:X`, how the syntax bindings write
// the facts validation reads) answered from a per-local-name index (issue 23): the values and
// errors stay Saxon-HE's (the same local name in several namespaces and none, a processing
// instruction and attributes so named, positional predicates after the step), and the index is
// what answers.

import { beforeAll, describe, expect, test } from "bun:test";
import { XDocument } from "../../src/native/xpath/document.ts";
import { saxonHeUnavailable } from "../support/saxon-he.ts";
import { cannotRun } from "../support/requirements.ts";
import { disagreements, nativeEvaluate, saxonEvaluate } from "./saxon-eval.ts";

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

describe.skipIf(cannotRun("any-namespace names vs Saxon-HE", saxonHeUnavailable()))("steps of a local name in any namespace agree with Saxon-HE", () => {
  let reference: string[] = [];
  beforeAll(async () => {
    reference = await saxonEvaluate(EXPRESSIONS, DOCUMENT, { q: "urn:q", p: "urn:p" });
  }, 120_000);

  test("every expression gives Saxon-HE's value or error code", () => {
    const ours = nativeEvaluate(EXPRESSIONS, DOCUMENT, { q: "urn:q", p: "urn:p" });
    expect(disagreements(EXPRESSIONS, ours, reference)).toEqual([]);
    // The fixture is not vacuous: the same local name in three namespaces, and an error raised after the step.
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
    expect(nativeEvaluate(["string-join(//*:a, ',')", "count(//w//*:b)"], DOCUMENT)).toEqual(["1,23,3,56,6,7", "1"]);
  } finally {
    XDocument.prototype.namedInAnyNamespace = asked;
  }
  expect(names).toEqual(["a", "b"]);
});
