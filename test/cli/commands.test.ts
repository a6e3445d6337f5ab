import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const db = join(dir, "cli.sqlite");
const main = new URL("../../src/main.ts", import.meta.url).pathname;

function run(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawnSync([process.execPath, main, ...args], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

describe("command line", () => {
  test("orgs create, set-plan and list", () => {
    const created = run(["orgs", "create", "--name", "acme", "--plan", "starter", "--billing-day", "12", "--db", db]);
    expect(created.code).toBe(0);
    const org = JSON.parse(created.out);
    expect(org).toMatchObject({ name: "acme", plan: "starter", billingDay: 12, rulesetChannel: "latest" });
    expect(JSON.parse(run(["orgs", "set-plan", "acme", "--plan", "scale", "--db", db]).out).plan).toBe("scale");
    expect(JSON.parse(run(["orgs", "set-plan", org.id, "--plan", "growth", "--db", db]).out).plan).toBe("growth");
    expect(JSON.parse(run(["orgs", "list", "--db", db]).out).map((o: { name: string }) => o.name)).toEqual(["acme"]);
  });

  test("participants: added unconfirmed unless --confirmed, stored as identifiers compare, confirmed, listed and removed", () => {
    const added = JSON.parse(run(["participants", "add", "--org", "acme", "--scheme", "0088", "--id", "4000-0010-0000-5", "--country", "de", "--db", db]).out);
    expect(added).toMatchObject({ scheme: "0088", identifier: "4000001000005", country: "DE", confirmed: false });
    expect(JSON.parse(run(["participants", "confirm", "--org", "acme", "--scheme", "0088", "--id", "4000001000005", "--db", db]).out).confirmed).toBe(true);
    expect(JSON.parse(run(["participants", "add", "--org", "acme", "--scheme", "0192", "--id", "987654325", "--confirmed", "--db", db]).out).confirmed).toBe(true);
    expect(JSON.parse(run(["participants", "list", "--org", "acme", "--db", db]).out).map((p: { identifier: string }) => p.identifier)).toEqual(["4000001000005", "987654325"]);
    expect(run(["participants", "remove", "--org", "acme", "--scheme", "0192", "--id", "987654325", "--db", db]).code).toBe(0);
    const missing = run(["participants", "add", "--org", "acme", "--scheme", "0088", "--db", db]);
    expect([missing.code, missing.err]).toEqual([2, "einvoice: missing --id ID\n"]);
  });

  test("inbox-providers: the secret printed once on add and on rotate, never listed", () => {
    const added = JSON.parse(run(["inbox-providers", "add", "--id", "acme-ap", "--network", "peppol", "--db", db]).out);
    expect(added).toMatchObject({ id: "acme-ap", network: "peppol", callback: "/v1/inbox/acme-ap" });
    expect(added.secret).toMatch(/^whsec_/);
    const rotated = JSON.parse(run(["inbox-providers", "rotate", "--id", "acme-ap", "--db", db]).out);
    expect(rotated.secret).not.toBe(added.secret);
    const listed = run(["inbox-providers", "list", "--db", db]).out;
    expect(JSON.parse(listed)).toEqual([expect.objectContaining({ id: "acme-ap", network: "peppol", secrets: 2 })]);
    expect(listed).not.toContain("whsec_");
    const refused = run(["inbox-providers", "add", "--id", "acme-ap", "--network", "peppol", "--db", db]);
    expect(refused.code).toBe(1);
    expect(run(["inbox-providers", "add", "--id", "other", "--db", db]).err).toBe("einvoice: missing --network NETWORK\n");
    expect(run(["inbox-providers", "remove", "--id", "acme-ap", "--db", db]).code).toBe(0);
  });

  test("keys create prints keyId, key, orgId and livemode; list and revoke", () => {
    const created = run(["keys", "create", "--org", "acme", "--mode", "test", "--label", "ci", "--db", db]);
    expect(created.code).toBe(0);
    const key = JSON.parse(created.out);
    expect(Object.keys(key)).toEqual(["keyId", "key", "orgId", "livemode"]);
    expect(key.key).toMatch(/^svc_test_/);
    expect(key.livemode).toBe(false);
    const listed = JSON.parse(run(["keys", "list", "--org", "acme", "--db", db]).out);
    expect(listed).toEqual([expect.objectContaining({ keyId: key.keyId, label: "ci", livemode: false, revokedAt: null })]);
    expect(JSON.stringify(listed)).not.toContain(key.key);
    expect(run(["keys", "revoke", key.keyId, "--db", db]).code).toBe(0);
    expect(JSON.parse(run(["keys", "list", "--org", "acme", "--db", db]).out)[0].revokedAt).toBeString();
  });

  test("DATABASE_PATH works as --db does", () => {
    expect(run(["orgs", "create", "--name", "by-env"], { DATABASE_PATH: db }).code).toBe(0);
    expect(JSON.parse(run(["orgs", "list", "--db", db]).out).map((o: { name: string }) => o.name)).toContain("by-env");
  });

  test("mistakes exit non-zero with a message a person can act on", () => {
    const unknownOrg = run(["keys", "create", "--org", "nobody", "--mode", "live", "--db", db]);
    expect(unknownOrg.code).toBe(1);
    expect(unknownOrg.err).toContain("no organization with id or name 'nobody'");
    const badMode = run(["keys", "create", "--org", "acme", "--mode", "prod", "--db", db]);
    expect(badMode.err).toContain("--mode must be live or test");
    const usage = run(["orgs", "create", "--db", db]);
    expect(usage.code).toBe(2);
    expect(usage.err).toContain("missing --name");
    expect(run(["frobnicate"]).code).toBe(2);
    expect(run(["orgs", "create", "--name", "x", "--bogus", "1", "--db", db]).code).toBe(2);
  });

  /** Starts `serve` with stdout piped (no terminal) and returns its output up to the listening line. */
  async function startServe(dbFile: string, env: Record<string, string> = {}, until = "listening on") {
    const proc = Bun.spawn([process.execPath, main, "serve", "--db", dbFile], { env: { ...process.env, PORT: "0", ...env }, stdout: "pipe", stderr: "pipe" });
    const reader = proc.stdout.getReader();
    let out = "";
    while (!out.includes(until)) out += new TextDecoder().decode((await reader.read()).value);
    return { proc, out, port: out.match(/listening on http:\/\/localhost:(\d+)/)![1] };
  }

  test("serve on an empty database without a terminal writes the two keys to an owner-only file beside the database, never to stdout", async () => {
    const fresh = join(dir, "fresh.sqlite");
    const keysFile = join(dir, "first-start-keys.txt");
    const { proc, out, port } = await startServe(fresh);
    try {
      expect(out).not.toContain("svc_");
      expect(out).toContain(`They are in ${keysFile}, readable only by this user`);
      expect(statSync(keysFile).mode & 0o777).toBe(0o600);
      const written = readFileSync(keysFile, "utf8");
      const testKey = written.match(/test key: (svc_test_\w+)/)![1];
      expect(written).toMatch(/live key: svc_live_\w+/);
      const res = await fetch(`http://127.0.0.1:${port}/v1/me`, { headers: { "x-api-key": testKey } });
      expect(res.status).toBe(200);
      expect((await res.json()).data.org.name).toBe("default");
    } finally {
      proc.kill();
      await proc.exited;
    }
    // A second start on the same file creates no keys and leaves the file alone.
    const before = readFileSync(keysFile, "utf8");
    const second = await startServe(fresh);
    second.proc.kill();
    await second.proc.exited;
    expect(second.out).not.toContain("First start");
    expect(readFileSync(keysFile, "utf8")).toBe(before);
  });

  test("serve on an empty database in a terminal shows the two keys there once and writes no file", async () => {
    const ttyDir = mkdtempSync(join(dir, "tty-"));
    let out = "";
    const proc = Bun.spawn([process.execPath, main, "serve", "--db", join(ttyDir, "tty.sqlite")], {
      env: { ...process.env, PORT: "0" },
      terminal: { data: (_, data) => (out += new TextDecoder().decode(data)) },
    });
    try {
      for (let waited = 0; !out.includes("listening on") && waited < 60_000; waited += 50) await Bun.sleep(50);
      expect(out).toMatch(/test key: svc_test_\w+/);
      expect(out).toMatch(/live key: svc_live_\w+/);
      expect(existsSync(join(ttyDir, "first-start-keys.txt"))).toBe(false);
    } finally {
      proc.kill();
      await proc.exited;
      proc.terminal?.close();
    }
  });

  test("METRICS_PORT moves the metrics to a loopback listener of their own, behind METRICS_TOKEN when set", async () => {
    const token = "t".repeat(32);
    const { proc, out, port } = await startServe(db, { METRICS_PORT: "0", METRICS_TOKEN: token }, "/metrics only");
    try {
      const metricsUrl = out.match(/metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics) only/)![1];
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
      expect((await fetch(metricsUrl)).status).toBe(401);
      expect((await fetch(metricsUrl, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      proc.kill();
      await proc.exited;
    }
  });

  test("serve refuses a METRICS_TOKEN too short to keep a secret, before it listens", () => {
    const bad = run(["serve", "--port", "0", "--db", db], { METRICS_TOKEN: "secret" });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("METRICS_TOKEN must be at least 16 visible ASCII characters");
  });

  test("rulesets status names the engine of every entry file; VALIDATION_ENGINE=saxonjs moves every rule file to SaxonJS", () => {
    const status = run(["rulesets", "status", "--db", db]);
    expect(status.code).toBe(0);
    expect(status.out).toMatch(/^ {4}peppol_bis_schematron\/3\.0\.19\/rules\/sch\/PEPPOL-EN16931-UBL\.sch: native$/m);
    expect(status.out).toMatch(/^ {4}ubl_xsd\/2\.1\/.*: libxml2-wasm$/m);
    const forced = run(["rulesets", "status", "--db", db], { VALIDATION_ENGINE: "saxonjs" });
    expect(forced.out).toMatch(/^ {4}peppol_bis_schematron\/3\.0\.19\/rules\/sch\/PEPPOL-EN16931-UBL\.sch: saxonjs \(VALIDATION_ENGINE=saxonjs\)$/m);
    expect(forced.out).not.toMatch(/: native$/m);
  });

  test("serve refuses an unknown VALIDATION_ENGINE before it listens", () => {
    const bad = run(["serve", "--port", "0", "--db", db], { VALIDATION_ENGINE: "java" });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('VALIDATION_ENGINE must be "native" or "saxonjs", not "java"');
  });
});
