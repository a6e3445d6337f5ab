// The webhook routes through HTTP: every route, secrets shown once, the organization's boundary,
// the per-organization cap, and 503 while transmission is off.

import { afterAll, describe, expect, test } from "bun:test";
import { envelope, startHarness } from "../support/harness";
import { WebhookDispatcher } from "../../src/webhooks/dispatcher";
import { MAX_SUBSCRIPTIONS_PER_ORG, WEBHOOK_EVENTS } from "../../src/webhooks/subscriptions";
import { LOOPBACK_ALLOWED, queueTransmission, receiver } from "./support";

const SANDBOX = { provider: "sandbox" as const, networks: ["peppol"], retentionDays: 90, webhooks: LOOPBACK_ALLOWED };

describe("webhook routes", () => {
  const h = startHarness({ now: new Date(), config: { transmission: SANDBOX } });
  const hooks = receiver([200]);
  afterAll(() => {
    hooks.stop();
    h.close();
  });
  let key = "";
  let testKey = "";
  let strangerKey = "";
  let orgId = "";

  const call = async (method: string, path: string, body?: unknown, as = key) => {
    const res = await fetch(h.base + path, {
      method,
      headers: { authorization: `Bearer ${as}`, ...(body !== undefined && { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, ...(await envelope(res)) };
  };

  test("setup: an organization with a live and a test key, and a stranger", async () => {
    const org = await h.org("acme", "scale");
    orgId = org.id;
    key = await h.key(org, "live");
    testKey = await h.key(org, "test");
    strangerKey = await h.key(await h.org("stranger", "scale"), "live");
  });

  let id = "";
  let secret = "";

  test("create: the subscription with its whsec_ secret, every event type by default; list and get never show a secret", async () => {
    const created = await call("POST", "/v1/webhooks", { url: hooks.url });
    expect(created.status).toBe(200);
    expect(created.data).toMatchObject({ url: hooks.url, eventTypes: [...WEBHOOK_EVENTS], status: "active", disabledReason: null, consecutiveFailures: 0, previousSecretRetiresAt: null });
    expect(created.data.id).toMatch(/^wh_[0-9a-f]{24}$/);
    expect(created.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    ({ id, secret } = created.data);
    const listed = await call("GET", "/v1/webhooks");
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0].id).toBe(id);
    expect(JSON.stringify(listed.data)).not.toContain("whsec_");
    const one = await call("GET", `/v1/webhooks/${id}`, undefined, testKey);
    expect(one.data.id).toBe(id);
    expect(one.data).not.toHaveProperty("secret");
  });

  test("refused subscriptions: the URL rules and unknown event types, with the field named; nothing stored", async () => {
    const cases: [unknown, string][] = [
      [{ url: "http://hooks.example.com/in" }, "/url"],
      [{ url: "https://user:pw@hooks.example.com/in" }, "/url"],
      [{ url: "https://169.254.169.254/latest" }, "/url"],
      [{ url: "https://[::1]/in" }, "/url"],
      [{ url: "https://x" }, "/url"],
      [{ url: "https://hooks.example.com/in", eventTypes: ["transmission.exploded"] }, "/eventTypes/0"],
      [{ url: "https://hooks.example.com/in", eventTypes: [] }, "/eventTypes"],
      // A secret is never the caller's to choose; an unknown property is reported at the object.
      [{ url: "https://hooks.example.com/in", secret: "whsec_mine" }, ""],
    ];
    for (const [body, path] of cases) {
      const res = await call("POST", "/v1/webhooks", body);
      expect([JSON.stringify(body), res.status, res.error.code]).toEqual([JSON.stringify(body), 400, "VALIDATION_ERROR"]);
      expect(res.error.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    }
    expect((await call("GET", "/v1/webhooks")).data).toHaveLength(1);
  });

  test("deliveries and redelivery: what was sent, with its attempts and last status; sent again on request", async () => {
    await queueTransmission(h.storage, orgId, true, h.clock.now);
    const dispatcher = new WebhookDispatcher(h.storage, { clock: h.clock.read, policy: LOOPBACK_ALLOWED });
    await dispatcher.step();
    expect(hooks.received).toHaveLength(1);
    const listed = await call("GET", `/v1/webhooks/${id}/deliveries`);
    expect(listed.data).toHaveLength(1);
    const [delivery] = listed.data;
    expect(delivery).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200, lastError: null, nextAttemptAt: null });
    const again = await call("POST", `/v1/webhooks/${id}/deliveries/${delivery.id}/redeliver`);
    expect(again.status).toBe(200);
    expect(again.data).toMatchObject({ id: delivery.id, status: "pending", attempts: 1 });
    await dispatcher.step();
    expect(hooks.received).toHaveLength(2);
    expect(hooks.received[1].headers.get("webhook-id")).toBe(hooks.received[0].headers.get("webhook-id"));
    expect((await call("GET", `/v1/webhooks/${id}/deliveries`)).data[0]).toMatchObject({ status: "delivered", attempts: 2 });
    for (const unknown of ["999999", "abc", "0"]) expect((await call("POST", `/v1/webhooks/${id}/deliveries/${unknown}/redeliver`)).status).toBe(404);
  });

  test("rotate: a new secret shown once, the previous one signing for 24 h more", async () => {
    const rotated = await call("POST", `/v1/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.data.secret).toMatch(/^whsec_/);
    expect(rotated.data.secret).not.toBe(secret);
    expect(rotated.data.previousSecretRetiresAt).toBe(new Date(h.clock.now.getTime() + 24 * 3_600_000).toISOString());
    expect((await call("GET", `/v1/webhooks/${id}`)).data).not.toHaveProperty("secret");
  });

  test("enable: active again after an automatic disable", async () => {
    hooks.answers = [410];
    await queueTransmission(h.storage, orgId, true, h.clock.now);
    await new WebhookDispatcher(h.storage, { clock: h.clock.read, policy: LOOPBACK_ALLOWED }).step();
    expect((await call("GET", `/v1/webhooks/${id}`)).data).toMatchObject({ status: "disabled", disabledReason: "the endpoint answered 410 Gone" });
    hooks.answers = [200];
    const enabled = await call("POST", `/v1/webhooks/${id}/enable`);
    expect(enabled.data).toMatchObject({ id, status: "active", disabledReason: null, consecutiveFailures: 0 });
  });

  test("another organization's subscription is not found on every route, exactly like an unknown one", async () => {
    const [delivery] = (await call("GET", `/v1/webhooks/${id}/deliveries`)).data;
    const routes: [string, string][] = [
      ["GET", `/v1/webhooks/${id}`],
      ["DELETE", `/v1/webhooks/${id}`],
      ["POST", `/v1/webhooks/${id}/rotate-secret`],
      ["POST", `/v1/webhooks/${id}/enable`],
      ["GET", `/v1/webhooks/${id}/deliveries`],
      ["POST", `/v1/webhooks/${id}/deliveries/${delivery.id}/redeliver`],
    ];
    for (const [method, path] of routes) {
      const theirs = await call(method, path, undefined, strangerKey);
      const unknown = await call(method, path.replace(id, "wh_000000000000000000000000"));
      expect([method, path, theirs.status, theirs.error.code]).toEqual([method, path, 404, "NOT_FOUND"]);
      expect(unknown.status).toBe(404);
    }
    expect((await call("GET", "/v1/webhooks", undefined, strangerKey)).data).toEqual([]);
    expect((await call("GET", `/v1/webhooks/${id}`)).status).toBe(200);
  });

  test(`at most ${MAX_SUBSCRIPTIONS_PER_ORG} subscriptions per organization`, async () => {
    for (let i = 1; i < MAX_SUBSCRIPTIONS_PER_ORG; i++) expect((await call("POST", "/v1/webhooks", { url: `https://hooks.example.com/${i}` })).status).toBe(200);
    const over = await call("POST", "/v1/webhooks", { url: "https://hooks.example.com/one-more" });
    expect([over.status, over.error.code]).toEqual([422, "VALIDATION_ERROR"]);
    expect(over.error.message).toContain(`at most ${MAX_SUBSCRIPTIONS_PER_ORG}`);
  });

  test("delete: gone, with its deliveries", async () => {
    const deleted = await call("DELETE", `/v1/webhooks/${id}`);
    expect(deleted).toMatchObject({ status: 200, data: { id, deleted: true } });
    expect((await call("GET", `/v1/webhooks/${id}`)).status).toBe(404);
    expect(await h.storage.webhooks.deliveries(id, 10)).toEqual([]);
  });
});

describe("webhook routes with transmission off", () => {
  const h = startHarness();
  afterAll(() => h.close());

  test("every route answers 503 TRANSMISSION_DISABLED", async () => {
    const key = await h.key(await h.org("acme"), "live");
    const routes: [string, string, unknown?][] = [
      ["POST", "/v1/webhooks", { url: "https://hooks.example.com/in" }],
      ["GET", "/v1/webhooks"],
      ["GET", "/v1/webhooks/wh_x"],
      ["DELETE", "/v1/webhooks/wh_x"],
      ["POST", "/v1/webhooks/wh_x/rotate-secret"],
      ["POST", "/v1/webhooks/wh_x/enable"],
      ["GET", "/v1/webhooks/wh_x/deliveries"],
      ["POST", "/v1/webhooks/wh_x/deliveries/1/redeliver"],
    ];
    for (const [method, path, body] of routes) {
      const res = await fetch(h.base + path, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect([method, path, res.status, (await envelope(res)).error.code]).toEqual([method, path, 503, "TRANSMISSION_DISABLED"]);
    }
  });
});
