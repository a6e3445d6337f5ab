import { afterAll, describe, expect, test } from "bun:test";
import { envelope, startHarness } from "../support/harness";
import { THROTTLE } from "../../src/accounts/abuse-throttle";

const h = startHarness({ config: { anonymousPerMinute: 5 } });
afterAll(() => h.close());

const rate = (res: Response) => ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"].map((n) => res.headers.get(n));

describe("per-minute burst", () => {
  test("the whole allowance may be spent at once; the next request is 429 RATE_LIMITED with Retry-After", async () => {
    const org = h.org("burst", "free");
    const key = h.key(org, "live");
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
    const org = h.org("modes", "free");
    const live = h.key(org, "live");
    const testKey = h.key(org, "test");
    for (let i = 0; i < 10; i++) await h.get("/v1/me", live);
    expect((await h.get("/v1/me", live)).status).toBe(429);
    const first = await h.get("/v1/me", testKey);
    expect(first.status).toBe(200);
    expect(rate(first).slice(0, 2)).toEqual(["30", "29"]);
  });

  test("all keys of an organization share its counter", async () => {
    const org = h.org("shared", "free");
    const a = h.key(org, "live");
    const b = h.key(org, "live");
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
  test("sustained pressure past the burst throttles the whole organization on every route, and pressure extends it", async () => {
    const org = h.org("abuser", "free");
    const live = h.key(org, "live");
    const testKey = h.key(org, "test");
    for (let i = 0; i < 10; i++) expect((await h.get("/v1/me", live)).status).toBe(200);
    // Ten rejections within the minute: a second full allowance sent past the first.
    for (let i = 0; i < 10; i++) expect((await envelope(await h.get("/v1/me", live))).error.code).toBe("RATE_LIMITED");
    const throttled = await h.get("/v1/me", live);
    expect(throttled.status).toBe(429);
    expect((await envelope(throttled)).error.code).toBe("ACCOUNT_THROTTLED");
    expect(Number(throttled.headers.get("retry-after"))).toBe(THROTTLE.windowMs / 1000);
    // The other key mode of the organization is blocked too, and so is an unknown path's sibling route.
    expect((await envelope(await h.get("/v1/me", testKey))).error.code).toBe("ACCOUNT_THROTTLED");
    // Four minutes on, a new request pushes the end out again.
    h.clock.advance(4 * 60_000);
    const extended = await h.get("/v1/me", live);
    expect(Number(extended.headers.get("retry-after"))).toBe(THROTTLE.windowMs / 1000);
    // Quiet for the whole window: free again.
    h.clock.advance(THROTTLE.windowMs + 1000);
    expect((await h.get("/v1/me", live)).status).toBe(200);
  });

  test("429s are counted by subtype in the metrics", async () => {
    const text = await (await fetch(h.base + "/metrics")).text();
    expect(text).toMatch(/service_api_http_429_total\{subtype="rate_limit_hit"\} (\d+)/);
    const count = (s: string) => Number(text.match(new RegExp(`subtype="${s}"\\} (\\d+)`))![1]);
    expect(count("rate_limit_hit")).toBeGreaterThanOrEqual(13);
    expect(count("abuse_throttle_hit")).toBeGreaterThanOrEqual(3);
  });
});
