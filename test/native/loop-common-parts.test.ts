// Parts of a `for`, `some` or `every` body written more than once: a part that reads a range
// variable is evaluated once per iteration (the CEN VAT breakdown rules compare the taxable amount
// minus one, then plus one, with the same sum over the lines of the rate), identical loop-invariant
// parts once per loop. Values, laziness and errors must stay Saxon-HE's.

import { describe, expect, test } from "bun:test";
import { saxonHeUnavailable } from "../support/saxon-he.ts";
import { cannotRun } from "../support/requirements.ts";
import { disagreements, nativeEvaluate, saxonEvaluate } from "./saxon-eval.ts";
import { functionKey, type StylesheetFunction } from "../../src/native/xpath/context.ts";
import { liftCommonParts, liftInvariants } from "../../src/native/xpath/invariants.ts";
import { parseXPath } from "../../src/native/xpath/parser.ts";
import { Scope } from "../../src/native/xpath/context.ts";
import { CompileSession } from "../../src/native/xpath/session.ts";
import type { Expr } from "../../src/native/xpath/ast.ts";

// Breakdowns `t` (rate `p`, amount `amt`) and lines `l` (rate, amount `m`), one line's rate no number.
const DOCUMENT =
  "<d><t><p>25</p><amt>100</amt></t><t><p>7</p><amt>5</amt></t><t><p>10</p><amt>3</amt></t>" +
  "<l><p>25</p><m>60</m></l><l><p>25.0</p><m>40</m></l><l><p>7</p><m>5</m></l><l><p>abc</p><m>1</m></l></d>";

const EXPRESSIONS = [
  // BR-S-08's shape: the same sum against the amount minus and plus one, per rate.
  "//t/(every $rate in xs:decimal(p) satisfies (xs:decimal(amt) - 1 < sum(../l[p castable as xs:decimal][xs:decimal(p) = $rate]/m) and xs:decimal(amt) + 1 > sum(../l[p castable as xs:decimal][xs:decimal(p) = $rate]/m)))",
  // The same without the guard: the cast of 'abc' fails, in the first use and so in the shared one.
  "//t/(every $rate in xs:decimal(p) satisfies (sum(../l[xs:decimal(p) = $rate]/m) > 0 and sum(../l[xs:decimal(p) = $rate]/m) < 1000))",
  "//t/(for $rate in xs:decimal(p) return (sum(../l[p = $rate]/m), count(../l[p = $rate]), sum(../l[p = $rate]/m) * 2))",
  // A shared part in a branch not taken is never evaluated, nor its error raised.
  "//t/(for $r in p return if ($r = '7') then 0 else xs:decimal(../l[4]/p) + xs:decimal(../l[4]/p))",
  "//t/(for $r in xs:decimal(p) return if ($r > 8) then sum(../l[p = $r]/m) + sum(../l[p = $r]/m) else 0)",
  // An error raised at every use, as in place.
  "for $r in ('a', 'b') return (xs:decimal($r) + 1, xs:decimal($r) + 1)",
  "for $r in ('1', 'b') return (if (xs:decimal($r) + 1 > 1) then 'big' else 'small', xs:decimal($r) + 1)",
  // Nested loops: a part reading the inner variable stays inner; one reading only the outer is shared.
  "//t[1]/(for $a in (1, 2) return for $b in (10, 20) return ($a * $b + count(../l), $a * $b + count(../l), $a + count(../l), $a + count(../l)))",
  "some $x in (1, 2), $y in (3, 4) satisfies ($x + $y + count(//l) = 9 and $x + $y + count(//l) = 9)",
  "every $x in (1, 2), $y in (3, 4) satisfies ($x * $y + count(//l) > 0 and $x * $y + count(//l) < 100)",
  // The focus's position inside the part, and loop-invariant parts written twice.
  "//l/(for $r in (1, 2) return (position() + $r, position() + $r))",
  "//t/(for $r in (1, 2) return (count(../l) + $r, count(../l) * $r, string(../t[1]/p), string(../t[1]/p)))",
  "//t/(every $r in (1, 2) satisfies (xs:decimal(../l[4]/p) > $r or xs:decimal(../l[4]/p) < $r))",
  // A part whose existence is asked stays in place, where its existence stops at the first line of
  // the rate, before the line that is no number: shared, the whole sequence raised FORG0001.
  "for $r in (25) return (if (//l[xs:decimal(p) = $r]) then 1 else count(//l[xs:decimal(p) = $r]))",
  "some $r in (25) satisfies (not(//l[xs:decimal(p) = $r]) or empty(//l[xs:decimal(p) = $r]))",
  "some $r in (25) satisfies (exists(//l[xs:decimal(p) = $r]) or sum(//l[xs:decimal(p) = $r]/m) > 0)",
  "some $r in (25) satisfies (count(//l[xs:decimal(p) = $r]) > 0 or sum(//l[xs:decimal(p) = $r]/m) > 0)",
  "//t[1]/(for $r in (1, 2) return if (../l[xs:decimal(p) = 25]) then $r else count(../l[xs:decimal(p) = 25]))",
  "//t[1]/(every $r in (1, 2) satisfies (boolean(../l[xs:decimal(p) = 25]) and exists(../l[xs:decimal(p) = 25])))",
  // Nor is its first step lifted alone (`..`, the same in every iteration): the path would no
  // longer be walked.
  "//t[1]/(for $r in (1, 2) return (if (exists(../l[xs:decimal(p) = 25])) then $r else 0))",
  "//t[1]/(for $r in (1, 2) return if (../l[xs:decimal(p) = 25]) then $r else 0)",
];

