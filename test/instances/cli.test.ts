// The command line works the same on PostgreSQL: `--db postgres://…` (or DATABASE_URL) for the
// account and template commands, and `db migrate` / `db check`.

import { expect, test } from "bun:test";
import { join } from "node:path";
import { freshDatabase, postgresMissing } from "../support/postgres";
import { cannotRun } from "../support/requirements";

const MAIN = join(import.meta.dir, "../../src/main.ts");

function einvoice(env: Record<string, string>, ...args: string[]): { code: number; out: string; err: string } {
  const run = Bun.spawnSync([process.execPath, MAIN, ...args], { env: { ...process.env, ...env } });
  return { code: run.exitCode, out: run.stdout.toString(), err: run.stderr.toString() };
}

test.skipIf(cannotRun("the command line on PostgreSQL", postgresMissing()))("accounts, templates and db commands on a PostgreSQL database", async () => {
  const url = await freshDatabase();
  const byUrl = { DATABASE_URL: url };

  const before = einvoice(byUrl, "db", "check");
  expect(before.code).toBe(1);
  expect(JSON.parse(before.out)).toMatchObject({ dialect: "postgres", migrations: { applied: [], pending: ["0000_init", "0001_transmissions", "0002_dashboard"] } });
  expect(einvoice(byUrl, "db", "migrate").code).toBe(0);
  const after = einvoice(byUrl, "db", "check");
  expect([after.code, JSON.parse(after.out).migrations]).toEqual([0, { applied: ["0000_init", "0001_transmissions", "0002_dashboard"], pending: [] }]);

  // --db takes the URL as well, and wins over the environment.
  const org = JSON.parse(einvoice({ DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" }, "orgs", "create", "--name", "acme", "--plan", "growth", "--db", url).out);
  expect(org).toMatchObject({ name: "acme", plan: "growth" });
  expect(JSON.parse(einvoice(byUrl, "orgs", "set-plan", "acme", "--plan", "scale").out).plan).toBe("scale");
  const key = JSON.parse(einvoice(byUrl, "keys", "create", "--org", "acme", "--mode", "test", "--label", "ci").out);
  expect(key.key).toMatch(/^svc_test_/);
  expect(einvoice(byUrl, "keys", "revoke", key.keyId).code).toBe(0);
  const again = einvoice(byUrl, "keys", "revoke", key.keyId);
  expect([again.code, again.err]).toEqual([1, `einvoice: key ${key.keyId} is revoked already\n`]);
  expect(JSON.parse(einvoice(byUrl, "keys", "list", "--org", "acme").out)).toEqual([expect.objectContaining({ keyId: key.keyId, label: "ci", revokedAt: expect.any(String) })]);
  expect(JSON.parse(einvoice(byUrl, "orgs", "list").out).map((o: { name: string }) => o.name)).toEqual(["acme"]);
  expect(JSON.parse(einvoice(byUrl, "templates", "list", "--org", "acme").out)).toEqual([]);

  // A database that cannot be reached is a message and exit code 1, not a stack.
  const down = einvoice({ DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", DATABASE_STATEMENT_TIMEOUT_MS: "1000" }, "orgs", "list");
  expect(down.code).toBe(1);
  expect(down.err).toStartWith("einvoice: the database is unavailable");
});
