// Participants and transmissions in PostgreSQL. A transmission and its first event are one
// transaction; the Idempotency-Key's unique index decides which of two concurrent creations wins.

import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { InboxProviderRepository, ParticipantRepository, TransmissionEventRow, TransmissionRepository, TransmissionRow } from "../storage";
import { changeCondition, dueCondition, listCondition, purgeableCondition, rejectedNumberCondition, sameDocumentCondition } from "../transmission-conditions";
import type { Db } from "./accounts";
import { eventOutbox, inboxProviders, participants, quotaWindows, transmissionEvents, transmissions } from "./schema";

const theParticipant = (orgId: string, scheme: string, identifier: string) =>
  and(eq(participants.orgId, orgId), eq(participants.scheme, scheme), eq(participants.identifier, identifier));

export function participantRepository(db: Db): ParticipantRepository {
  return {
    async upsert(row) {
      await db
        .insert(participants)
        .values(row)
        .onConflictDoUpdate({ target: [participants.orgId, participants.scheme, participants.identifier], set: { country: row.country, confirmed: row.confirmed } });
    },
    async find(orgId, scheme, identifier) {
      return (await db.select().from(participants).where(theParticipant(orgId, scheme, identifier)))[0];
    },
    listFor: (orgId) => db.select().from(participants).where(eq(participants.orgId, orgId)).orderBy(asc(participants.scheme), asc(participants.identifier)),
    async remove(orgId, scheme, identifier) {
      return (await db.delete(participants).where(theParticipant(orgId, scheme, identifier)).returning({ orgId: participants.orgId })).length === 1;
    },
    receivers: (scheme, identifier) =>
      db
        .select()
        .from(participants)
        .where(and(eq(participants.scheme, scheme), eq(participants.identifier, identifier), eq(participants.confirmed, true)))
        .orderBy(asc(participants.createdAt), asc(participants.orgId)),
  };
}

const providerOf = (row: typeof inboxProviders.$inferSelect) => ({ ...row, secrets: JSON.parse(row.secrets) as string[] });

export function inboxProviderRepository(db: Db): InboxProviderRepository {
  const theProvider = (id: string) => eq(inboxProviders.id, id);
  return {
    async insert(row) {
      return (await db.insert(inboxProviders).values({ ...row, secrets: JSON.stringify(row.secrets) }).onConflictDoNothing().returning({ id: inboxProviders.id })).length === 1;
    },
    async find(id) {
      const [row] = await db.select().from(inboxProviders).where(theProvider(id));
      return row && providerOf(row);
    },
    async list() {
      return (await db.select().from(inboxProviders).orderBy(asc(inboxProviders.id))).map(providerOf);
    },
    async setSecrets(id, secrets) {
      return (await db.update(inboxProviders).set({ secrets: JSON.stringify(secrets) }).where(theProvider(id)).returning({ id: inboxProviders.id })).length === 1;
    },
    async remove(id) {
      return (await db.delete(inboxProviders).where(theProvider(id)).returning({ id: inboxProviders.id })).length === 1;
    },
  };
}

type Executor = Pick<Db, "insert">;

/** The event, and the webhook outbox row for the ones a webhook may carry, written together. */
async function append(db: Executor, row: Pick<TransmissionRow, "orgId" | "livemode">, event: TransmissionEventRow): Promise<void> {
  await db.insert(transmissionEvents).values(event);
  if (event.type.startsWith("transmission.")) {
    await db.insert(eventOutbox).values({ orgId: row.orgId, livemode: row.livemode, transmissionId: event.transmissionId, seq: event.seq, type: event.type, at: event.at, hash: event.hash });
  }
}

