import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryTargetMiB, ruleEngineChoice, serverSettings, UsageError } from "../src/config";

const dir = mkdtempSync(join(tmpdir(), "einvoice-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The settings for an environment holding only `env`: the test's own environment never leaks in. */
const settings = (env: Record<string, string>, flags: { port?: string; db?: string } = {}) => serverSettings(flags, env);

/** Accepted values and what they read as, refused values and the message's start. */
const CASES: { name: string; read: (s: ReturnType<typeof settings>) => unknown; accepts: [string, unknown][]; refuses: string[]; message: string }[] = [
  { name: "PORT", read: (s) => s.port, accepts: [["0", 0], ["9000", 9000], ["65535", 65535]], refuses: ["http", "-1", "65536", "80.5", " 80"], message: "PORT must be a whole number from 0 to 65535" },
  {
    name: "REQUEST_DEADLINE_MS",
    read: (s) => s.requestDeadlineMs,
    accepts: [["1000", 1000], ["45000", 45_000], ["240000", 240_000]],
    refuses: ["999", "240001", "30s", "1e4", "30000.5", "-5000"],
    message: "REQUEST_DEADLINE_MS must be a whole number of milliseconds from 1000 to 240000",
  },
  {
    name: "BODY_TIMEOUT_MS",
    read: (s) => s.http.bodyTimeoutMs,
    accepts: [["1000", 1000], ["5000", 5000], ["240000", 240_000]],
    refuses: ["500", "240001", "20s"],
    message: "BODY_TIMEOUT_MS must be a whole number of milliseconds from 1000 to 240000",
  },
  { name: "METRICS", read: (s) => s.metrics, accepts: [["on", true], ["off", false]], refuses: ["no", "0", "false", "OFF"], message: 'METRICS must be "on" or "off"' },
  {
    name: "METRICS_TOKEN",
    read: (s) => s.http.metricsToken,
    accepts: [["scrape-kkkkkkkkkkkkkkkk", "scrape-kkkkkkkkkkkkkkkk"]],
    // Empty is refused, not unset: whoever set it meant to protect the metrics.
    refuses: ["", "short", "a token with spaces in it"],
    message: "METRICS_TOKEN must be at least 16 visible ASCII characters without spaces",
  },
  { name: "METRICS_PORT", read: (s) => s.http.metricsPort, accepts: [["9464", 9464]], refuses: ["metrics", "70000"], message: "METRICS_PORT must be a whole number from 0 to 65535" },
  { name: "VALIDATION_ENGINE", read: (s) => s.ruleEngine, accepts: [["native", "native"], ["saxonjs", "saxonjs"]], refuses: ["saxon", "Native"], message: 'VALIDATION_ENGINE must be "native" or "saxonjs"' },
  {
    name: "TRANSMISSION",
    read: (s) => s.transmission,
    accepts: [
      ["off", { provider: null, networks: [], retentionDays: 90 }],
      ["sandbox", { provider: "sandbox", networks: ["peppol", "ksef", "sdi", "ppf_pdp", "choruspro"], retentionDays: 90, webhooks: { allowPrivate: false, allowedHosts: [] } }],
    ],
    refuses: ["on", "peppol", "Sandbox"],
    message: 'TRANSMISSION must be "off" or "sandbox"',
  },
  { name: "DRIFT_CHECK", read: (s) => s.driftCheck, accepts: [["off", null], ["nightly", { mirror: null }]], refuses: ["daily", "on", "1"], message: 'DRIFT_CHECK must be "off" or "nightly"' },
];

describe("serverSettings", () => {
  test("defaults", () => {
    expect(settings({})).toEqual({
      port: 8080,
      database: { location: "./data/einvoice.sqlite", postgres: { poolSize: 10, statementTimeoutMs: 5000 } },
      requestDeadlineMs: 30_000,
      metrics: true,
      http: { bodyTimeoutMs: 20_000, metricsToken: null, metricsPort: null },
      ruleEngine: "native",
      driftCheck: null,
      transmission: { provider: null, networks: [], retentionDays: 90 },
    });
  });

  for (const { name, read, accepts, refuses, message } of CASES) {
    test(`${name}: accepted values are read, anything else is a UsageError naming the variable and what it takes`, () => {
      for (const [value, expected] of accepts) expect(read(settings({ [name]: value }))).toEqual(expected);
      for (const value of refuses) {
        expect(() => settings({ [name]: value })).toThrow(UsageError);
        expect(() => settings({ [name]: value })).toThrow(message);
      }
    });
  }

  test("an empty variable counts as unset, except METRICS_TOKEN", () => {
    const empty = Object.fromEntries(CASES.map((c) => [c.name, ""]).filter(([name]) => name !== "METRICS_TOKEN"));
    expect(settings({ ...empty, DATABASE_PATH: "", DRIFT_CHECK_MIRROR: "" })).toEqual(settings({}));
  });

  test("TRANSMISSION_NETWORKS narrows what the sandbox serves; an unknown network is refused", () => {
    expect(settings({ TRANSMISSION: "sandbox", TRANSMISSION_NETWORKS: "peppol, sdi" }).transmission).toEqual({
      provider: "sandbox",
      networks: ["peppol", "sdi"],
      retentionDays: 90,
      webhooks: { allowPrivate: false, allowedHosts: [] },
    });
    expect(settings({ TRANSMISSION: "sandbox", TRANSMISSION_RETENTION_DAYS: "30" }).transmission.retentionDays).toBe(30);
    expect(() => settings({ TRANSMISSION: "sandbox", TRANSMISSION_RETENTION_DAYS: "0" })).toThrow("TRANSMISSION_RETENTION_DAYS must be a whole number of days from 1 to 3650, not '0'");
    expect(() => settings({ TRANSMISSION: "sandbox", TRANSMISSION_NETWORKS: "peppol,as4" })).toThrow('TRANSMISSION_NETWORKS must be "peppol" or "ksef" or "sdi" or "ppf_pdp" or "choruspro", not "as4"');
    // Off, the list is not read.
    expect(settings({ TRANSMISSION_NETWORKS: "as4" }).transmission).toEqual({ provider: null, networks: [], retentionDays: 90 });
  });

  test("WEBHOOK_ALLOW_PRIVATE and WEBHOOK_ALLOWED_HOSTS: the operator's exceptions to the webhook destination rules, read when transmission is on", () => {
    const webhooks = (env: Record<string, string>) => settings({ TRANSMISSION: "sandbox", ...env }).transmission.webhooks;
    expect(webhooks({ WEBHOOK_ALLOW_PRIVATE: "on" })).toEqual({ allowPrivate: true, allowedHosts: [] });
    expect(webhooks({ WEBHOOK_ALLOWED_HOSTS: "Hooks.Internal, 127.0.0.1,[::1]" })).toEqual({ allowPrivate: false, allowedHosts: ["hooks.internal", "127.0.0.1", "::1"] });
    expect(() => webhooks({ WEBHOOK_ALLOW_PRIVATE: "yes" })).toThrow('WEBHOOK_ALLOW_PRIVATE must be "on" or "off"');
    for (const bad of ["https://hooks.example", "hooks.example:8443", "hooks.example/path", "under_score.example"]) {
      expect(() => webhooks({ WEBHOOK_ALLOWED_HOSTS: bad })).toThrow("WEBHOOK_ALLOWED_HOSTS must be comma-separated host names or IP addresses");
    }
    // Off, nothing of webhooks is read.
    expect(settings({ WEBHOOK_ALLOW_PRIVATE: "yes" }).transmission).toEqual({ provider: null, networks: [], retentionDays: 90 });
  });

  test("flags win over the environment, and a refused flag is named as the flag", () => {
    const chosen = settings({ PORT: "9000", DATABASE_PATH: "/env.sqlite" }, { port: "9001", db: "/flag.sqlite" });
    expect([chosen.port, chosen.database.location]).toEqual([9001, "/flag.sqlite"]);
    expect(settings({ DATABASE_PATH: "/env.sqlite" }).database.location).toBe("/env.sqlite");
    // A PostgreSQL URL wins over a SQLite path; a flag wins over both.
    expect(settings({ DATABASE_PATH: "/env.sqlite", DATABASE_URL: "postgres://u:p@db/einvoice" }).database.location).toBe("postgres://u:p@db/einvoice");
    expect(settings({ DATABASE_URL: "postgres://u:p@db/einvoice" }, { db: "/flag.sqlite" }).database.location).toBe("/flag.sqlite");
    expect(() => settings({ DATABASE_URL: "/a/file.sqlite" })).toThrow("DATABASE_URL must be a postgres:// or postgresql:// URL");
    expect(settings({ DATABASE_POOL_SIZE: "4", DATABASE_STATEMENT_TIMEOUT_MS: "2500" }).database.postgres).toEqual({ poolSize: 4, statementTimeoutMs: 2500 });
    expect(() => settings({ DATABASE_POOL_SIZE: "0" })).toThrow("DATABASE_POOL_SIZE must be a whole number of connections from 1 to 200, not '0'");
    expect(() => settings({ PORT: "9000" }, { port: "x" })).toThrow("--port must be a whole number from 0 to 65535, not 'x'");
  });

  test("DRIFT_CHECK_MIRROR: an http(s) URL or an existing directory, checked only when the nightly check is on", () => {
    const nightly = (mirror: string) => settings({ DRIFT_CHECK: "nightly", DRIFT_CHECK_MIRROR: mirror }).driftCheck;
    expect(nightly("https://mirror.example/rulesets")).toEqual({ mirror: "https://mirror.example/rulesets" });
    expect(nightly(dir)).toEqual({ mirror: dir });
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    for (const bad of [join(dir, "missing"), file, "ftp://mirror.example"]) expect(() => nightly(bad)).toThrow(`DRIFT_CHECK_MIRROR must be an http(s) URL or an existing directory, not '${bad}'`);
    expect(settings({ DRIFT_CHECK_MIRROR: join(dir, "missing") }).driftCheck).toBeNull();
  });
});

describe("the settings read before the server's modules", () => {
  test("VALIDATION_ENGINE, read again by every engine worker", () => {
    expect([undefined, "", "native", "saxonjs"].map((v) => ruleEngineChoice(v))).toEqual(["native", "native", "native", "saxonjs"]);
    expect(() => ruleEngineChoice("saxon")).toThrow('VALIDATION_ENGINE must be "native" or "saxonjs", not "saxon"');
  });

  test("MEMORY_TARGET_MIB, read before serve re-executes itself", () => {
    expect([undefined, "", "off", "64", "1024"].map((v) => memoryTargetMiB(v))).toEqual([undefined, undefined, "off", 64, 1024]);
    for (const bad of ["abc", "1.5", "-1", "63", "512MB", "1e3"]) expect(() => memoryTargetMiB(bad)).toThrow('MEMORY_TARGET_MIB must be a whole number of MiB (at least 64) or "off"');
  });
});
