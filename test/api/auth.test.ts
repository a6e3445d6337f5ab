import { afterAll, describe, expect, test } from "bun:test";
import { envelope, startHarness } from "../support/harness";
import { revokeKey, createKey } from "../../src/accounts/keys";

const h = startHarness();
afterAll(() => h.close());
const org = await h.org("acme", "starter");
const live = await h.key(org, "live");

describe("authentication", () => {
  test("Bearer and X-API-Key are equivalent", async () => {
    expect((await h.get("/v1/me", undefined, { authorization: `Bearer ${live}` })).status).toBe(200);
    expect((await h.get("/v1/me", undefined, { "x-api-key": live })).status).toBe(200);
    expect((await h.get("/v1/me", undefined, { authorization: `Bearer ${live}`, "x-api-key": live })).status).toBe(200);
  });

  test("a missing or malformed key is 401 AUTHENTICATION_REQUIRED", async () => {
    const cases: Record<string, string>[] = [{}, { authorization: "Basic abc" }, { authorization: "Bearer nope" }, { "x-api-key": "svc_live_short" }, { "x-api-key": "" }];
    for (const headers of cases) {
      const res = await h.get("/v1/me", undefined, headers);
      expect(res.status).toBe(401);
      const body = await envelope(res);
      expect(body.success).toBe(false);
      expect(body.error.code).toBe("AUTHENTICATION_REQUIRED");
      expect(body.error.message.length).toBeGreaterThan(10);
    }
  });

  test("two different keys in one request are refused", async () => {
    const other = await h.key(org, "test");
    const res = await h.get("/v1/me", undefined, { authorization: `Bearer ${live}`, "x-api-key": other });
    expect(res.status).toBe(401);
  });

  test("an unknown key is 403 INVALID_API_KEY", async () => {
    const res = await h.get("/v1/me", "svc_live_" + "Z".repeat(40));
    expect(res.status).toBe(403);
    expect((await envelope(res)).error.code).toBe("INVALID_API_KEY");
  });

  test("revocation takes effect on the next request", async () => {
    const created = await createKey(h.storage, h.clock.read, org, "live");
    expect((await h.get("/v1/me", created.key)).status).toBe(200);
    await revokeKey(h.storage, h.clock.read, created.keyId);
    const res = await h.get("/v1/me", created.key);
    expect(res.status).toBe(403);
    expect((await envelope(res)).error.code).toBe("INVALID_API_KEY");
  });
});