export function transmissionRepository(db: Db): TransmissionRepository {
  const byKey = async (orgId: string, livemode: boolean, key: string): Promise<TransmissionRow | undefined> =>
    (await db.select().from(transmissions).where(and(eq(transmissions.orgId, orgId), eq(transmissions.livemode, livemode), eq(transmissions.idempotencyKey, key))))[0];
  return {
    async create(row, first) {
      const created = await db.transaction(async (tx) => {
        const inserted = await tx.insert(transmissions).values(row).onConflictDoNothing().returning({ id: transmissions.id });
        if (!inserted.length) return false;
        await append(tx, row, first);
        return true;
      });
      if (created) return { created: true };
      // The conflicting creation has committed (the insert waited for it), so its row is visible now.
      const existing = row.idempotencyKey === null ? undefined : await byKey(row.orgId, row.livemode, row.idempotencyKey);
      if (!existing) throw new Error(`transmission ${row.id} was not inserted and holds no Idempotency-Key`);
      return { created: false, existing };
    },
    async byId(orgId, id) {
      return (await db.select().from(transmissions).where(and(eq(transmissions.orgId, orgId), eq(transmissions.id, id))))[0];
    },
    byIdempotencyKey: byKey,
    async sameDocument(orgId, livemode, documentSha256, counterparty, settled) {
      const [row] = await db
        .select()
        .from(transmissions)
        .where(sameDocumentCondition(transmissions, orgId, livemode, documentSha256, counterparty, settled))
        .orderBy(desc(transmissions.createdAt), desc(transmissions.id))
        .limit(1);
      return row;
    },
    async rejectedNumber(orgId, livemode, network, sender, invoiceNumber) {
      const [row] = await db
        .select()
        .from(transmissions)
        .where(rejectedNumberCondition(transmissions, orgId, livemode, network, sender, invoiceNumber))
        .limit(1);
      return row;
    },
    list(orgId, filters, limit, cursor) {
      return db
        .select()
        .from(transmissions)
        .where(listCondition(transmissions, orgId, filters, cursor))
        .orderBy(desc(transmissions.createdAt), desc(transmissions.id))
        .limit(limit);
    },
    change(id, change) {
      return db.transaction(async (tx) => {
        const where = changeCondition(transmissions, id, change);
        // The row lock makes the head read here the head the event follows; a second writer waits, then finds its condition gone.
        const [current] = await tx.select().from(transmissions).where(where).for("update");
        if (!current) return undefined;
        const set: Partial<TransmissionRow> = { status: change.to, updatedAt: change.at, ...change.patch };
        if (change.event) {
          const event = change.event({ seq: current.headSeq, hash: current.headHash });
          await append(tx, current, event);
          Object.assign(set, { headHash: event.hash, headSeq: event.seq });
        }
        if (change.bill) {
          // A delivery cannot be undone, so its unit counts even past the cap (creation refuses once it is reached).
          await tx.insert(quotaWindows).values({ ...change.bill, used: 0 }).onConflictDoNothing();
          await tx
            .update(quotaWindows)
            .set({ used: sql`${quotaWindows.used} + 1` })
            .where(and(eq(quotaWindows.orgId, change.bill.orgId), eq(quotaWindows.mode, change.bill.mode), eq(quotaWindows.windowStart, change.bill.windowStart)));
        }
        const [updated] = await tx.update(transmissions).set(set).where(eq(transmissions.id, id)).returning();
        return updated;
      });
    },
    async purgeDocuments(before, settled) {
      const purged = await db
        .update(transmissions)
        .set({ document: null })
        .where(purgeableCondition(transmissions, before, settled))
        .returning({ id: transmissions.id });
      return purged.length;
    },
    claimDue: (owner, now, leaseUntil, limit) => claim("outbound", owner, now, leaseUntil, limit),
    claimDueInbound: (owner, now, leaseUntil, limit) => claim("inbound", owner, now, leaseUntil, limit),
    events: (transmissionId) => db.select().from(transmissionEvents).where(eq(transmissionEvents.transmissionId, transmissionId)).orderBy(asc(transmissionEvents.seq)),
  };

  function claim(direction: "outbound" | "inbound", owner: string, now: string, leaseUntil: string, limit: number) {
    // SKIP LOCKED: instances claiming at once each take other rows instead of waiting for each other's.
    const due = db
      .select({ id: transmissions.id })
      .from(transmissions)
      .where(dueCondition(transmissions, direction, now))
      .orderBy(asc(transmissions.nextAttemptAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    return db.update(transmissions).set({ leaseOwner: owner, leaseUntil }).where(inArray(transmissions.id, due)).returning();
  }
}
