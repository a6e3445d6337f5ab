import { afterAll, describe, expect, test } from "bun:test";
import { envelope, startHarness } from "../support/harness";
import { createApp } from "../../src/api/app";
import { listenMetricsApart } from "../../src/api/metrics-endpoint";
import { DEFAULT_HTTP_SETTINGS } from "../../src/config";

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
