// Webhook subscriptions and deliveries in PostgreSQL, where several instances share the tables:
// the subscription cap holds under the organization's row lock, a fan-out under the
// subscription's, and claims skip rows another instance is claiming (SKIP LOCKED).

import { and, asc, count, desc, eq, gt, inArray, isNull, lte, max, ne, notExists, or, sql } from "drizzle-orm";
import type { Db } from "./accounts";
import { eventOutbox, organizations, webhookDeliveries, webhookSubscriptions } from "./schema";
import type { ClaimedDelivery, WebhookDeliveryRow, WebhookRepository, WebhookSubscriptionRow } from "../storage";

type StoredSubscription = typeof webhookSubscriptions.$inferSelect;

const subscription = (row: StoredSubscription): WebhookSubscriptionRow => ({
  ...row,
  eventTypes: JSON.parse(row.eventTypes),
  secrets: JSON.parse(row.secrets),
  status: row.status as WebhookSubscriptionRow["status"],
});

const delivery = (row: typeof webhookDeliveries.$inferSelect): WebhookDeliveryRow => ({ ...row, status: row.status as WebhookDeliveryRow["status"] });

const theSubscription = (orgId: string, id: string) => and(eq(webhookSubscriptions.orgId, orgId), eq(webhookSubscriptions.id, id));

