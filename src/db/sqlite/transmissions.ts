// Participants and transmissions in SQLite.

import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { changeCondition, dueCondition, listCondition, purgeableCondition, rejectedNumberCondition, sameDocumentCondition } from "../transmission-conditions";
import type { Db } from "./connection";
import { eventOutbox, inboxProviders, participants, quotaWindows, transmissionEvents, transmissions } from "./schema";
import type { InboxProviderRepository, ParticipantRepository, TransmissionEventRow, TransmissionRepository, TransmissionRow } from "../storage";

const theParticipant = (orgId: string, scheme: string, identifier: string) =>
  and(eq(participants.orgId, orgId), eq(participants.scheme, scheme), eq(participants.identifier, identifier));

export function sqliteParticipants(db: Db): ParticipantRepository {
  return {
    async upsert(row) {
      db.insert(participants)
        .values(row)
        .onConflictDoUpdate({ target: [participants.orgId, participants.scheme, participants.identifier], set: { country: row.country, confirmed: row.confirmed } })
        .run();
    },
    async find(orgId, scheme, identifier) {
      return db.select().from(participants).where(theParticipant(orgId, scheme, identifier)).get();
    },
    async listFor(orgId) {
      return db.select().from(participants).where(eq(participants.orgId, orgId)).orderBy(asc(participants.scheme), asc(participants.identifier)).all();
    },
    async remove(orgId, scheme, identifier) {
      return db.delete(participants).where(theParticipant(orgId, scheme, identifier)).returning().get() !== undefined;
    },
    async receivers(scheme, identifier) {
      return db
        .select()
        .from(participants)
        .where(and(eq(participants.scheme, scheme), eq(participants.identifier, identifier), eq(participants.confirmed, true)))
        .orderBy(asc(participants.createdAt), asc(participants.orgId))
        .all();
    },
  };
}

const providerOf = (row: typeof inboxProviders.$inferSelect) => ({ ...row, secrets: JSON.parse(row.secrets) as string[] });

export function sqliteInboxProviders(db: Db): InboxProviderRepository {
  return {
    async insert(row) {
      return db.insert(inboxProviders).values({ ...row, secrets: JSON.stringify(row.secrets) }).onConflictDoNothing().returning().get() !== undefined;
    },
    async find(id) {
      const row = db.select().from(inboxProviders).where(eq(inboxProviders.id, id)).get();
      return row && providerOf(row);
    },
    async list() {
      return db.select().from(inboxProviders).orderBy(asc(inboxProviders.id)).all().map(providerOf);
    },
    async setSecrets(id, secrets) {
      return db.update(inboxProviders).set({ secrets: JSON.stringify(secrets) }).where(eq(inboxProviders.id, id)).returning().get() !== undefined;
    },
    async remove(id) {
      return db.delete(inboxProviders).where(eq(inboxProviders.id, id)).returning().get() !== undefined;
    },
  };
}

/** The event, and the webhook outbox row for the ones a webhook may carry, written together. */
function append(db: Db, row: Pick<TransmissionRow, "orgId" | "livemode">, event: TransmissionEventRow): void {
  db.insert(transmissionEvents).values(event).run();
  if (event.type.startsWith("transmission.")) {
    db.insert(eventOutbox)
      .values({ orgId: row.orgId, livemode: row.livemode, transmissionId: event.transmissionId, seq: event.seq, type: event.type, at: event.at, hash: event.hash })
      .run();
  }
}

