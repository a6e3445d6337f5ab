import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "serve-settings-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const main = new URL("../../src/main.ts", import.meta.url).pathname;

/** The environment of the test run without the server's variables, so only the case's own count. */
const clean = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !["PORT", "DATABASE_PATH", "REQUEST_DEADLINE_MS", "BODY_TIMEOUT_MS", "METRICS", "METRICS_TOKEN", "METRICS_PORT", "VALIDATION_ENGINE", "DRIFT_CHECK", "DRIFT_CHECK_MIRROR"].includes(name)),
);

test.each([
  [{ REQUEST_DEADLINE_MS: "30s" }, "REQUEST_DEADLINE_MS must be a whole number of milliseconds from 1000 to 240000, not '30s'"],
  [{ VALIDATION_ENGINE: "saxon" }, 'VALIDATION_ENGINE must be "native" or "saxonjs", not "saxon"'],
  [{ DRIFT_CHECK: "daily" }, 'DRIFT_CHECK must be "off" or "nightly", not "daily"'],
  [{ METRICS: "false" }, 'METRICS must be "on" or "off", not "false"'],
])("a wrong %o stops serve before it opens the database: exit 2 and the message", (env, message) => {
  const db = join(dir, `${Object.keys(env)[0]}.sqlite`);
  const proc = Bun.spawnSync([process.execPath, main, "serve", "--port", "0", "--db", db], { env: { ...clean, ...env }, stdout: "pipe", stderr: "pipe" });
  expect(proc.stderr.toString()).toContain(`einvoice: ${message}`);
  expect(proc.exitCode).toBe(2);
  expect(existsSync(db)).toBe(false);
});
