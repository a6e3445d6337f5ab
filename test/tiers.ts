// The suite in tiers, one table: each test file belongs to exactly one tier, through the one entry
// (a folder or a file) that contains it. `npm test` runs every file in one `bun test`;
// `npm run test:<tier>` (scripts/test-tier.ts) runs one tier. README "Tests" says what each holds
// and what it needs; test/tiers.test.ts holds the table to the files on disk.

import { readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";

export const TIERS = {
  /** Needs nothing outside the repository: no ruleset build, corpus, oracle or server process. */
  unit: [
    "test/accounts",
    "test/assets",
    "test/db/sqlite",
    "test/engine",
    "test/model",
    "test/support",
    "test/transmission/event-chain.test.ts",
    "test/transmission/reached.test.ts",
    "test/transmission/sandbox.test.ts",
    "test/transmission/standard-webhooks.test.ts",
    "test/transmission/states.test.ts",
    "test/tiers.test.ts",
    "test/config.test.ts",
    "test/dashboard/dashboard.test.ts",
    "test/api/auth.test.ts",
    "test/api/connections.test.ts",
    "test/api/conventions.test.ts",
    "test/api/me.test.ts",
    "test/api/metering.test.ts",
    "test/api/metrics-access.test.ts",
    "test/api/metrics.test.ts",
    "test/api/openapi-tools.test.ts",
    "test/api/rate-limits.test.ts",
    "test/api/requests.test.ts",
    "test/generate/errors.test.ts",
    "test/generate/generate-invoice.test.ts",
    "test/generate/parse-values.test.ts",
    "test/native/finding-locations.test.ts",
    "test/native/lazy-rules.test.ts",
    "test/native/namespace-scopes.test.ts",
    "test/native/positional-patterns.test.ts",
    "test/native/shared-node-tests.test.ts",
    "test/native/skeleton-reader.test.ts",
    "test/native/xml-reader.test.ts",
    "test/pdf/render.test.ts",
    "test/pdf/sniff.test.ts",
    "test/pdf/srgb-icc.test.ts",
    "test/rulesets/lifecycle.test.ts",
    "test/rulesets/svrl.test.ts",
    "test/rulesets/sync.test.ts",
    "test/schematron/parse.test.ts",
    "test/syntax/cii-writer.test.ts",
    "test/syntax/leftovers-cases.test.ts",
    "test/syntax/leftovers.test.ts",
    "test/syntax/registry.test.ts",
    "test/syntax/ubl-writer.test.ts",
    "test/validation/finding-caps.test.ts",
    "test/webhooks/cli.test.ts",
    "test/webhooks/destination.test.ts",
    "test/webhooks/dispatcher.test.ts",
    "test/webhooks/routes.test.ts",
  ],
  /**
   * Judged against the corpus, an oracle (Saxon-HE, qpdf, poppler) or the built rulesets: verdicts,
   * differentials, the generation matrix, round trips, and the routes and commands that judge real
   * documents with the bundle.
   */
  conformance: [
    "test/conformance",
    "test/dashboard/samples.test.ts",
    "test/api/credit-note-reference.test.ts",
    "test/api/engine-jobs.test.ts",
    "test/api/generate-field-names.test.ts",
    "test/api/generate-input.test.ts",
    "test/api/generate.test.ts",
    "test/api/convert.test.ts",
    "test/api/pdf-templates.test.ts",
    "test/api/receive.test.ts",
    "test/api/ruleset-versions.test.ts",
    "test/api/validate.test.ts",
    "test/cli/commands.test.ts",
    "test/cli/serve-settings.test.ts",
    "test/cli/validate.test.ts",
    "test/cli/convert.test.ts",
    "test/generate/matrix.test.ts",
    "test/generate/not-subject-to-vat.test.ts",
    "test/convert",
    "test/national",
    "test/native/bundled-plans.test.ts",
    "test/native/cen-differential.test.ts",
    "test/native/earlier-equality.test.ts",
    "test/native/evaluator.test.ts",
    "test/native/absent-names.test.ts",
    "test/native/any-namespace-names.test.ts",
    "test/native/fast-paths.test.ts",
    "test/native/scalars.test.ts",
    "test/native/france-ctc-differential.test.ts",
    "test/native/hoisting.test.ts",
    "test/native/lazy-exists.test.ts",
    "test/native/code-tables.test.ts",
    "test/native/loop-common-parts.test.ts",
    "test/native/numeric-edges.test.ts",
    "test/native/patterns.test.ts",
    "test/native/rulesets-differential.test.ts",
    "test/native/schxslt-differential.test.ts",
    "test/native/schxslt-reader.test.ts",
    "test/native/skeleton-differential.test.ts",
    "test/native/vat-breakdowns.test.ts",
    "test/native/xslt-function.test.ts",
    "test/pdf/attachments.test.ts",
    "test/pdf/design.test.ts",
    "test/pdf/hybrid.test.ts",
    "test/pdf/judged-like-xml.test.ts",
    "test/pdf/rewrap.test.ts",
    "test/pdf/visualization.test.ts",
    "test/profiles/catalogue.test.ts",
    "test/rulesets/build-index.test.ts",
    "test/rulesets/drift.test.ts",
    "test/rulesets/pins.test.ts",
    "test/rulesets/rewrites.test.ts",
    "test/rulesets/saxon-he.test.ts",
    "test/schematron/authority-rules.test.ts",
    "test/schematron/cen-agreement.test.ts",
    "test/schematron/emit.test.ts",
    "test/syntax/cii-roundtrip.test.ts",
    "test/syntax/cii-schemas.test.ts",
    "test/syntax/detect.test.ts",
    "test/syntax/leftovers-corpus.test.ts",
    "test/syntax/roundtrip-verdicts.test.ts",
    "test/syntax/ubl-roundtrip.test.ts",
    "test/syntax/xml-policy.test.ts",
    "test/validation/hybrid-rules.test.ts",
    "test/validation/kosit-scenarios.test.ts",
    "test/validation/layers.test.ts",
    "test/validation/reading-policy-verdict.test.ts",
    "test/validation/rule-engines.test.ts",
    "test/validation/schema-elsewhere.test.ts",
    "test/validation/verdict-details.test.ts",
    "test/validation/xsd.test.ts",
  ],
  /**
   * Bounds held under hostile or heavy load, on real server processes, databases and worker pools:
   * the fuzz, the mutants against Saxon-HE, memory targets, PDF budgets, quadratic inputs, pool
   * faults, the storage adapters on a real PostgreSQL, limits across instances.
   */
  proofs: [
    "test/dashboard/browser.test.ts",
    "test/db/postgres",
    "test/db/storage.test.ts",
    "test/api/transmissions.test.ts",
    "test/transmission/delivery.test.ts",
    "test/api/inbox.test.ts",
    "test/api/transmissions-france.test.ts",
    "test/fuzz",
    "test/instances",
    "test/api/http-thread.test.ts",
    "test/cli/memory-target.test.ts",
    "test/native/mutant-differential.test.ts",
    "test/pdf/pdf-budget-routes.test.ts",
    "test/pdf/pdf-budget.test.ts",
    "test/validation/findings-bounded.test.ts",
    "test/validation/xsd-caps.test.ts",
    "test/webhooks/concurrency.test.ts",
    "test/webhooks/repositories.test.ts",
    "test/workers",
  ],
} as const;

export type Tier = keyof typeof TIERS;

const ROOT = resolve(import.meta.dir, "..");
/** What `bun test` takes for a test file. */
const TEST_FILE = /(\.test|_test|\.spec|_spec)\.(ts|tsx|js|jsx|mjs|cjs)$/;
/** Skipped for speed: dependencies and generated output, never tests. */
const NOT_SOURCE = new Set(["node_modules", "build", "dist", "data"]);

/** Every test file `bun test` finds from the repository root, relative to it, sorted. */
export function testFiles(root = ROOT): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || NOT_SOURCE.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (TEST_FILE.test(entry.name)) found.push(relative(root, path));
    }
  };
  walk(root);
  return found.sort();
}

