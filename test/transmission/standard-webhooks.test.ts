import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { newSecret, sign, TOLERANCE_SECONDS, verify } from "../../src/transmission/standard-webhooks.ts";

// A fixed vector: a 32-byte key of 0x01..0x20; the literal signature below was computed apart with
// Python's hmac module, so node:crypto and our code are both checked against a third implementation.
const KEY = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1));
const SECRET = `whsec_${KEY.toString("base64")}`;
const MESSAGE = { id: "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W", timestamp: 1674087231, body: '{"type":"transmission.delivered","livemode":true,"data":{"id":"txn_1"}}' };
const NOW = MESSAGE.timestamp + 10;

describe("Standard Webhooks", () => {
  test("the signature is the spec's recipe: HMAC-SHA256 of id.timestamp.body, base64, as v1", () => {
    const byHand = createHmac("sha256", KEY).update(`${MESSAGE.id}.${MESSAGE.timestamp}.${MESSAGE.body}`).digest("base64");
    expect(sign([SECRET], MESSAGE)).toEqual({
      "webhook-id": MESSAGE.id,
      "webhook-timestamp": "1674087231",
      "webhook-signature": `v1,${byHand}`,
    });
    expect(byHand).toBe("DalD16LlIh7r9dyiJ8MCqFv8XuOUqjnlcfO1s4WH268=");
  });

  test("a body given as bytes signs as its string does", () => {
    expect(sign([SECRET], { ...MESSAGE, body: new TextEncoder().encode(MESSAGE.body) })).toEqual(sign([SECRET], MESSAGE));
  });

  test("round trip, with headers as a record in any case or as Headers", () => {
    const headers = sign([SECRET], MESSAGE);
    expect(verify([SECRET], headers, MESSAGE.body, NOW)).toEqual({ ok: true });
    const shouted = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verify([SECRET], shouted, MESSAGE.body, NOW)).toEqual({ ok: true });
    expect(verify([SECRET], new Headers(headers), new TextEncoder().encode(MESSAGE.body), NOW)).toEqual({ ok: true });
  });

  test("the official library verifies ours, and we verify its", () => {
    const secret = newSecret();
    const now = Math.floor(Date.now() / 1000);
    const ours = sign([secret], { ...MESSAGE, timestamp: now });
    expect(new Webhook(secret).verify(MESSAGE.body, { ...ours })).toEqual(JSON.parse(MESSAGE.body));
    const theirs = {
      "webhook-id": MESSAGE.id,
      "webhook-timestamp": String(now),
      "webhook-signature": new Webhook(secret).sign(MESSAGE.id, new Date(now * 1000), MESSAGE.body),
    };
    expect(theirs["webhook-signature"]).toBe(ours["webhook-signature"]);
    expect(verify([secret], theirs, MESSAGE.body, now)).toEqual({ ok: true });
    expect(new Webhook(SECRET).sign(MESSAGE.id, new Date(MESSAGE.timestamp * 1000), MESSAGE.body)).toBe(sign([SECRET], MESSAGE)["webhook-signature"]);
  });

  test("secrets: whsec_ and 32 random bytes, each new one different; malformed ones refused when used", () => {
    const a = newSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), "base64").length).toBe(32);
    expect(newSecret()).not.toBe(a);
    for (const bad of [KEY.toString("base64"), "whsec_", `whsec_${Buffer.alloc(16).toString("base64")}`, `whsec_${Buffer.alloc(65).toString("base64")}`, "whsec_!!!!"]) {
      expect(() => sign([bad], MESSAGE)).toThrow("a webhook secret is");
    }
    expect(() => sign([], MESSAGE)).toThrow("at least one secret");
  });

  test("ids that would make the signed content ambiguous, and timestamps that are not seconds, are not signed", () => {
    expect(() => sign([SECRET], { ...MESSAGE, id: "msg.1" })).toThrow("is not a printable id");
    expect(() => sign([SECRET], { ...MESSAGE, id: "" })).toThrow("is not a printable id");
    expect(() => sign([SECRET], { ...MESSAGE, timestamp: 1.5 })).toThrow("is not Unix seconds");
  });

  test("outside five minutes either way: expired, distinct from invalid; the edges are inside", () => {
    const headers = sign([SECRET], MESSAGE);
    expect(verify([SECRET], headers, MESSAGE.body, MESSAGE.timestamp + TOLERANCE_SECONDS)).toEqual({ ok: true });
    expect(verify([SECRET], headers, MESSAGE.body, MESSAGE.timestamp - TOLERANCE_SECONDS)).toEqual({ ok: true });
    expect(verify([SECRET], headers, MESSAGE.body, MESSAGE.timestamp + TOLERANCE_SECONDS + 1)).toEqual({ ok: false, reason: "expired" });
    expect(verify([SECRET], headers, MESSAGE.body, MESSAGE.timestamp - TOLERANCE_SECONDS - 1)).toEqual({ ok: false, reason: "expired" });
  });

  test("a forged signature outside the window is invalid, not expired: expired tells nothing to a forger", () => {
    const forged = sign([newSecret()], MESSAGE);
    expect(verify([SECRET], forged, MESSAGE.body, MESSAGE.timestamp + 3600)).toEqual({ ok: false, reason: "invalid" });
  });

  test("a wrong secret, another body, id or timestamp: invalid", () => {
    const headers = sign([SECRET], MESSAGE);
    expect(verify([newSecret()], headers, MESSAGE.body, NOW)).toEqual({ ok: false, reason: "invalid" });
    expect(verify([SECRET], headers, `${MESSAGE.body} `, NOW)).toEqual({ ok: false, reason: "invalid" });
    expect(verify([SECRET], { ...headers, "webhook-id": "msg_other" }, MESSAGE.body, NOW)).toEqual({ ok: false, reason: "invalid" });
    expect(verify([SECRET], { ...headers, "webhook-timestamp": String(MESSAGE.timestamp + 1) }, MESSAGE.body, NOW)).toEqual({ ok: false, reason: "invalid" });
    expect(verify([], headers, MESSAGE.body, NOW)).toEqual({ ok: false, reason: "invalid" });
  });

  test("rotation: signed with two secrets, either secret alone verifies; a receiver holding both accepts either signature", () => {
    const [current, previous] = [newSecret(), SECRET];
    const both = sign([current, previous], MESSAGE);
    expect(both["webhook-signature"].split(" ")).toHaveLength(2);
    expect(verify([current], both, MESSAGE.body, NOW)).toEqual({ ok: true });
    expect(verify([previous], both, MESSAGE.body, NOW)).toEqual({ ok: true });
    expect(verify([newSecret(), previous], sign([previous], MESSAGE), MESSAGE.body, NOW)).toEqual({ ok: true });
    expect(new Webhook(previous).sign(MESSAGE.id, new Date(MESSAGE.timestamp * 1000), MESSAGE.body)).toBe(both["webhook-signature"].split(" ")[1]);
  });

  test("other schemes beside v1 are skipped, not fatal", () => {
    const headers = sign([SECRET], MESSAGE);
    const v1a = `v1a,${Buffer.alloc(64, 7).toString("base64")}`;
    expect(verify([SECRET], { ...headers, "webhook-signature": `${v1a} ${headers["webhook-signature"]}` }, MESSAGE.body, NOW)).toEqual({ ok: true });
  });

  test("missing headers: missing", () => {
    const headers = sign([SECRET], MESSAGE);
    for (const name of Object.keys(headers)) {
      const without = { ...headers, [name]: undefined };
      expect(verify([SECRET], without, MESSAGE.body, NOW)).toEqual({ ok: false, reason: "missing" });
      expect(verify([SECRET], { ...headers, [name]: "" }, MESSAGE.body, NOW)).toEqual({ ok: false, reason: "missing" });
    }
  });

  test("malformed headers: invalid", () => {
    const headers = sign([SECRET], MESSAGE);
    const good = headers["webhook-signature"];
    const sig = good.slice(3);
    const malformed: Record<string, Partial<Record<keyof typeof headers, string>>> = {
      "no version": { "webhook-signature": sig },
      "another version only": { "webhook-signature": `v2,${sig}` },
      "v1= instead of v1,": { "webhook-signature": `v1=${sig}` },
      "bad base64": { "webhook-signature": `v1,${sig.slice(0, 40)}!!!=` },
      "short signature": { "webhook-signature": `v1,${sig.slice(0, 20)}` },
      "trailing part": { "webhook-signature": `${good},x` },
      "signature in lower case": { "webhook-signature": `v1,${sig.toLowerCase()}` },
      "timestamp with a fraction": { "webhook-timestamp": "1674087231.0" },
      "timestamp padded": { "webhook-timestamp": "01674087231" },
      "timestamp negative": { "webhook-timestamp": "-1674087231" },
      "id with a dot": { "webhook-id": "msg.1" },
      "id with a space": { "webhook-id": "msg 1" },
    };
    for (const [name, change] of Object.entries(malformed)) {
      expect({ name, outcome: verify([SECRET], { ...headers, ...change }, MESSAGE.body, NOW) }).toEqual({ name, outcome: { ok: false, reason: "invalid" } });
    }
  });

  test("10,000 signatures or a 1 MB header: invalid, without the work", () => {
    const headers = sign([SECRET], MESSAGE);
    const many = Array.from({ length: 10_000 }, () => headers["webhook-signature"]).join(" ");
    const huge = `v1,${"A".repeat(1 << 20)}`;
    const hugeId = "m".repeat(1 << 20);
    const started = performance.now();
    for (let i = 0; i < 100; i++) {
      expect(verify([SECRET], { ...headers, "webhook-signature": many }, MESSAGE.body, NOW)).toEqual({ ok: false, reason: "invalid" });
      expect(verify([SECRET], { ...headers, "webhook-signature": huge }, MESSAGE.body, NOW)).toEqual({ ok: false, reason: "invalid" });
      expect(verify([SECRET], { ...headers, "webhook-id": hugeId }, MESSAGE.body, NOW)).toEqual({ ok: false, reason: "invalid" });
    }
    expect(performance.now() - started).toBeLessThan(500);
    // a few signatures beside the genuine one still verify
    const rotated = [headers["webhook-signature"], ...Array.from({ length: 3 }, () => sign([newSecret()], MESSAGE)["webhook-signature"])];
    expect(verify([SECRET], { ...headers, "webhook-signature": rotated.reverse().join(" ") }, MESSAGE.body, NOW)).toEqual({ ok: true });
  });
});
