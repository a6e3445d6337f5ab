// Webhook subscriptions and deliveries in SQLite. One process writes the file at a time
// (`immediate` transactions), so each step below is exact without row locks.

import { and, asc, count, desc, eq, gt, inArray, isNull, lte, max, ne, notExists, or, sql } from "drizzle-orm";
import type { Db } from "./connection";
import { eventOutbox, webhookDeliveries, webhookSubscriptions } from "./schema";
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

export function sqliteWebhooks(db: Db): WebhookRepository {
  return {
    async insert(row, cap) {
      return db.transaction(
        () => {
          const held = db.select({ n: count() }).from(webhookSubscriptions).where(eq(webhookSubscriptions.orgId, row.orgId)).get()!.n;
          if (held >= cap) return false;
          const newest = db.select({ id: max(eventOutbox.id) }).from(eventOutbox).get()?.id ?? 0;
          db.insert(webhookSubscriptions)
            .values({ ...row, eventTypes: JSON.stringify(row.eventTypes), secrets: JSON.stringify(row.secrets), outboxCursor: newest })
            .run();
          return true;
        },
        { behavior: "immediate" },
      );
    },
    async byId(orgId, id) {
      const row = db.select().from(webhookSubscriptions).where(theSubscription(orgId, id)).get();
      return row && subscription(row);
    },
    async listFor(orgId) {
      return db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.orgId, orgId)).orderBy(asc(webhookSubscriptions.createdAt), asc(webhookSubscriptions.id)).all().map(subscription);
    },
    async delete(orgId, id) {
      return db.transaction(
        () => {
          if (!db.select({ id: webhookSubscriptions.id }).from(webhookSubscriptions).where(theSubscription(orgId, id)).get()) return false;
          db.delete(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, id)).run();
          db.delete(webhookSubscriptions).where(eq(webhookSubscriptions.id, id)).run();
          return true;
        },
        { behavior: "immediate" },
      );
    },
    async setSecrets(orgId, id, secrets) {
      return db.update(webhookSubscriptions).set({ secrets: JSON.stringify(secrets) }).where(theSubscription(orgId, id)).returning().get() !== undefined;
    },
    async enable(orgId, id) {
      return (
        db.update(webhookSubscriptions).set({ status: "active", disabledReason: null, consecutiveFailures: 0 }).where(theSubscription(orgId, id)).returning().get() !== undefined
      );
    },
    async active() {
      return db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.status, "active")).all().map(subscription);
    },
    async fanOut(subscriptionId, limit, at, settledBefore) {
      return db.transaction(
        () => {
          const found = db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, subscriptionId)).get();
          const counts = { pending: 0, suppressed: 0 };
          if (!found || found.status !== "active") return counts;
          const sub = subscription(found);
          const after = and(eq(eventOutbox.orgId, sub.orgId), gt(eventOutbox.id, sub.outboxCursor));
          const rows = db
            .select()
            .from(eventOutbox)
            .where(
              and(
                after,
                inArray(eventOutbox.type, sub.eventTypes),
                notExists(db.select({ one: sql`1` }).from(webhookDeliveries).where(and(eq(webhookDeliveries.subscriptionId, sub.id), eq(webhookDeliveries.outboxId, eventOutbox.id)))),
              ),
            )
            .orderBy(asc(eventOutbox.id))
            .limit(limit)
            .all();
          for (const row of rows) {
            const inserted = db
              .insert(webhookDeliveries)
              .values({ subscriptionId: sub.id, outboxId: row.id, status: row.livemode ? "pending" : "suppressed", nextAttemptAt: row.livemode ? at : null, createdAt: at, updatedAt: at })
              .onConflictDoNothing()
              .returning({ id: webhookDeliveries.id })
              .get();
            if (inserted) counts[row.livemode ? "pending" : "suppressed"]++;
          }
          // Past every settled row, but never past one not fanned out yet (when `limit` cut the page short).
          const settled = db
            .select({ id: max(eventOutbox.id) })
            .from(eventOutbox)
            .where(and(after, lte(eventOutbox.at, settledBefore), ...(rows.length === limit ? [lte(eventOutbox.id, rows[rows.length - 1].id)] : [])))
            .get()?.id;
          if (settled) db.update(webhookSubscriptions).set({ outboxCursor: settled }).where(eq(webhookSubscriptions.id, sub.id)).run();
          return counts;
        },
        { behavior: "immediate" },
      );
    },
    async claimDue(now, leaseUntil, limit) {
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
        .limit(limit);
      const claimed = db
        .update(webhookDeliveries)
        .set({ leaseUntil, attempts: sql`${webhookDeliveries.attempts} + 1`, updatedAt: now })
        .where(inArray(webhookDeliveries.id, due))
        .returning()
        .all()
        .map(delivery);
      return withContext(db, claimed);
    },
    async settle(claimed, outcome) {
      return db.transaction(
        () => {
          const recorded = db
            .update(webhookDeliveries)
            .set({ status: outcome.status, nextAttemptAt: outcome.nextAttemptAt, leaseUntil: null, lastStatusCode: outcome.lastStatusCode, lastError: outcome.lastError, updatedAt: outcome.at })
            .where(and(eq(webhookDeliveries.id, claimed.id), eq(webhookDeliveries.status, "pending"), eq(webhookDeliveries.leaseUntil, claimed.leaseUntil!)))
            .returning()
            .get();
          if (!recorded) return false;
          const failures = outcome.status === "delivered" ? 0 : sql`${webhookSubscriptions.consecutiveFailures} + 1`;
          db.update(webhookSubscriptions)
            .set({ consecutiveFailures: failures, ...(outcome.disable !== undefined && { status: "disabled", disabledReason: outcome.disable }) })
            .where(eq(webhookSubscriptions.id, claimed.subscriptionId))
            .run();
          return true;
        },
        { behavior: "immediate" },
      );
    },
    async deliveries(subscriptionId, limit) {
      return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, subscriptionId)).orderBy(desc(webhookDeliveries.id)).limit(limit).all().map(delivery);
    },
    async delivery(subscriptionId, deliveryId) {
      const row = db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.subscriptionId, subscriptionId), eq(webhookDeliveries.id, deliveryId)))
        .get();
      return row && delivery(row);
    },
    async redeliver(subscriptionId, deliveryId, at) {
      const row = db
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
        .returning()
        .get();
      return row && delivery(row);
    },
  };
}

/** The subscription and outbox row of each claimed delivery. */
function withContext(db: Db, claimed: WebhookDeliveryRow[]): ClaimedDelivery[] {
  if (!claimed.length) return [];
  const subs = new Map(
    db
      .select()
      .from(webhookSubscriptions)
      .where(inArray(webhookSubscriptions.id, [...new Set(claimed.map((d) => d.subscriptionId))]))
      .all()
      .map((row) => [row.id, subscription(row)]),
  );
  const events = new Map(
    db
      .select()
      .from(eventOutbox)
      .where(inArray(eventOutbox.id, claimed.map((d) => d.outboxId)))
      .all()
      .map((row) => [row.id, row]),
  );
  // A subscription deleted since the claim took its deliveries with it: nothing to send.
  return claimed.flatMap((d) => {
    const subscription = subs.get(d.subscriptionId);
    const event = events.get(d.outboxId);
    return subscription && event ? [{ delivery: d, subscription, event }] : [];
  });
}