const contains = (entry: string, file: string) => file === entry || file.startsWith(`${entry}/`);

/**
 * Each test file's tier. Throws naming every file no entry or several entries claim, and every
 * entry that claims no file, so a new, moved or deleted test cannot fall out of the tiers unseen.
 */
export function assignTiers(files = testFiles(), table: Readonly<Record<string, readonly string[]>> = TIERS): Map<string, string> {
  const entries = Object.entries(table).flatMap(([tier, list]) => list.map((entry) => ({ tier, entry })));
  const problems: string[] = [];
  const tiers = new Map<string, string>();
  for (const file of files) {
    const claims = entries.filter((e) => contains(e.entry, file));
    if (claims.length === 1) tiers.set(file, claims[0].tier);
    else if (claims.length === 0) problems.push(`${file}: in no tier`);
    else problems.push(`${file}: claimed by ${claims.map((c) => `${c.entry} (${c.tier})`).join(" and ")}`);
  }
  for (const { tier, entry } of entries) {
    if (!files.some((file) => contains(entry, file))) problems.push(`${entry} (${tier}): no test file`);
  }
  if (problems.length) throw new Error(`test/tiers.ts does not match the test files:\n  ${problems.join("\n  ")}`);
  return tiers;
}

/** The test files of one tier, after checking the whole table. */
export const filesOf = (tier: Tier): string[] => [...assignTiers()].filter(([, t]) => t === tier).map(([file]) => file);
