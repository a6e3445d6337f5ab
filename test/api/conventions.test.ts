import { afterAll, describe, expect, test } from "bun:test";
import { envelope, startHarness } from "../support/harness";
import { workRoute } from "../support/metered-route";
import { CORS_EXPOSED_HEADERS } from "../../src/api/headers";

const h = startHarness({ routes: [workRoute] });
const quiet = startHarness({ config: { metrics: false } });
afterAll(() => {
  h.close();
  quiet.close();
});
const org = await h.org("conventions", "starter");
const key = await h.key(org, "test");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const SPEC_EXPOSED = [
  "x-request-id", "x-syntax", "x-profile-detected", "x-schematron-version", "x-validation", "x-ruleset-sha256",
  "x-ruleset-artifacts", "x-version-block", "x-pdf-kind", "x-source-format", "x-target-format", "x-lost-elements",
  "x-lost-elements-count", "x-conversion-tools", "x-output-envelope", "Service-Ruleset-Resolved", "Retry-After",
  "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset",
];

function expectApiHeaders(res: Response, livemode: "true" | "false") {
  expect(res.headers.get("x-request-id")).toMatch(UUID);
  expect(res.headers.get("x-service-livemode")).toBe(livemode);
  for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) expect(res.headers.get(name)).toMatch(/^\d+$/);
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  const exposed = res.headers.get("access-control-expose-headers")!.split(", ");
  expect(exposed).toEqual(SPEC_EXPOSED);
  expect(exposed).not.toContain("x-service-livemode");
  expect(exposed).not.toContain("x-service-quota-refunded");
}

describe("conventions on every response", () => {
  test("success responses carry every header and the success envelope", async () => {
    const res = await h.get("/v1/me", key);
    expectApiHeaders(res, "false");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(Object.keys(await envelope(res))).toEqual(["success", "data"]);
  });

  test("error responses carry them too, with the error envelope and no incident id below 500", async () => {
    const cases: [Response, "true" | "false"][] = [
      [await h.get("/v1/me"), "true"],
      [await h.get("/v1/me", "svc_test_" + "x".repeat(40)), "false"],
      [await h.get("/v1/nowhere", key), "false"],
    ];
    for (const [res, livemode] of cases) {
      expectApiHeaders(res, livemode);
      const body = await envelope(res);
      expect(body.success).toBe(false);
      expect(Object.keys(body.error).sort()).toEqual(["code", "message"]);
    }
  });

  test("x-service-livemode follows the key's prefix", async () => {
    expect((await h.get("/v1/me", await h.key(org, "live"))).headers.get("x-service-livemode")).toBe("true");
    expect((await h.get("/v1/me", "svc_test_" + "y".repeat(40))).headers.get("x-service-livemode")).toBe("false");
    expect((await h.get("/v1/me")).headers.get("x-service-livemode")).toBe("true");
  });

  test("unknown paths and wrong methods are 404 NOT_FOUND", async () => {
    for (const res of [await h.get("/v2/me", key), await h.post("/v1/me", null, { authorization: `Bearer ${key}` }), await h.get("/v1/test-work", key)]) {
      expect(res.status).toBe(404);
      expect((await envelope(res)).error.code).toBe("NOT_FOUND");
      expect(res.headers.get("x-request-id")).toMatch(UUID);
    }
  });

  test("an unexpected failure is 500 INTERNAL_ERROR with a short incident id that is logged with the stack", async () => {
    const logged: string[] = [];
    const original = console.error;
    console.error = (line: string) => logged.push(line);
    try {
      const res = await h.post("/v1/test-work", JSON.stringify({ standard: "xrechnung", action: "crash" }), {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
      });
      expect(res.status).toBe(500);
      const { error } = await envelope(res);
      expect(error.code).toBe("INTERNAL_ERROR");
      expect(error.incidentId).toMatch(/^inc_[0-9A-Z]{12}$/);
      expect(error.message).not.toContain("simulated engine fault");
      const entry = JSON.parse(logged.find((l) => l.includes(error.incidentId))!);
      expect(entry.stack).toContain("simulated engine fault");
      expect(entry.requestId).toBe(res.headers.get("x-request-id"));
    } finally {
      console.error = original;
    }
  });

  test("CORS preflight answers with the allowed methods and headers", async () => {
    const res = await fetch(h.base + "/v1/me", { method: "OPTIONS", headers: { origin: "https://app.example", "access-control-request-method": "GET" } });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toContain("X-API-Key");
    expect(res.headers.get("access-control-allow-headers")).toContain("Service-Ruleset");
    expect(res.headers.get("access-control-expose-headers")!.split(", ")).toEqual([...CORS_EXPOSED_HEADERS]);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-request-id")).toMatch(UUID);
  });
});

describe("OpenAPI and docs", () => {
  test("the document is version 0.2.0 and lists every route with its errors and headers", async () => {
    const res = await fetch(h.base + "/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(UUID);
    const doc = await res.json();
    expect(doc.info.version).toBe("0.2.0");
    const me = doc.paths["/v1/me"].get;
    expect(Object.keys(me.responses)).toEqual(["200", "401", "403", "429", "500"]);
    expect(me.responses["429"].content["application/json"].schema.properties.error.properties.code.enum).toEqual(["RATE_LIMITED", "ACCOUNT_THROTTLED"]);
    expect(Object.keys(me.responses["200"].headers)).toContain("x-service-livemode");
    expect(me.responses["429"].headers["retry-after"]).toBeDefined();
    expect(me.responses["200"].content["application/json"].schema.properties.data).toEqual({ $ref: "#/components/schemas/Account" });
    expect(doc.components.schemas.Account.properties.quota.required).toEqual(["limit", "used", "remaining", "resetsAt"]);
    const work = doc.paths["/v1/test-work"].post;
    expect(Object.keys(work.responses)).toEqual(["200", "400", "401", "403", "408", "413", "415", "422", "429", "500", "503"]);
    expect(work.requestBody.content["application/json"].schema.properties.standard.anyOf).toHaveLength(3);
    expect(work.responses["503"].headers["x-service-quota-refunded"]).toBeDefined();
  });

  test("the request schema in the document is the one that validates requests", async () => {
    const doc = await (await fetch(h.base + "/openapi.json")).json();
    const { WorkRequest } = await import("../support/metered-route");
    expect(doc.paths["/v1/test-work"].post.requestBody.content["application/json"].schema).toEqual(JSON.parse(JSON.stringify(WorkRequest)));
  });

  test("the docs page renders every route offline", async () => {
    const res = await fetch(h.base + "/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain("/v1/me");
    expect(html).toContain("/v1/test-work");
    expect(html).not.toMatch(/<script|https?:\/\/(?!localhost)/);
  });
});

describe("metrics", () => {
  test("request durations are a histogram by method and route template", async () => {
    await h.get("/v1/me", key);
    const text = await (await fetch(h.base + "/metrics")).text();
    expect(text).toContain("# TYPE service_api_http_request_duration_seconds histogram");
    expect(text).toMatch(/service_api_http_request_duration_seconds_count\{method="GET",route="\/v1\/me"\} \d+/);
    expect(text).toContain('service_api_http_429_total{subtype="unknown"} 0');
  });

  test("METRICS=off removes the endpoint", async () => {
    expect((await fetch(quiet.base + "/metrics")).status).toBe(404);
  });
});
