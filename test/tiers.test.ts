import { expect, test } from "bun:test";
import { assignTiers, testFiles } from "./tiers.ts";

test("every test file is in exactly one tier, and every entry of the table names test files", () => {
  expect([...assignTiers().keys()]).toEqual(testFiles());
});

test("a file no entry claims, one that two claim, and an entry left without files are each named", () => {
  const files = ["test/a/one.test.ts", "test/a/two.test.ts", "test/b.test.ts", "test/new.test.ts"];
  const table = { unit: ["test/a", "test/gone.test.ts"], proofs: ["test/a/two.test.ts", "test/b.test.ts"] };
  expect(() => assignTiers(files, table)).toThrow(
    [
      "test/tiers.ts does not match the test files:",
      "  test/a/two.test.ts: claimed by test/a (unit) and test/a/two.test.ts (proofs)",
      "  test/new.test.ts: in no tier",
      "  test/gone.test.ts (unit): no test file",
    ].join("\n"),
  );
  expect(assignTiers(files.slice(0, 3), { unit: ["test/a"], proofs: ["test/b.test.ts"] })).toEqual(
    new Map([["test/a/one.test.ts", "unit"], ["test/a/two.test.ts", "unit"], ["test/b.test.ts", "proofs"]]),
  );
});