export function sqliteTransmissions(db: Db): TransmissionRepository {
  const byKey = (orgId: string, livemode: boolean, key: string) =>
    db
      .select()
      .from(transmissions)
      .where(and(eq(transmissions.orgId, orgId), eq(transmissions.livemode, livemode), eq(transmissions.idempotencyKey, key)))
      .get();
  return {
    async create(row, first) {
      return db.transaction(
        () => {
          const inserted = db.insert(transmissions).values(row).onConflictDoNothing().returning({ id: transmissions.id }).get();
          if (!inserted) {
            const existing = row.idempotencyKey === null ? undefined : byKey(row.orgId, row.livemode, row.idempotencyKey);
            // Only the Idempotency-Key can collide: ids are random.
            if (!existing) throw new Error(`transmission ${row.id} was not inserted and holds no Idempotency-Key`);
            return { created: false as const, existing };
          }
          append(db, row, first);
          return { created: true as const };
        },
        { behavior: "immediate" },
      );
    },
    async byId(orgId, id) {
      return db
        .select()
        .from(transmissions)
        .where(and(eq(transmissions.orgId, orgId), eq(transmissions.id, id)))
        .get();
    },
    async byIdempotencyKey(orgId, livemode, key) {
      return byKey(orgId, livemode, key);
    },
    async sameDocument(orgId, livemode, documentSha256, counterparty, settled) {
      return db
        .select()
        .from(transmissions)
        .where(sameDocumentCondition(transmissions, orgId, livemode, documentSha256, counterparty, settled))
        .orderBy(desc(transmissions.createdAt), desc(transmissions.id))
        .get();
    },
    async rejectedNumber(orgId, livemode, network, sender, invoiceNumber) {
      return db
        .select()
        .from(transmissions)
        .where(rejectedNumberCondition(transmissions, orgId, livemode, network, sender, invoiceNumber))
        .get();
    },
    async list(orgId, filters, limit, cursor) {
      return db
        .select()
        .from(transmissions)
        .where(listCondition(transmissions, orgId, filters, cursor))
        .orderBy(desc(transmissions.createdAt), desc(transmissions.id))
        .limit(limit)
        .all();
    },
    async change(id, change) {
      return db.transaction(
        () => {
          const where = changeCondition(transmissions, id, change);
          const current = db.select().from(transmissions).where(where).get();
          if (!current) return undefined;
          const set: Partial<TransmissionRow> = { status: change.to, updatedAt: change.at, ...change.patch };
          if (change.event) {
            const event = change.event({ seq: current.headSeq, hash: current.headHash });
            append(db, current, event);
            Object.assign(set, { headHash: event.hash, headSeq: event.seq });
          }
          if (change.bill) {
            // A delivery cannot be undone, so its unit counts even past the cap (creation refuses once it is reached).
            db.insert(quotaWindows).values({ ...change.bill, used: 0 }).onConflictDoNothing().run();
            db.update(quotaWindows)
              .set({ used: sql`${quotaWindows.used} + 1` })
              .where(and(eq(quotaWindows.orgId, change.bill.orgId), eq(quotaWindows.mode, change.bill.mode), eq(quotaWindows.windowStart, change.bill.windowStart)))
              .run();
          }
          return db.update(transmissions).set(set).where(where).returning().get();
        },
        { behavior: "immediate" },
      );
    },
    async purgeDocuments(before, settled) {
      return db
        .update(transmissions)
        .set({ document: null })
        .where(purgeableCondition(transmissions, before, settled))
        .returning({ id: transmissions.id })
        .all().length;
    },
    claimDue: (owner, now, leaseUntil, limit) => claim("outbound", owner, now, leaseUntil, limit),
    claimDueInbound: (owner, now, leaseUntil, limit) => claim("inbound", owner, now, leaseUntil, limit),
    async events(transmissionId) {
      return db.select().from(transmissionEvents).where(eq(transmissionEvents.transmissionId, transmissionId)).orderBy(asc(transmissionEvents.seq)).all();
    },
  };

  async function claim(direction: "outbound" | "inbound", owner: string, now: string, leaseUntil: string, limit: number) {
    const due = db
      .select({ id: transmissions.id })
      .from(transmissions)
      .where(dueCondition(transmissions, direction, now))
      .orderBy(asc(transmissions.nextAttemptAt))
      .limit(limit);
    return db.update(transmissions).set({ leaseOwner: owner, leaseUntil }).where(inArray(transmissions.id, due)).returning().all();
  }
}
