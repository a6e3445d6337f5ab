import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { openSqliteStorage, type SqliteStorage } from "../../src/db/sqlite/storage";
import { createOrg, type Organization } from "../../src/accounts/orgs";
import { Metrics } from "../../src/api/metrics";
import { STRICT_WEBHOOK_DESTINATIONS, TRANSMISSION_OFF, type WebhookDestinationPolicy } from "../../src/config";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, startWebhookLoop, WebhookDispatcher } from "../../src/webhooks/dispatcher";
import { createSubscription, redeliver, rotateSecret, ROTATION_OVERLAP_MS } from "../../src/webhooks/subscriptions";
import type { Resolver } from "../../src/webhooks/destination";
import { TestClock } from "../support/harness";
import { LOOPBACK_ALLOWED, queueTransmission, receiver, type Receiver } from "./support";

const HOUR = 3_600_000;

let storage: SqliteStorage;
// Real time: the independent verifier checks the timestamp against its own clock (five minutes either way).
let clock: TestClock;
let org: Organization;
let metrics: Metrics;
const receivers: Receiver[] = [];

const listen = (answers: number[] = [200]) => {
  const r = receiver(answers);
  receivers.push(r);
  return r;
};

const dispatcher = (policy: WebhookDestinationPolicy = LOOPBACK_ALLOWED, resolve?: Resolver) =>
  new WebhookDispatcher(storage, { clock: clock.read, policy, metrics, resolve, random: () => 0.5, timeoutMs: 2_000 });

const subscribe = (url: string, eventTypes?: string[], policy = LOOPBACK_ALLOWED) => createSubscription(storage, clock.read, policy, org.id, { url, eventTypes });

/** Steps until no delivery is due now. */
async function drain(d: WebhookDispatcher): Promise<void> {
  for (let i = 0; i < 10; i++) if ((await d.step()).attempted === 0) return;
}

beforeEach(async () => {
  storage = openSqliteStorage(":memory:");
  clock = new TestClock(new Date());
  metrics = new Metrics();
  org = await createOrg(storage, clock.read, { name: "acme" });
});

afterEach(async () => {
  for (const r of receivers.splice(0)) r.stop();
  await storage.close();
});

