import { afterAll, describe, expect, test } from "bun:test";
import { envelope, startHarness } from "../support/harness";
import { workRoute } from "../support/metered-route";
import { THROTTLE } from "../../src/accounts/abuse-throttle";
import { spendUnit } from "../../src/accounts/quota";

const h = startHarness({ config: { anonymousPerMinute: 5 }, routes: [workRoute] });
afterAll(() => h.close());

const rate = (res: Response) => ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"].map((n) => res.headers.get(n));

describe("per-minute burst", () => {
  test("the whole allowance may be spent at once; the next request is 429 RATE_LIMITED with Retry-After", async () => {
    const org = await h.org("burst", "free");
    const key = await h.key(org, "live");
    const answers = await Promise.all(Array.from({ length: 10 }, () => h.get("/v1/me", key)));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(answers.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    h.clock.advance(20_000);
    const refused = await h.get("/v1/me", key);
    expect(refused.status).toBe(429);
    expect((await envelope(refused)).error.code).toBe("RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBe("40");
    expect(rate(refused)).toEqual(["10", "0", "40"]);
    // The window rolls: once the first requests are a minute old, their slots are free again.
    h.clock.advance(40_000);
    const again = await h.get("/v1/me", key);
    expect(again.status).toBe(200);
    expect(rate(again)).toEqual(["10", "9", "60"]);
  });

  test("test and live keys have separate counters; test keys get 30 per minute on any plan", async () => {
    const org = await h.org("modes", "free");
    const live = await h.key(org, "live");
    const testKey = await h.key(org, "test");
    for (let i = 0; i < 10; i++) await h.get("/v1/me", live);
    expect((await h.get("/v1/me", live)).status).toBe(429);
    const first = await h.get("/v1/me", testKey);
    expect(first.status).toBe(200);
    expect(rate(first).slice(0, 2)).toEqual(["30", "29"]);
  });

  test("all keys of an organization share its counter", async () => {
    const org = await h.org("shared", "free");
    const a = await h.key(org, "live");
    const b = await h.key(org, "live");
    for (let i = 0; i < 5; i++) await h.get("/v1/me", a);
    const res = await h.get("/v1/me", b);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("4");
  });

  test("requests without a valid key are counted per client address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await h.get("/v1/me", "svc_live_" + "Q".repeat(40))).status);
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
    h.clock.advance(61_000);
  });
});

describe("abuse throttle", () => {
  /** Spends the key's allowance, then as many rejections again: the pressure that starts a throttle. */
  async function provoke(key: string, allowance: number) {
    for (let i = 0; i < allowance; i++) expect((await h.get("/v1/me", key)).status).toBe(200);
    for (let i = 0; i < allowance; i++) expect((await envelope(await h.get("/v1/me", key))).error.code).toBe("RATE_LIMITED");
  }

  /** A throttled answer carries the rate-limit headers too: no budget until the throttle ends. */
  const throttledFor = async (key: string) => {
    const res = await h.get("/v1/me", key);
    expect(res.status).toBe(429);
    expect((await envelope(res)).error.code).toBe("ACCOUNT_THROTTLED");
    const retryAfter = res.headers.get("retry-after");
    const allowance = key.startsWith("svc_test_") ? "30" : "10";
    expect(rate(res)).toEqual([allowance, "0", retryAfter]);
    return Number(retryAfter);
  };

  test("sustained pressure past the burst throttles that key mode on every route for the throttle window", async () => {
    const org = await h.org("abuser", "free");
    const live = await h.key(org, "live");
    await provoke(live, 10);
    expect(await throttledFor(live)).toBe(THROTTLE.windowMs / 1000);
    // Another live key of the organization is throttled too, on any route under /v1.
    const other = await h.key(org, "live");
    expect(await throttledFor(other)).toBe(THROTTLE.windowMs / 1000);
    h.clock.advance(THROTTLE.windowMs + 1000);
    expect((await h.get("/v1/me", live)).status).toBe(200);
  });

  test("test-key pressure never throttles the organization's live keys, nor the other way round", async () => {
    const org = await h.org("sandbox-pressure", "free");
    const live = await h.key(org, "live");
    const testKey = await h.key(org, "test");
    await provoke(testKey, 30);
    expect(await throttledFor(testKey)).toBe(THROTTLE.windowMs / 1000);
    for (let i = 0; i < 5; i++) {
      const res = await h.get("/v1/me", live);
      expect(res.status).toBe(200);
      h.clock.advance(30_000);
    }
    // Now the live keys are throttled; once the test keys' own throttle ends, they answer again.
    h.clock.advance(60_000);
    await provoke(live, 10);
    h.clock.advance(100_000);
    expect((await h.get("/v1/me", testKey)).status).toBe(200);
    expect(await throttledFor(live)).toBeGreaterThan(0);
  });

  test("light polling while throttled does not extend it: the client is free when the window ends", async () => {
    const org = await h.org("poller", "free");
    const live = await h.key(org, "live");
    await provoke(live, 10);
    const start = h.clock.now.getTime();
    // One request every 30 s (2 a minute, well inside the allowance of 10): Retry-After counts down.
    let previous = Infinity;
    while (h.clock.now.getTime() + 30_000 < start + THROTTLE.windowMs) {
      h.clock.advance(30_000);
      const left = await throttledFor(live);
      expect(left).toBe(Math.ceil((start + THROTTLE.windowMs - h.clock.now.getTime()) / 1000));
      expect(left).toBeLessThan(previous);
      previous = left;
    }
    h.clock.advance(30_000);
    expect((await h.get("/v1/me", live)).status).toBe(200);
  });

  test("requests past the allowance while throttled extend it, never beyond the cap from its start", async () => {
    const org = await h.org("hammer", "free");
    const live = await h.key(org, "live");
    await provoke(live, 10);
    const start = h.clock.now.getTime();
    // Every minute, twice the allowance: the requests past it push the end out to a full window.
    for (let minute = 1; h.clock.now.getTime() + 60_000 < start + THROTTLE.maxMs; minute++) {
      h.clock.advance(60_000);
      let left = 0;
      for (let i = 0; i < 20; i++) left = await throttledFor(live);
      expect(left).toBe(Math.min(THROTTLE.windowMs, start + THROTTLE.maxMs - h.clock.now.getTime()) / 1000);
    }
    h.clock.advance(start + THROTTLE.maxMs - h.clock.now.getTime());
    expect((await h.get("/v1/me", live)).status).toBe(200);
  });

  test("a throttled answer says no budget is left until the throttle ends, even once the burst minute has rolled", async () => {
    const org = await h.org("throttle-headers", "free");
    const live = await h.key(org, "live");
    await provoke(live, 10);
    // The burst counter has emptied a minute later; the throttle still admits nothing.
    h.clock.advance(61_000);
    const res = await h.get("/v1/me", live);
    expect((await envelope(res)).error.code).toBe("ACCOUNT_THROTTLED");
    expect(res.headers.get("retry-after")).toBe(String(THROTTLE.windowMs / 1000 - 61));
    expect(rate(res)).toEqual(["10", "0", String(THROTTLE.windowMs / 1000 - 61)]);
    h.clock.advance(THROTTLE.maxMs);
  });

  test("429s are counted by subtype in the metrics", async () => {
    const text = await (await fetch(h.base + "/metrics")).text();
    expect(text).toMatch(/service_api_http_429_total\{subtype="rate_limit_hit"\} (\d+)/);
    const count = (s: string) => Number(text.match(new RegExp(`subtype="${s}"\\} (\\d+)`))![1]);
    expect(count("rate_limit_hit")).toBeGreaterThanOrEqual(13);
    expect(count("abuse_throttle_hit")).toBeGreaterThanOrEqual(3);
  });
});

describe("the rate-limit headers on every /v1 answer", () => {
  test("answers refused before the key is known carry the client address's counter", async () => {
    h.clock.advance(61_000);
    const answers = [
      await h.get("/v1/me"),
      await h.get("/v1/me", "not-a-key"),
      await h.get("/v1/me", "svc_live_" + "Q".repeat(40)),
      await h.get("/v1/nothing-here"),
    ];
    expect(answers.map((r) => r.status)).toEqual([401, 401, 403, 404]);
    answers.forEach((res, i) => expect(rate(res)).toEqual(["5", String(4 - i), "60"]));
    h.clock.advance(61_000);
  });

  test("answers to a known key carry its organization's counter, whatever refuses the request", async () => {
    const org = await h.org("early-answers", "starter");
    const key = await h.key(org, "live");
    const work = (body: string, headers: Record<string, string> = {}) =>
      h.post("/v1/test-work", body, { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers });
    const answers = [
      await work("<x/>", { "content-type": "application/xml" }),
      await work(JSON.stringify({ standard: "xrechnung", action: "ok", pad: "x".repeat(1_000_001) })),
      await work(JSON.stringify({ standard: "cii", action: "ok" })),
    ];
    expect(answers.map((r) => r.status)).toEqual([415, 413, 400]);
    await spendUnit(h.storage, h.clock.now, org, true);
    h.storage.sqlite.run("UPDATE quota_windows SET used = quota_limit WHERE org_id = ?", [org.id]);
    const spent = await work(JSON.stringify({ standard: "xrechnung", action: "ok" }));
    expect((await envelope(spent)).error.code).toBe("QUOTA_EXCEEDED");
    answers.push(spent);
    answers.forEach((res, i) => expect(rate(res)).toEqual(["100", String(99 - i), "60"]));
  });
});
