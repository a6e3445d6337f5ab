import { afterAll, describe, expect, test } from "bun:test";
import { envelope, startHarness } from "../support/harness";
import { createApp } from "../../src/api/app";
import { listenMetricsApart } from "../../src/api/metrics-endpoint";
import { DEFAULT_HTTP_SETTINGS, httpEnv, UsageError } from "../../src/config";

const TOKEN = "scrape-" + "k".repeat(24);
const h = startHarness();
const guarded = createApp(h.deps, [], { ...DEFAULT_HTTP_SETTINGS, metricsToken: TOKEN }).listen({ port: 0, hostname: "127.0.0.1" });
const apart = createApp(h.deps, [], { ...DEFAULT_HTTP_SETTINGS, metricsPort: 0 }).listen({ port: 0, hostname: "127.0.0.1" });
const loopback = listenMetricsApart(h.deps.metrics, null, 0);
afterAll(() => {
  guarded.stop(true);
  apart.stop(true);
  loopback.stop(true);
  h.close();
});
const url = (server: { port?: number }, path = "/metrics") => `http://127.0.0.1:${server.port}${path}`;

describe("GET /metrics behind METRICS_TOKEN", () => {
  test("without the token, or with another one, it is 401 AUTHENTICATION_REQUIRED with the hardening headers", async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: "Bearer " + TOKEN.slice(0, -1) + "x" }, { authorization: TOKEN }];
    for (const headers of attempts) {
      const res = await fetch(url(guarded.server!), { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toStartWith("Bearer");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      const body = await envelope(res);
      expect(body.error.code).toBe("AUTHENTICATION_REQUIRED");
      expect(body.error.message).toContain("METRICS_TOKEN");
    }
  });

  test("with the token it is the Prometheus text", async () => {
    const res = await fetch(url(guarded.server!), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("# TYPE service_api_http_429_total counter");
  });
});

describe("GET /metrics on METRICS_PORT", () => {
  test("the API port no longer serves it", async () => {
    const res = await fetch(url(apart.server!));
    expect(res.status).toBe(404);
    expect((await envelope(res)).error.code).toBe("NOT_FOUND");
  });

  test("the loopback listener serves it and nothing else, with the hardening headers", async () => {
    const res = await fetch(url(loopback));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(await res.text()).toContain("service_api_http_request_duration_seconds");
    const other = await fetch(url(loopback, "/v1/me"));
    expect(other.status).toBe(404);
    expect(other.headers.get("x-content-type-options")).toBe("nosniff");
    expect(loopback.hostname).toBe("127.0.0.1");
  });
});

describe("the settings from the environment", () => {
  const NAMES = ["BODY_TIMEOUT_MS", "METRICS_TOKEN", "METRICS_PORT"];
  function withEnv(env: Record<string, string>, read: () => unknown) {
    const saved = NAMES.map((name) => [name, process.env[name]] as const);
    for (const name of NAMES) delete process.env[name];
    Object.assign(process.env, env);
    try {
      return read();
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }

  test("defaults: metrics open on the API port, a 20 s body deadline", () => {
    expect(withEnv({}, httpEnv)).toEqual({ bodyTimeoutMs: 20_000, metricsToken: null, metricsPort: null });
  });

  test("set values are read, and mistakes stop the start with a message", () => {
    expect(withEnv({ METRICS_TOKEN: TOKEN, METRICS_PORT: "9464", BODY_TIMEOUT_MS: "5000" }, httpEnv)).toEqual({ bodyTimeoutMs: 5000, metricsToken: TOKEN, metricsPort: 9464 });
    expect(() => withEnv({ METRICS_TOKEN: "short" }, httpEnv)).toThrow(UsageError);
    expect(() => withEnv({ METRICS_TOKEN: "a token with spaces in it" }, httpEnv)).toThrow("without spaces");
    expect(() => withEnv({ METRICS_PORT: "metrics" }, httpEnv)).toThrow("METRICS_PORT must be a whole number");
    expect(() => withEnv({ BODY_TIMEOUT_MS: "500" }, httpEnv)).toThrow("BODY_TIMEOUT_MS must be a whole number of milliseconds from 1000");
  });
});