describe("webhook dispatcher", () => {
  test("a live event reaches the receiver once, signed so the Standard Webhooks library and the spec's HMAC recipe both accept it", async () => {
    const hooks = listen();
    const { secret } = await subscribe(hooks.url);
    const txn = await queueTransmission(storage, org.id, true, clock.now);
    const d = dispatcher();
    expect(await d.step()).toEqual({ fannedOut: 1, suppressed: 0, attempted: 1 });
    expect(await d.step()).toEqual({ fannedOut: 0, suppressed: 0, attempted: 0 });
    expect(hooks.received).toHaveLength(1);
    const [{ headers, body }] = hooks.received;
    const sent = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((h) => [h, headers.get(h)!]));
    const verified = new Webhook(secret).verify(body, sent) as any;
    expect(verified).toEqual({
      id: `evt_${txn.id.slice(4)}_1`,
      type: "transmission.queued",
      livemode: true,
      createdAt: txn.createdAt,
      data: {
        transmission: {
          id: txn.id,
          status: "queued",
          direction: "outbound",
          network: "peppol",
          counterparty: { scheme: "0088", id: "9876543210987" },
          deadlineAt: null,
          atRisk: false,
          livemode: true,
          createdAt: txn.createdAt,
        },
        event: { seq: 1, hash: txn.headHash },
      },
    });
    // By hand: HMAC-SHA256 keyed with the secret's base64 bytes over id.timestamp.body.
    const key = Buffer.from(secret.slice("whsec_".length), "base64");
    const byHand = createHmac("sha256", key).update(`${sent["webhook-id"]}.${sent["webhook-timestamp"]}.${body}`).digest("base64");
    expect(sent["webhook-signature"]).toBe(`v1,${byHand}`);
    expect(Number(sent["webhook-timestamp"])).toBe(Math.floor(clock.now.getTime() / 1000));
    expect(headers.get("content-type")).toBe("application/json");
    const [delivery] = await storage.webhooks.deliveries((await storage.webhooks.listFor(org.id))[0].id, 10);
    expect(sent["webhook-id"]).toBe(`msg_${delivery.id}`);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200, lastError: null, leaseUntil: null });
    expect(metrics.render()).toContain('service_webhook_deliveries_total{outcome="delivered"} 1');
  });

  test("only the subscribed event types, only the subscription's organization, only events after it was created", async () => {
    await queueTransmission(storage, org.id, true, clock.now);
    const everything = listen();
    const delivered = listen();
    await subscribe(everything.url);
    await subscribe(delivered.url, ["transmission.delivered"]);
    const other = await createOrg(storage, clock.read, { name: "other" });
    await queueTransmission(storage, other.id, true, clock.now);
    const txn = await queueTransmission(storage, org.id, true, clock.now);
    await drain(dispatcher());
    expect(everything.received.map((r) => JSON.parse(r.body).data.transmission.id)).toEqual([txn.id]);
    expect(delivered.received).toEqual([]);
  });

  test("an event whose transaction commits after a later one's is still sent: the cursor waits for rows to settle", async () => {
    const hooks = listen();
    const sub = await subscribe(hooks.url);
    const early = await queueTransmission(storage, org.id, true, clock.now);
    const late = await queueTransmission(storage, org.id, true, clock.now);
    // The earlier id is not visible yet, as when its transaction is still open.
    const hidden = storage.sqlite.query("SELECT * FROM event_outbox WHERE transmission_id = ?").get(early.id) as Record<string, unknown>;
    storage.sqlite.query("DELETE FROM event_outbox WHERE id = ?").run(hidden.id as number);
    const d = dispatcher();
    await d.step();
    storage.sqlite.query("INSERT INTO event_outbox (id, org_id, livemode, transmission_id, seq, type, at, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)").run(
      ...(["id", "org_id", "livemode", "transmission_id", "seq", "type", "at", "hash"].map((c) => hidden[c]) as [number, string, number, string, number, string, string, string]),
    );
    await d.step();
    expect(hooks.received.map((r) => JSON.parse(r.body).data.transmission.id)).toEqual([late.id, early.id]);
    clock.advance(11 * 60_000);
    await drain(d);
    expect(hooks.received).toHaveLength(2);
    // Settled now: the cursor is past both.
    const newest = storage.sqlite.query("SELECT max(id) AS id FROM event_outbox").get() as { id: number };
    expect((await storage.webhooks.byId(org.id, sub.id))!.outboxCursor).toBe(newest.id);
  });

  test("a test key's events are recorded as suppressed and never sent", async () => {
    const hooks = listen();
    const sub = await subscribe(hooks.url);
    await queueTransmission(storage, org.id, false, clock.now);
    const d = dispatcher();
    expect(await d.step()).toEqual({ fannedOut: 0, suppressed: 1, attempted: 0 });
    clock.advance(HOUR);
    await drain(d);
    expect(hooks.received).toEqual([]);
    const [delivery] = await storage.webhooks.deliveries(sub.id, 10);
    expect(delivery).toMatchObject({ status: "suppressed", attempts: 0, nextAttemptAt: null });
    await expect(redeliver(storage, clock.read, org.id, sub.id, String(delivery.id))).rejects.toThrow("test keys receive no webhooks");
    expect(metrics.render()).toContain('service_webhook_deliveries_total{outcome="suppressed"} 1');
  });

  test("500 then 200: retried on the schedule and delivered, every attempt counted", async () => {
    const hooks = listen([500, 503, 200]);
    const sub = await subscribe(hooks.url);
    await queueTransmission(storage, org.id, true, clock.now);
    const d = dispatcher();
    await d.step();
    const [first] = await storage.webhooks.deliveries(sub.id, 1);
    expect(first).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500, lastError: "answered 500" });
    // Not before its wait (jitter drawn at the middle: exactly the schedule's wait).
    expect(first.nextAttemptAt).toBe(new Date(clock.now.getTime() + RETRY_DELAYS_MS[0]).toISOString());
    expect((await d.step()).attempted).toBe(0);
    clock.advance(RETRY_DELAYS_MS[0]);
    await d.step();
    clock.advance(RETRY_DELAYS_MS[1]);
    await d.step();
    expect(hooks.received).toHaveLength(3);
    // One message to the receiver: every attempt carries the same webhook-id.
    expect(new Set(hooks.received.map((r) => r.headers.get("webhook-id"))).size).toBe(1);
    expect((await storage.webhooks.deliveries(sub.id, 1))[0]).toMatchObject({ status: "delivered", attempts: 3, lastStatusCode: 200 });
    expect((await storage.webhooks.byId(org.id, sub.id))!.consecutiveFailures).toBe(0);
    expect(metrics.render()).toContain('service_webhook_deliveries_total{outcome="retrying"} 2');
  });

  test("410 Gone disables the subscription at once; nothing more is sent until it is enabled", async () => {
    const hooks = listen([410]);
    const sub = await subscribe(hooks.url);
    await queueTransmission(storage, org.id, true, clock.now);
    const d = dispatcher();
    await d.step();
    expect(await storage.webhooks.byId(org.id, sub.id)).toMatchObject({ status: "disabled", disabledReason: "the endpoint answered 410 Gone" });
    expect((await storage.webhooks.deliveries(sub.id, 1))[0]).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: 410 });
    await queueTransmission(storage, org.id, true, clock.now);
    clock.advance(HOUR);
    await drain(d);
    expect(hooks.received).toHaveLength(1);
  });

  test("sustained failure: a delivery fails its whole schedule, over more than a day, and the subscription is disabled; a manual redelivery sends it again", async () => {
    const hooks = listen([500]);
    const sub = await subscribe(hooks.url);
    await queueTransmission(storage, org.id, true, clock.now);
    const started = clock.now.getTime();
    const d = dispatcher();
    await d.step();
    for (const wait of RETRY_DELAYS_MS) {
      clock.advance(wait);
      await d.step();
    }
    expect(hooks.received).toHaveLength(MAX_ATTEMPTS);
    expect(clock.now.getTime() - started).toBeGreaterThan(24 * HOUR);
    const [delivery] = await storage.webhooks.deliveries(sub.id, 1);
    expect(delivery).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, nextAttemptAt: null, lastStatusCode: 500 });
    expect(await storage.webhooks.byId(org.id, sub.id)).toMatchObject({ status: "disabled", consecutiveFailures: MAX_ATTEMPTS });
    expect(metrics.render()).toContain('service_webhook_deliveries_total{outcome="failed"} 1');

    // The receiver is fixed; the operator enables the subscription and asks for the event again.
    hooks.answers = [200];
    await storage.webhooks.enable(org.id, sub.id);
    expect(await redeliver(storage, clock.read, org.id, sub.id, String(delivery.id))).toMatchObject({ status: "pending", attempts: MAX_ATTEMPTS });
    await d.step();
    expect(hooks.received).toHaveLength(MAX_ATTEMPTS + 1);
    expect((await storage.webhooks.deliveries(sub.id, 1))[0]).toMatchObject({ status: "delivered", attempts: MAX_ATTEMPTS + 1, lastStatusCode: 200 });
  });

  test("a rotated secret: both signatures during the overlap, each verifying on its own; the new one alone after it", async () => {
    const hooks = listen();
    const created = await subscribe(hooks.url);
    const rotated = await rotateSecret(storage, clock.read, org.id, created.id);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.previousSecretRetiresAt).toBe(new Date(clock.now.getTime() + ROTATION_OVERLAP_MS).toISOString());
    await queueTransmission(storage, org.id, true, clock.now);
    await drain(dispatcher());
    const first = hooks.received[0];
    const headers = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((h) => [h, first.headers.get(h)!]));
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new Webhook(rotated.secret).verify(first.body, headers)).toBeTruthy();
    expect(new Webhook(created.secret).verify(first.body, headers)).toBeTruthy();

    clock.advance(ROTATION_OVERLAP_MS + 1);
    await queueTransmission(storage, org.id, true, clock.now);
    await drain(dispatcher());
    const later = hooks.received[1];
    const signature = later.headers.get("webhook-signature")!;
    expect(signature.split(" ")).toHaveLength(1);
    const key = Buffer.from(rotated.secret.slice("whsec_".length), "base64");
    const byHand = createHmac("sha256", key).update(`${later.headers.get("webhook-id")}.${later.headers.get("webhook-timestamp")}.${later.body}`).digest("base64");
    expect(signature).toBe(`v1,${byHand}`);
  });

  test("SSRF at send time: a name that now resolves to loopback is refused without the operator's exception, and nothing is sent", async () => {
    const hooks = listen();
    const port = new URL(hooks.url).port;
    const sub = await subscribe(`https://rebinding.example:${port}/hooks`, undefined, STRICT_WEBHOOK_DESTINATIONS);
    await queueTransmission(storage, org.id, true, clock.now);
    await dispatcher(STRICT_WEBHOOK_DESTINATIONS, async () => [{ address: "127.0.0.1", family: 4 }]).step();
    expect(hooks.received).toEqual([]);
    const [delivery] = await storage.webhooks.deliveries(sub.id, 1);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
    expect(delivery.lastError).toBe("destination refused: rebinding.example resolves to 127.0.0.1, loopback; the operator allows it with WEBHOOK_ALLOWED_HOSTS or WEBHOOK_ALLOW_PRIVATE");
  });

  test("a subscription deleted takes its deliveries with it", async () => {
    const hooks = listen([500]);
    const sub = await subscribe(hooks.url);
    await queueTransmission(storage, org.id, true, clock.now);
    const d = dispatcher();
    await d.step();
    expect(await storage.webhooks.delete(org.id, sub.id)).toBe(true);
    clock.advance(HOUR);
    await drain(d);
    expect(hooks.received).toHaveLength(1);
    expect(await storage.webhooks.deliveries(sub.id, 10)).toEqual([]);
  });

  test("serve's loop: runs while transmission is on and sends without being stepped; stopping waits for the step under way", async () => {
    expect(startWebhookLoop(storage, clock.read, TRANSMISSION_OFF, metrics)).toBeNull();
    const hooks = listen();
    await subscribe(hooks.url);
    const loop = startWebhookLoop(storage, clock.read, { provider: "sandbox", networks: ["peppol"], retentionDays: 90, webhooks: LOOPBACK_ALLOWED }, metrics)!;
    try {
      await queueTransmission(storage, org.id, true, clock.now);
      for (let waited = 0; hooks.received.length === 0 && waited < 5_000; waited += 20) await Bun.sleep(20);
      expect(hooks.received).toHaveLength(1);
    } finally {
      await loop.stop();
    }
  });
});
