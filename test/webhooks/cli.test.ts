// `einvoice webhooks …` runs the routes' domain functions against the database, with the
// operator's destination exceptions from the environment.

import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const main = resolve(import.meta.dir, "../../src/main.ts");
const folder = mkdtempSync(join(tmpdir(), "webhooks-cli-"));
const db = join(folder, "cli.sqlite");
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawnSync([process.execPath, main, ...args, "--db", db], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

describe("einvoice webhooks", () => {
  test("create shows the secret once; list never; rotate shows the new one; delete removes it", () => {
    expect(run(["orgs", "create", "--name", "acme"]).code).toBe(0);
    const created = run(["webhooks", "create", "--org", "acme", "--url", "https://hooks.example.com/in", "--events", "transmission.delivered, transmission.failed"]);
    expect(created.code).toBe(0);
    const subscription = JSON.parse(created.out);
    expect(subscription).toMatchObject({ url: "https://hooks.example.com/in", eventTypes: ["transmission.delivered", "transmission.failed"], status: "active" });
    expect(subscription.secret).toMatch(/^whsec_/);

    const listed = run(["webhooks", "list", "--org", "acme"]);
    expect(JSON.parse(listed.out).map((s: { id: string }) => s.id)).toEqual([subscription.id]);
    expect(listed.out).not.toContain("whsec_");

    const rotated = JSON.parse(run(["webhooks", "rotate", "--org", "acme", subscription.id]).out);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(subscription.secret);
    expect(rotated.previousSecretRetiresAt).not.toBeNull();

    expect(JSON.parse(run(["webhooks", "delete", "--org", "acme", subscription.id]).out)).toEqual({ id: subscription.id, deleted: true });
    expect(JSON.parse(run(["webhooks", "list", "--org", "acme"]).out)).toEqual([]);
  });

  test("refusals read as messages: a URL the rules refuse, an unknown id, a missing argument", () => {
    const loopback = run(["webhooks", "create", "--org", "acme", "--url", "http://127.0.0.1:9000/in"]);
    expect([loopback.code, loopback.err.trim()]).toEqual([1, "einvoice: url: the URL must use https (plain http only for hosts the operator lists in WEBHOOK_ALLOWED_HOSTS), not http:"]);
    // The operator's exception, read from the environment as the server reads it.
    expect(run(["webhooks", "create", "--org", "acme", "--url", "http://127.0.0.1:9000/in"], { WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" }).code).toBe(0);
    const unknown = run(["webhooks", "rotate", "--org", "acme", "wh_nope"]);
    expect([unknown.code, unknown.err.trim()]).toEqual([1, "einvoice: no webhook subscription 'wh_nope' in this organization"]);
    expect(run(["webhooks", "delete", "--org", "acme"]).code).toBe(2);
  });
});
