// Participants and transmissions in PostgreSQL. A transmission and its first event are one
// transaction; the Idempotency-Key's unique index decides which of two concurrent creations wins.

import { and, asc, desc, eq, lt, notInArray, or, type SQL } from "drizzle-orm";
import type { ParticipantRepository, TransmissionRepository, TransmissionRow } from "../storage";
import type { Db } from "./accounts";
import { participants, transmissionEvents, transmissions } from "./schema";

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
  };
}

export function transmissionRepository(db: Db): TransmissionRepository {
  const byKey = async (orgId: string, livemode: boolean, key: string): Promise<TransmissionRow | undefined> =>
    (await db.select().from(transmissions).where(and(eq(transmissions.orgId, orgId), eq(transmissions.livemode, livemode), eq(transmissions.idempotencyKey, key))))[0];
  return {
    async create(row, first) {
      const created = await db.transaction(async (tx) => {
        const inserted = await tx.insert(transmissions).values(row).onConflictDoNothing().returning({ id: transmissions.id });
        if (!inserted.length) return false;
        await tx.insert(transmissionEvents).values(first);
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
        .where(
          and(
            eq(transmissions.orgId, orgId),
            eq(transmissions.livemode, livemode),
            eq(transmissions.documentSha256, documentSha256),
            eq(transmissions.counterpartyScheme, counterparty.scheme),
            eq(transmissions.counterpartyId, counterparty.id),
            notInArray(transmissions.status, [...settled]),
          ),
        )
        .orderBy(desc(transmissions.createdAt), desc(transmissions.id))
        .limit(1);
      return row;
    },
    async rejectedNumber(orgId, livemode, network, sender, invoiceNumber) {
      const [row] = await db
        .select()
        .from(transmissions)
        .where(
          and(
            eq(transmissions.orgId, orgId),
            eq(transmissions.livemode, livemode),
            eq(transmissions.network, network),
            eq(transmissions.senderScheme, sender.scheme),
            eq(transmissions.senderId, sender.id),
            eq(transmissions.invoiceNumber, invoiceNumber),
            eq(transmissions.status, "rejected"),
          ),
        )
        .limit(1);
      return row;
    },
    list(orgId, filters, limit, cursor) {
      const where: (SQL | undefined)[] = [eq(transmissions.orgId, orgId)];
      if (filters.direction) where.push(eq(transmissions.direction, filters.direction as "outbound" | "inbound"));
      if (filters.status) where.push(eq(transmissions.status, filters.status));
      if (filters.network) where.push(eq(transmissions.network, filters.network));
      if (cursor) where.push(or(lt(transmissions.createdAt, cursor.createdAt), and(eq(transmissions.createdAt, cursor.createdAt), lt(transmissions.id, cursor.id))));
      return db
        .select()
        .from(transmissions)
        .where(and(...where))
        .orderBy(desc(transmissions.createdAt), desc(transmissions.id))
        .limit(limit);
    },
    events: (transmissionId) => db.select().from(transmissionEvents).where(eq(transmissionEvents.transmissionId, transmissionId)).orderBy(asc(transmissionEvents.seq)),
  };
}