export function webhookRepository(db: Db): WebhookRepository {
  return {
    insert(row, cap) {
      return db.transaction(async (tx) => {
        // Two creations for one organization count one after the other.
        await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, row.orgId)).for("update");
        const [{ n }] = await tx.select({ n: count() }).from(webhookSubscriptions).where(eq(webhookSubscriptions.orgId, row.orgId));
        if (n >= cap) return false;
        const [{ id: newest }] = await tx.select({ id: max(eventOutbox.id) }).from(eventOutbox);
        await tx.insert(webhookSubscriptions).values({ ...row, eventTypes: JSON.stringify(row.eventTypes), secrets: JSON.stringify(row.secrets), outboxCursor: newest ?? 0 });
        return true;
      });
    },
    async byId(orgId, id) {
      const [row] = await db.select().from(webhookSubscriptions).where(theSubscription(orgId, id));
      return row && subscription(row);
    },
    async listFor(orgId) {
      return (await db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.orgId, orgId)).orderBy(asc(webhookSubscriptions.createdAt), asc(webhookSubscriptions.id))).map(subscription);
    },
    delete(orgId, id) {
      return db.transaction(async (tx) => {
        const [found] = await tx.select({ id: webhookSubscriptions.id }).from(webhookSubscriptions).where(theSubscription(orgId, id)).for("update");
        if (!found) return false;
        await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, id));
        await tx.delete(webhookSubscriptions).where(eq(webhookSubscriptions.id, id));
        return true;
      });
    },
    async setSecrets(orgId, id, secrets) {
      return (await db.update(webhookSubscriptions).set({ secrets: JSON.stringify(secrets) }).where(theSubscription(orgId, id)).returning({ id: webhookSubscriptions.id })).length === 1;
    },
    async enable(orgId, id) {
      const updated = await db
        .update(webhookSubscriptions)
        .set({ status: "active", disabledReason: null, consecutiveFailures: 0 })
        .where(theSubscription(orgId, id))
        .returning({ id: webhookSubscriptions.id });
      return updated.length === 1;
    },
    async active() {
      return (await db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.status, "active"))).map(subscription);
    },
    fanOut(subscriptionId, limit, at, settledBefore) {
      return db.transaction(async (tx) => {
        // A concurrent fan-out of this subscription waits here, then reads the cursor this one left.
        const [found] = await tx.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, subscriptionId)).for("update");
        const counts = { pending: 0, suppressed: 0 };
        if (!found || found.status !== "active") return counts;
        const sub = subscription(found);
        const after = and(eq(eventOutbox.orgId, sub.orgId), gt(eventOutbox.id, sub.outboxCursor));
        const rows = await tx
          .select()
          .from(eventOutbox)
          .where(
            and(
              after,
              inArray(eventOutbox.type, sub.eventTypes),
              notExists(tx.select({ one: sql`1` }).from(webhookDeliveries).where(and(eq(webhookDeliveries.subscriptionId, sub.id), eq(webhookDeliveries.outboxId, eventOutbox.id)))),
            ),
          )
          .orderBy(asc(eventOutbox.id))
          .limit(limit);
        for (const row of rows) {
          const inserted = await tx
            .insert(webhookDeliveries)
            .values({ subscriptionId: sub.id, outboxId: row.id, status: row.livemode ? "pending" : "suppressed", nextAttemptAt: row.livemode ? at : null, createdAt: at, updatedAt: at })
            .onConflictDoNothing()
            .returning({ id: webhookDeliveries.id });
          if (inserted.length) counts[row.livemode ? "pending" : "suppressed"]++;
        }
        // Past every settled row, but never past one not fanned out yet (when `limit` cut the page short).
        const [{ id: settled }] = await tx
          .select({ id: max(eventOutbox.id) })
          .from(eventOutbox)
          .where(and(after, lte(eventOutbox.at, settledBefore), ...(rows.length === limit ? [lte(eventOutbox.id, rows[rows.length - 1].id)] : [])));
        if (settled) await tx.update(webhookSubscriptions).set({ outboxCursor: settled }).where(eq(webhookSubscriptions.id, sub.id));
        return counts;
      });
    },
    async claimDue(now, leaseUntil, limit) {
      // SKIP LOCKED: instances claiming at once each take other rows instead of waiting for each other's.
      const due = db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.status, "pending"),
            lte(webhookDeliveries.nextAttemptAt, now),
            or(isNull(webhookDeliveries.leaseUntil), lte(webhookDeliveries.leaseUntil, now)),
            inArray(webhookDeliveries.subscriptionId, db.select({ id: webhookSubscriptions.id }).from(webhookSubscriptions).where(eq(webhookSubscriptions.status, "active"))),
          ),
        )
        .orderBy(asc(webhookDeliveries.nextAttemptAt))
        .limit(limit)
        .for("update", { skipLocked: true });
      const claimed = (
        await db
          .update(webhookDeliveries)
          .set({ leaseUntil, attempts: sql`${webhookDeliveries.attempts} + 1`, updatedAt: now })
          .where(inArray(webhookDeliveries.id, due))
          .returning()
      ).map(delivery);
      return withContext(db, claimed);
    },
    settle(claimed, outcome) {
      return db.transaction(async (tx) => {
        const recorded = await tx
          .update(webhookDeliveries)
          .set({ status: outcome.status, nextAttemptAt: outcome.nextAttemptAt, leaseUntil: null, lastStatusCode: outcome.lastStatusCode, lastError: outcome.lastError, updatedAt: outcome.at })
          .where(and(eq(webhookDeliveries.id, claimed.id), eq(webhookDeliveries.status, "pending"), eq(webhookDeliveries.leaseUntil, claimed.leaseUntil!)))
          .returning({ id: webhookDeliveries.id });
        if (!recorded.length) return false;
        const failures = outcome.status === "delivered" ? 0 : sql`${webhookSubscriptions.consecutiveFailures} + 1`;
        await tx
          .update(webhookSubscriptions)
          .set({ consecutiveFailures: failures, ...(outcome.disable !== undefined && { status: "disabled", disabledReason: outcome.disable }) })
          .where(eq(webhookSubscriptions.id, claimed.subscriptionId));
        return true;
      });
    },
    async deliveries(subscriptionId, limit) {
      return (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, subscriptionId)).orderBy(desc(webhookDeliveries.id)).limit(limit)).map(delivery);
    },
    async delivery(subscriptionId, deliveryId) {
      const [row] = await db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.subscriptionId, subscriptionId), eq(webhookDeliveries.id, deliveryId)));
      return row && delivery(row);
    },
    async redeliver(subscriptionId, deliveryId, at) {
      const [row] = await db
        .update(webhookDeliveries)
        .set({ status: "pending", nextAttemptAt: at, updatedAt: at })
        .where(
          and(
            eq(webhookDeliveries.subscriptionId, subscriptionId),
            eq(webhookDeliveries.id, deliveryId),
            ne(webhookDeliveries.status, "suppressed"),
            or(isNull(webhookDeliveries.leaseUntil), lte(webhookDeliveries.leaseUntil, at)),
          ),
        )
        .returning();
      return row && delivery(row);
    },
  };
}

/** The subscription and outbox row of each claimed delivery. */
async function withContext(db: Db, claimed: WebhookDeliveryRow[]): Promise<ClaimedDelivery[]> {
  if (!claimed.length) return [];
  const subs = new Map(
    (await db
      .select()
      .from(webhookSubscriptions)
      .where(inArray(webhookSubscriptions.id, [...new Set(claimed.map((d) => d.subscriptionId))]))).map((row) => [row.id, subscription(row)]),
  );
  const events = new Map((await db.select().from(eventOutbox).where(inArray(eventOutbox.id, claimed.map((d) => d.outboxId)))).map((row) => [row.id, row]));
  // A subscription deleted since the claim took its deliveries with it: nothing to send.
  return claimed.flatMap((d) => {
    const subscription = subs.get(d.subscriptionId);
    const event = events.get(d.outboxId);
    return subscription && event ? [{ delivery: d, subscription, event }] : [];
  });
}