const skip = cannotRun("loop common parts vs Saxon-HE", saxonHeUnavailable());

describe.skipIf(skip)("loop bodies with common parts", () => {
  test("give Saxon-HE's values and errors", async () => {
    const expected = await saxonEvaluate(EXPRESSIONS, DOCUMENT);
    const ours = nativeEvaluate(EXPRESSIONS, DOCUMENT);
    expect(disagreements(EXPRESSIONS, ours, expected)).toEqual([]);
  }, 120_000);
});

/** `q:seen(...)`: its last argument, counting the calls. */
function spy(): { functions: Map<string, StylesheetFunction>; calls: () => number } {
  let calls = 0;
  const seen: StylesheetFunction = {
    name: "q:seen",
    call: (args) => {
      calls++;
      return args[args.length - 1];
    },
  };
  return { functions: new Map([[functionKey("urn:q", "seen", 2), seen]]), calls: () => calls };
}

describe("loop bodies with common parts", () => {
  const evaluate = (expression: string) => {
    const { functions, calls } = spy();
    const [outcome] = nativeEvaluate([expression], DOCUMENT, { q: "urn:q" }, functions);
    return { outcome, calls: calls() };
  };

  test("evaluate a part that reads a range variable once per iteration", () => {
    expect(evaluate("//t[1]/(every $r in (1, 2, 3) satisfies (q:seen(., $r) >= 0 and q:seen(., $r) < 100))")).toEqual({ outcome: "true", calls: 3 });
    expect(evaluate("//t[1]/(for $r in (1, 2) return (q:seen(., $r), q:seen(., $r), q:seen(., $r)))")).toEqual({ outcome: "1|1|1|2|2|2", calls: 2 });
  });

  test("never evaluate a part no taken branch needs", () => {
    expect(evaluate("//t[1]/(for $r in (1, 2) return if ($r = 1) then q:seen(., $r) + q:seen(., $r) else 0)")).toEqual({ outcome: "2|0", calls: 1 });
  });

  test("evaluate identical loop-invariant parts once per loop", () => {
    expect(evaluate("//t[1]/(for $r in (1, 2, 3) return (q:seen(., 0) + $r, q:seen(., 0) * $r))")).toEqual({ outcome: "1|0|2|0|3|0", calls: 1 });
  });

  test("keep a part that reads an inner loop's variable in that loop", () => {
    // Per outer iteration: `q:seen(., $a)` once; per inner iteration: `q:seen(., $a * $b)` once.
    expect(evaluate("//t[1]/(for $a in (1, 2) return for $b in (10, 20) return (q:seen(., $a), q:seen(., $a), q:seen(., $a * $b), q:seen(., $a * $b)))")).toEqual({
      outcome: "1|1|10|10|1|1|20|20|2|2|20|20|2|2|40|40",
      calls: 2 + 4,
    });
  });
});

describe("the parts lifted from a loop body", () => {
  const scope = () => new Scope(new CompileSession(), new Map([["xs", "http://www.w3.org/2001/XMLSchema"]]), new Map());
  const lifted = (source: string) => {
    const loop = parseXPath(source) as Extract<Expr, { kind: "for" | "quantified" }>;
    const names = loop.bindings.map((binding) => binding.name);
    const s = scope();
    const invariants = liftInvariants(loop.body, names, s);
    const common = liftCommonParts(invariants.body, names, s);
    return { invariants: invariants.parts.length, common: common.parts.length };
  };

  test("are the outermost repeated ones, each once", () => {
    expect(lifted("for $r in (1, 2) return (sum(l[p = $r]) + 1, sum(l[p = $r]) + 1)")).toEqual({ invariants: 0, common: 1 });
    // The filtered lines both aggregates read.
    expect(lifted("for $r in (1, 2) return (sum(l[p = $r]), count(l[p = $r]))")).toEqual({ invariants: 0, common: 1 });
    expect(lifted("for $r in (1, 2) return (count(l) + $r, count(l) * $r)")).toEqual({ invariants: 1, common: 0 });
  });

  test("leave predicates, later path steps and parts without navigation alone", () => {
    expect(lifted("for $r in (1, 2) return (l[sum(m[. = $r]) > 0], k[sum(m[. = $r]) > 0])")).toEqual({ invariants: 0, common: 0 });
    // `a` and `b` are loop-invariant; the sums after them are evaluated with their nodes as focus.
    expect(lifted("for $r in (1, 2) return (a/sum(m[. = $r]), b/sum(m[. = $r]))")).toEqual({ invariants: 2, common: 0 });
    expect(lifted("for $r in (1, 2) return ($r + 1, $r + 1)")).toEqual({ invariants: 0, common: 0 });
  });
});
