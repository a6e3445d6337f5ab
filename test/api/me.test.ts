import { afterAll, describe, expect, test } from "bun:test";
import { envelope, startHarness } from "../support/harness";
import { spendUnit } from "../../src/accounts/quota";
import { createKey } from "../../src/accounts/keys";

const h = startHarness({ now: new Date("2026-03-20T09:30:00Z") });
afterAll(() => h.close());

describe("GET /v1/me", () => {
  test("describes a live key on a paid plan, its window anchored on the billing day", async () => {
    const org = await h.org("acme", "growth", 15);
    const created = await createKey(h.storage, h.clock.read, org, "live");
    for (let i = 0; i < 3; i++) await spendUnit(h.storage, h.clock.now, org, true);
    const res = await h.get("/v1/me", created.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-livemode")).toBe("true");
    expect(await envelope(res)).toEqual({
      success: true,
      data: {
        keyId: created.keyId,
        keyPrefix: "svc_live",
        livemode: true,
        org: { id: org.id, name: "acme", rulesetChannel: "latest" },
        plan: { id: 2, name: "Growth" },
        rateLimitPerMinute: 200,
        quota: { limit: 10000, used: 3, remaining: 9997, resetsAt: "2026-04-15T00:00:00.000Z" },
      },
    });
  });

  test("a test key sees the sandbox allowance, reset on the 1st of the next UTC month", async () => {
    const org = await h.org("sandboxed", "scale", 15);
    const res = await h.get("/v1/me", await h.key(org, "test"));
    expect(res.headers.get("x-service-livemode")).toBe("false");
    const { data } = await envelope(res);
    expect(data.keyPrefix).toBe("svc_test");
    expect(data.livemode).toBe(false);
    expect(data.rateLimitPerMinute).toBe(30);
    expect(data.quota).toEqual({ limit: 400, used: 0, remaining: 400, resetsAt: "2026-04-01T00:00:00.000Z" });
  });

  test("the free plan has a null plan id", async () => {
    const { data } = await envelope(await h.get("/v1/me", await h.key(await h.org("free-co"), "live")));
    expect(data.plan).toEqual({ id: null, name: "Free" });
    expect(data.rateLimitPerMinute).toBe(10);
    expect(data.quota.limit).toBe(20);
  });

  test("costs no quota", async () => {
    const org = await h.org("counted", "starter");
    const key = await h.key(org, "live");
    for (let i = 0; i < 5; i++) await h.get("/v1/me", key);
    const { data } = await envelope(await h.get("/v1/me", key));
    expect(data.quota.used).toBe(0);
  });
});
