// The dashboard's Must-show scenarios in Debian Chromium, driven by playwright-core under Node
// (browser.mjs; Playwright under Bun hangs in several reports). The service runs from source, or
// the executable when EINVOICE_BIN names it. Screenshots and report.json land in
// test-artifacts/dashboard/ (gitignored; CI keeps them as artifacts).

import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildMissing, cannotRun } from "../support/requirements";
import { CORPUS_DIR, corpusMissing } from "../support/corpus";

const ROOT = resolve(import.meta.dir, "../..");
const ARTIFACTS = join(ROOT, "test-artifacts", "dashboard");
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

function missing(): string | null {
  if (!Bun.which("node")) return "no node on PATH (the browser is driven from Node)";
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (Debian chromium)`;
  if (!existsSync(join(ROOT, "node_modules", "playwright-core"))) return "no playwright-core (npm install)";
  return corpusMissing ?? buildMissing();
}

describe.skipIf(cannotRun("the dashboard in Chromium", missing()))("the dashboard in Chromium", () => {
  test(
    "every Must-show scenario passes, with a screenshot of each page",
    async () => {
      rmSync(ARTIFACTS, { recursive: true, force: true });
      const command = process.env.EINVOICE_BIN ? [process.env.EINVOICE_BIN] : [process.execPath, join(ROOT, "src/main.ts")];
      const run = Bun.spawn(["node", join(import.meta.dir, "browser.mjs")], {
        cwd: ROOT,
        env: { ...process.env, EINVOICE_CMD: JSON.stringify(command), CORPUS_DIR, ARTIFACTS_DIR: ARTIFACTS, CHROMIUM_PATH: CHROMIUM },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [out, err, code] = [await new Response(run.stdout).text(), await new Response(run.stderr).text(), await run.exited];
      const report = JSON.parse(readFileSync(join(ARTIFACTS, "report.json"), "utf8")) as { results: { name: string; ok: boolean; error?: string }[] };
      expect(report.results.filter((r) => !r.ok), `${out}\n${err}`).toEqual([]);
      expect(report.results.length).toBeGreaterThanOrEqual(14);
      expect(code).toBe(0);
      for (const page of ["00-sign-in", "02-overview", "04-keys", "05-playground-xrechnung", "07-playground-validate", "09-templates", "10-rulesets", "11-transmissions", "12-transmission"]) {
        expect(existsSync(join(ARTIFACTS, "screenshots", `${page}.png`))).toBe(true);
      }
    },
    300_000,
  );
});
