// Participants and transmissions in SQLite.

import { and, asc, desc, eq, lt, notInArray, or, type SQL } from "drizzle-orm";
import type { Db } from "./connection";
import { participants, transmissionEvents, transmissions } from "./schema";
import type { ParticipantRepository, TransmissionRepository } from "../storage";

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
  };
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
          db.insert(transmissionEvents).values(first).run();
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
        .get();
    },
    async rejectedNumber(orgId, livemode, network, sender, invoiceNumber) {
      return db
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
        .get();
    },
    async list(orgId, filters, limit, cursor) {
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
        .limit(limit)
        .all();
    },
    async events(transmissionId) {
      return db.select().from(transmissionEvents).where(eq(transmissionEvents.transmissionId, transmissionId)).orderBy(asc(transmissionEvents.seq)).all();
    },
  };
}
