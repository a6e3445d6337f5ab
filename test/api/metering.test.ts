import { afterAll, describe, expect, test } from "bun:test";
import { envelope, startHarness } from "../support/harness";
import { workRoute } from "../support/metered-route";
import { quotaStatus, spendUnit } from "../../src/accounts/quota";

const h = startHarness({ routes: [workRoute], now: new Date("2026-03-10T12:00:00Z"), config: { requestDeadlineMs: 400, engineConcurrency: 1, engineMaxQueue: 2 } });
afterAll(() => h.close());

const work = (key: string, body: object) =>
  h.post("/v1/test-work", JSON.stringify({ standard: "xrechnung", ...body }), { authorization: `Bearer ${key}`, "content-type": "application/json" });

describe("quota over HTTP", () => {
  test("50 parallel requests against 10 remaining units spend exactly 10", async () => {
    const org = await h.org("parallel", "scale");
    const key = await h.key(org, "live");
    await spendUnit(h.storage, h.clock.now, org, true);
    h.storage.sqlite.run("UPDATE quota_windows SET used = 49990 WHERE org_id = ?", [org.id]);
    const answers = await Promise.all(Array.from({ length: 50 }, () => work(key, { action: "ok" })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length + statuses.filter((s) => s === 503).length).toBe(10);
    expect(statuses.filter((s) => s === 429).length).toBe(40);
    const usage = await quotaStatus(h.storage, h.clock.now, org, true);
    // Shed requests (503) gave their unit back; the others kept theirs.
    expect(usage.used).toBe(49_990 + statuses.filter((s) => s === 200).length);
  }, 30_000);

  test("QUOTA_EXCEEDED names the usage and Retry-After is the time to the window end", async () => {
    const org = await h.org("spent", "free", 10);
    const key = await h.key(org, "live");
    for (let i = 0; i < 20; i++) await spendUnit(h.storage, h.clock.now, org, true);
    const res = await work(key, { action: "ok" });
    expect(res.status).toBe(429);
    const body = await envelope(res);
    expect(body.error.code).toBe("QUOTA_EXCEEDED");
    expect(body.error.message).toContain("20 of 20");
    // 2026-03-10T12:00Z to the next billing day 2026-04-10T00:00Z.
    expect(res.headers.get("retry-after")).toBe(String((Date.parse("2026-04-10T00:00:00Z") - h.clock.now.getTime()) / 1000));
    expect(res.headers.get("x-service-quota-refunded")).toBeNull();
  });

  test("a test key meters against the sandbox allowance with a month-end Retry-After", async () => {
    const org = await h.org("sandbox", "scale", 20);
    const key = await h.key(org, "test");
    for (let i = 0; i < 400; i++) await spendUnit(h.storage, h.clock.now, org, false);
    const res = await work(key, { action: "ok" });
    expect((await envelope(res)).error.code).toBe("QUOTA_EXCEEDED");
    expect(res.headers.get("retry-after")).toBe(String((Date.parse("2026-04-01T00:00:00Z") - h.clock.now.getTime()) / 1000));
  });
});

describe("refunds", () => {
  test("a caller's fault keeps the unit; a service fault returns it and says so", async () => {
    const org = await h.org("refunds", "starter");
    const key = await h.key(org, "live");
    const rejected = await work(key, { action: "reject" });
    expect(rejected.status).toBe(422);
    expect(rejected.headers.get("x-service-quota-refunded")).toBeNull();
    expect((await quotaStatus(h.storage, h.clock.now, org, true)).used).toBe(1);

    const crashed = await work(key, { action: "crash" });
    expect(crashed.status).toBe(500);
    const body = await envelope(crashed);
    expect(body.error.code).toBe("INTERNAL_ERROR");
    expect(body.error.incidentId.length).toBeLessThanOrEqual(20);
    expect(crashed.headers.get("x-service-quota-refunded")).toBe("true");
    expect((await quotaStatus(h.storage, h.clock.now, org, true)).used).toBe(1);
  });

  test("past 50 compute-consuming refunds in the clock hour the header says false", async () => {
    const org = await h.org("capped", "scale");
    const key = await h.key(org, "live");
    const headers: (string | null)[] = [];
    for (let i = 0; i < 51; i++) headers.push((await work(key, { action: "crash" })).headers.get("x-service-quota-refunded"));
    expect(headers.slice(0, 50).every((v) => v === "true")).toBe(true);
    expect(headers[50]).toBe("false");
    expect((await quotaStatus(h.storage, h.clock.now, org, true)).used).toBe(1);
  });

  test("test keys are refunded without a header", async () => {
    const org = await h.org("test-refund", "free");
    const key = await h.key(org, "test");
    const res = await work(key, { action: "crash" });
    expect(res.status).toBe(500);
    expect(res.headers.get("x-service-quota-refunded")).toBeNull();
    expect((await quotaStatus(h.storage, h.clock.now, org, false)).used).toBe(0);
  });
});

describe("engine queue and request deadline", () => {
  test("a request that cannot start before the deadline is 503 ENGINE_UNAVAILABLE with Retry-After and a refund", async () => {
    const org = await h.org("queued", "scale");
    const key = await h.key(org, "live");
    // One slot, deadline 400 ms. A holds the slot for 350 ms; B starts then and is cut off at its
    // deadline (compute consumed) but keeps the slot; C never gets to start (nothing computed); D finds the queue full.
    const a = work(key, { action: "sleep", ms: 350 });
    await Bun.sleep(20);
    const b = work(key, { action: "stubborn", ms: 350 });
    await Bun.sleep(20);
    const c = work(key, { action: "sleep", ms: 0 });
    await Bun.sleep(20);
    const d = await work(key, { action: "ok" });
    expect(d.status).toBe(503);
    expect((await envelope(d)).error.message).toContain("queue is full");
    expect(d.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect((await a).status).toBe(200);
    const [bodyB, bodyC] = await Promise.all([b, c].map(async (p) => {
      const res = await p;
      expect(res.status).toBe(503);
      expect(res.headers.get("x-service-quota-refunded")).toBe("true");
      expect(res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      return envelope(res);
    }));
    expect(bodyB.error.message).toContain("could not finish");
    expect(bodyC.error.message).toContain("could not start");
    for (const body of [bodyB, bodyC]) {
      expect(body.error.code).toBe("ENGINE_UNAVAILABLE");
      expect(body.error.incidentId).toBeString();
    }
    expect((await quotaStatus(h.storage, h.clock.now, org, true)).used).toBe(1);
  });

  test("a job running past the deadline is cut off, answered 503 and refunded under the hourly cap", async () => {
    const org = await h.org("slow", "scale");
    const key = await h.key(org, "live");
    const res = await work(key, { action: "sleep", ms: 5000 });
    expect(res.status).toBe(503);
    expect((await envelope(res)).error.message).toContain("deadline");
    expect(res.headers.get("x-service-quota-refunded")).toBe("true");
    expect((await quotaStatus(h.storage, h.clock.now, org, true)).used).toBe(0);
  });
});
