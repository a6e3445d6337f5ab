import { expect, test } from "bun:test";
import { inCi } from "./requirements.ts";

const PROBE = new URL("./requirements-probe.ts", import.meta.url).pathname;

function probe(ci: string): { code: number | null; out: string } {
  const run = Bun.spawnSync([process.execPath, "test", PROBE], { env: { ...process.env, CI: ci }, stdout: "pipe", stderr: "pipe" });
  return { code: run.exitCode, out: run.stdout.toString() + run.stderr.toString() };
}

test("in CI a missing requirement fails the run, saying which tests and why", () => {
  const { code, out } = probe("true");
  expect(code).toBe(1);
  expect(out).toContain("(fail) the probe's oracle: required in CI");
  expect(out).toContain("CI=true and the probe's oracle cannot run: no oracle here");
  expect(out).toContain("(skip) with the oracle > judges");
  expect(out).toContain("(pass) needs only what is present");
});

test("elsewhere it skips, the reason in the skipped test's name", () => {
  const { code, out } = probe("");
  expect(code).toBe(0);
  expect(out).toContain("(skip) the probe's oracle (skipped: no oracle here)");
  expect(out).toContain("(pass) needs only what is present");
});

test("CI counts as set as CI services set it", () => {
  for (const value of ["true", "TRUE", "1", "yes"]) expect(inCi({ CI: value })).toBe(true);
  for (const value of [undefined, "", "0", "false"]) expect(inCi({ CI: value })).toBe(false);
});
