// What one verdict lists: at most FINDINGS_PER_RULE findings per rule id, FINDINGS_TOTAL in all and
// FINDINGS_TEXT characters of locations and messages; the rest are counted in one FINDINGS_TRUNCATED
// finding that keeps `valid` what it was.

import { describe, expect, test } from "bun:test";
import { FINDINGS_PER_RULE, FINDINGS_TEXT, FINDINGS_TOTAL, FINDINGS_TRUNCATED, FindingCaps, VerdictFindings } from "../../src/validation/finding-caps.ts";
import type { Severity, ValidationFinding } from "../../src/validation/result.ts";
import { parseSvrl, SVRL_NS } from "../../src/validation/svrl.ts";

const finding = (ruleId: string, severity: Severity = "error", location = "/a"): ValidationFinding => ({ ruleId, severity, location, message: `${ruleId} failed` });
const many = (count: number, ruleId: string, severity?: Severity) => Array.from({ length: count }, () => finding(ruleId, severity));
const truncation = (list: ValidationFinding[]) => list.find((f) => f.ruleId === FINDINGS_TRUNCATED);

test("the caps are the documented ones", () => {
  expect([FINDINGS_PER_RULE, FINDINGS_TOTAL, FINDINGS_TEXT]).toEqual([100, 1000, 512 * 1024]);
});

describe("FindingCaps", () => {
  test("keeps the first findings of each rule id up to the caps and counts the rest by rule id and grade", () => {
    const caps = new FindingCaps();
    const kept = [...Array(150).keys()].filter((i) => caps.keep("A", i % 2 ? "warning" : "fatal")).length;
    expect(kept).toBe(FINDINGS_PER_RULE);
    expect(caps.keep("B", null)).toBe(true);
    expect(caps.tallies()).toEqual([
      { ruleId: "A", grade: "fatal", count: 25 },
      { ruleId: "A", grade: "warning", count: 25 },
    ]);
  });

  test("stops at the total across rule ids", () => {
    const caps = new FindingCaps();
    let kept = 0;
    for (let rule = 0; rule < 20; rule++) for (let i = 0; i < 60; i++) if (caps.keep(`R${rule}`, null)) kept++;
    expect(kept).toBe(FINDINGS_TOTAL);
    expect(caps.tallies().reduce((n, t) => n + t.count, 0)).toBe(20 * 60 - FINDINGS_TOTAL);
  });
});

describe("VerdictFindings", () => {
  test("lists nothing extra when nothing is omitted", () => {
    const findings = new VerdictFindings();
    findings.add(...many(FINDINGS_PER_RULE, "A"));
    expect(findings.list()).toHaveLength(FINDINGS_PER_RULE);
    expect(truncation(findings.list())).toBeUndefined();
  });

  test("ends with one FINDINGS_TRUNCATED error naming how many of which rules were left out", () => {
    const findings = new VerdictFindings();
    findings.add(...many(250, "BR-CL-23"));
    findings.omit("BR-CL-23", "error", 1000);
    findings.add(...many(3, "BR-01"));
    const list = findings.list();
    expect(list).toHaveLength(FINDINGS_PER_RULE + 3 + 1);
    expect(list.at(-1)).toEqual({
      ruleId: FINDINGS_TRUNCATED,
      severity: "error",
      message:
        "1150 more findings not listed (1150 errors, 0 warnings): a verdict lists at most 100 findings per rule id, 1000 in all and 524288 characters of locations and messages. Not listed, by rule id: BR-CL-23 1150.",
    });
  });

  test("omitted warnings never add an error", () => {
    const findings = new VerdictFindings();
    for (let rule = 0; rule < 30; rule++) findings.add(...many(120, `W${rule}`, rule % 2 ? "info" : "warning"));
    const list = findings.list();
    expect(list.filter((f) => f.severity === "error" || f.severity === "fatal")).toEqual([]);
    expect(truncation(list)).toMatchObject({ severity: "info" });
    expect(truncation(list)!.message).toStartWith(`${30 * 120 - FINDINGS_TOTAL} more findings not listed (0 errors, ${30 * 120 - FINDINGS_TOTAL} warnings)`);
    // Twenty rule ids by name, the rest counted together.
    expect(truncation(list)!.message).toEndWith("W29 120; 10 other rule ids 200.");
  });

  test("an error left out by the total cap keeps the verdict invalid", () => {
    const findings = new VerdictFindings();
    for (let rule = 0; rule < 10; rule++) findings.add(...many(FINDINGS_PER_RULE, `W${rule}`, "warning"));
    findings.add(finding("BR-01", "fatal"));
    const list = findings.list();
    expect(list.filter((f) => f.ruleId === "BR-01")).toEqual([]);
    expect(truncation(list)).toMatchObject({ severity: "error" });
    expect(truncation(list)!.message).toContain("(1 error, 0 warnings)");
  });

  test("stops listing findings whose locations and messages would pass the text cap", () => {
    const findings = new VerdictFindings();
    const deep = "/x".repeat(10_000);
    for (let i = 0; i < 90; i++) findings.add(finding(`R${i}`, "error", deep));
    const list = findings.list();
    const text = list.reduce((n, f) => n + (f.location?.length ?? 0) + f.message.length, 0);
    expect(text).toBeLessThanOrEqual(FINDINGS_TEXT + truncation(list)!.message.length);
    expect(list.length - 1).toBe(Math.floor(FINDINGS_TEXT / (deep.length + "R10 failed".length)));
  });
});

describe("parseSvrl with caps", () => {
  const svrl = (asserts: string) => `<svrl:schematron-output xmlns:svrl="${SVRL_NS}">${asserts}</svrl:schematron-output>`;
  const assert = (id: string | null, text: string) => `<svrl:failed-assert${id ? ` id="${id}"` : ""} flag="fatal" location="/x"><svrl:text>${text}</svrl:text></svrl:failed-assert>`;

  test("reads the findings up to the caps, then one count per rule id and flag", () => {
    const findings = parseSvrl(svrl(assert("R1", "r1").repeat(130) + assert("R2", "r2")), new FindingCaps());
    expect(findings.filter((f) => f.ruleId === "R1" && !f.omitted)).toHaveLength(FINDINGS_PER_RULE);
    expect(findings.at(-1)).toEqual({ ruleId: "R1", flag: "fatal", location: null, message: "", omitted: 30 });
    expect(findings.filter((f) => f.ruleId === "R2")).toHaveLength(1);
  });

  test("counts a finding without an id under the rule its message names", () => {
    const findings = parseSvrl(svrl(assert(null, "[BR-CO-25]-text").repeat(FINDINGS_PER_RULE + 1)), new FindingCaps());
    expect(findings.at(-1)).toEqual({ ruleId: "BR-CO-25", flag: "fatal", location: null, message: "", omitted: 1 });
  });

  test("without caps reads every finding", () => {
    expect(parseSvrl(svrl(assert("R1", "r1").repeat(130)))).toHaveLength(130);
  });
});
