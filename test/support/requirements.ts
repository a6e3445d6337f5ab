// The one rule for tests that need something the repository does not hold: an oracle (Saxon-HE,
// the PDF tools), the shared corpus or ruleset mirror, or the ruleset build. In CI a missing one
// fails the run, so a suite cannot pass by skipping what it exists to prove; on a developer's
// machine the tests skip, and the skip says why.

import { test } from "bun:test";
import { existsSync } from "node:fs";
import { indexPath, readIndex } from "../../src/rulesets/compile";
import { bundleFile } from "../../src/assets/build-bundle";

/** CI=true (or any value but "", "0" and "false"), as CI services and .ci/run set it. */
export const inCi = (env: Record<string, string | undefined> = process.env): boolean =>
  !["", "0", "false"].includes((env.CI ?? "").toLowerCase());

/**
 * Whether the tests named `what` cannot run, `missing` being the reason (null: they can). Pass the
 * result to `skipIf`. When they cannot, a test in the caller's scope reports it: failing in CI,
 * skipped elsewhere, its name carrying the reason either way.
 */
export function cannotRun(what: string, missing: string | null): boolean {
  if (missing === null) return false;
  if (inCi()) {
    test(`${what}: required in CI`, () => {
      throw new Error(`CI=true and ${what} cannot run: ${missing}`);
    });
  } else {
    test.skip(`${what} (skipped: ${missing})`, () => {});
  }
  return true;
}

/**
 * Why the ruleset build that npm test's pretest makes is absent, or null. The tests compare with
 * SaxonJS, so they need every rule file's SEF, which `npm start`'s build makes only for the files
 * the native engine has no plan for.
 */
export function buildMissing(): string | null {
  const pretest = "bun scripts/rulesets.ts all --sef all";
  for (const file of [indexPath, bundleFile]) {
    if (!existsSync(file)) return `no ${file} (${pretest} builds it)`;
  }
  const withoutSef = readIndex()!.entries.filter((e) => !e.sef).length;
  return withoutSef ? `the ruleset build has no SEF for ${withoutSef} rule files (${pretest} compiles them)` : null;
}
