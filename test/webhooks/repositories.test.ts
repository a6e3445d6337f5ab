// The webhook repository's contract (src/db/storage.ts, WebhookRepository) on both adapters.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Storage, WebhookSubscriptionRow } from "../../src/db/storage";
import { createOrg } from "../../src/accounts/orgs";
import { storages } from "../support/storages";
import { cannotRun } from "../support/requirements";
import { queueTransmission } from "./support";

const AT = "2026-11-22T12:00:00.000Z";
const LATER = "2026-11-22T12:00:30.000Z";
const LEASE = "2026-11-22T12:01:00.000Z";

const subscriptionRow = (orgId: string, id: string): Omit<WebhookSubscriptionRow, "outboxCursor"> => ({
  id,
  orgId,
  url: "https://hooks.example.com/in",
  eventTypes: ["transmission.queued"],
  secrets: [{ secret: "whsec_current", retiresAt: null }],
  status: "active",
  disabledReason: null,
  consecutiveFailures: 0,
  createdAt: AT,
});

for (const adapter of storages) {
  describe.skipIf(cannotRun(`the ${adapter.name} webhook repository`, adapter.missing))(`${adapter.name} webhook repository`, () => {
    let storage: Storage;
    let orgId = "";
    let otherId = "";
    beforeEach(async () => {
      storage = await adapter.open();
      const clock = () => new Date(AT);
      orgId = (await createOrg(storage, clock, { name: "acme" })).id;
      otherId = (await createOrg(storage, clock, { name: "other" })).id;
    });
    afterEach(() => storage.close());

    test("the cap holds under concurrent inserts; another organization's id is not found", async () => {
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => storage.webhooks.insert(subscriptionRow(orgId, `wh_${i}`), 5)));
      expect(outcomes.filter(Boolean)).toHaveLength(5);
      expect(await storage.webhooks.listFor(orgId)).toHaveLength(5);
      const [first] = await storage.webhooks.listFor(orgId);
      expect(first).toMatchObject({ orgId, eventTypes: ["transmission.queued"], secrets: [{ secret: "whsec_current", retiresAt: null }], status: "active" });
      expect(await storage.webhooks.byId(otherId, first.id)).toBeUndefined();
      expect(await storage.webhooks.setSecrets(otherId, first.id, [])).toBe(false);
      expect(await storage.webhooks.enable(otherId, first.id)).toBe(false);
      expect(await storage.webhooks.delete(otherId, first.id)).toBe(false);
      const secrets = [
        { secret: "whsec_new", retiresAt: null },
        { secret: "whsec_current", retiresAt: LEASE },
      ];
      expect(await storage.webhooks.setSecrets(orgId, first.id, secrets)).toBe(true);
      expect((await storage.webhooks.byId(orgId, first.id))!.secrets).toEqual(secrets);
    });

    test("fan-out, claim under a lease, a lost lease records nothing, failures count and disable, enable, redeliver, delete", async () => {
      expect(await storage.webhooks.insert(subscriptionRow(orgId, "wh_a"), 10)).toBe(true);
      await queueTransmission(storage, orgId, true, new Date(AT));
      await queueTransmission(storage, orgId, false, new Date(AT));
      await queueTransmission(storage, otherId, true, new Date(AT));
      expect(await storage.webhooks.fanOut("wh_a", 100, AT, AT)).toEqual({ pending: 1, suppressed: 1 });
      expect(await storage.webhooks.fanOut("wh_a", 100, AT, AT)).toEqual({ pending: 0, suppressed: 0 });

      const [claimed] = await storage.webhooks.claimDue(AT, LEASE, 10);
      expect(claimed.delivery).toMatchObject({ status: "pending", attempts: 1, leaseUntil: LEASE });
      expect(claimed.subscription.id).toBe("wh_a");
      expect(claimed.event).toMatchObject({ orgId, livemode: true, type: "transmission.queued", seq: 1 });
      expect(await storage.webhooks.claimDue(AT, LEASE, 10)).toEqual([]);
      // In flight: not redelivered.
      expect(await storage.webhooks.redeliver("wh_a", claimed.delivery.id, AT)).toBeUndefined();

      const failed = { status: "pending" as const, nextAttemptAt: LATER, lastStatusCode: 500, lastError: "answered 500", at: AT };
      expect(await storage.webhooks.settle({ ...claimed.delivery, leaseUntil: "2026-11-22T11:00:00.000Z" }, failed)).toBe(false);
      expect(await storage.webhooks.settle(claimed.delivery, failed)).toBe(true);
      expect(await storage.webhooks.settle(claimed.delivery, failed)).toBe(false);
      expect((await storage.webhooks.byId(orgId, "wh_a"))!.consecutiveFailures).toBe(1);

      const [again] = await storage.webhooks.claimDue(LATER, LEASE, 10);
      expect(again.delivery.attempts).toBe(2);
      expect(await storage.webhooks.settle(again.delivery, { ...failed, status: "failed", nextAttemptAt: null, lastStatusCode: 410, at: LATER, disable: "gone" })).toBe(true);
      expect(await storage.webhooks.byId(orgId, "wh_a")).toMatchObject({ status: "disabled", disabledReason: "gone", consecutiveFailures: 2 });
      expect(await storage.webhooks.active()).toEqual([]);
      expect(await storage.webhooks.fanOut("wh_a", 100, AT, AT)).toEqual({ pending: 0, suppressed: 0 });

      const deliveries = await storage.webhooks.deliveries("wh_a", 10);
      expect(deliveries.map((d) => d.status)).toEqual(["suppressed", "failed"]);
      const suppressed = deliveries[0];
      expect(await storage.webhooks.redeliver("wh_a", suppressed.id, LATER)).toBeUndefined();
      expect(await storage.webhooks.delivery("wh_a", again.delivery.id)).toMatchObject({ status: "failed", lastStatusCode: 410, leaseUntil: null });
      expect(await storage.webhooks.redeliver("wh_b", again.delivery.id, LATER)).toBeUndefined();
      expect(await storage.webhooks.redeliver("wh_a", again.delivery.id, LATER)).toMatchObject({ status: "pending", nextAttemptAt: LATER, attempts: 2 });
      // Disabled: its pending delivery waits.
      expect(await storage.webhooks.claimDue(LEASE, LEASE, 10)).toEqual([]);
      expect(await storage.webhooks.enable(orgId, "wh_a")).toBe(true);
      expect(await storage.webhooks.byId(orgId, "wh_a")).toMatchObject({ status: "active", disabledReason: null, consecutiveFailures: 0 });
      const [third] = await storage.webhooks.claimDue(LEASE, "2026-11-22T12:02:00.000Z", 10);
      expect(third.delivery.attempts).toBe(3);
      expect(await storage.webhooks.settle(third.delivery, { status: "delivered", nextAttemptAt: null, lastStatusCode: 200, lastError: null, at: LEASE })).toBe(true);

      expect(await storage.webhooks.delete(orgId, "wh_a")).toBe(true);
      expect(await storage.webhooks.deliveries("wh_a", 10)).toEqual([]);
      expect(await storage.webhooks.byId(orgId, "wh_a")).toBeUndefined();
    });
  });
}
