// Delivery attempts, receipts and the sandbox network's own records in PostgreSQL.

import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "./accounts";
import { sandboxClocks, sandboxReceived, transmissionAttempts, transmissionReceipts, transmissions } from "./schema";
import type { DeliveryRecords, SandboxRecords } from "../storage";
import { shiftedBack } from "../../transmission/sandbox/clock";

const ATTEMPT = {
  transmissionId: transmissionAttempts.transmissionId,
  n: transmissionAttempts.n,
  provider: transmissionAttempts.provider,
  providerRef: transmissionAttempts.providerRef,
  startedAt: transmissionAttempts.startedAt,
  finishedAt: transmissionAttempts.finishedAt,
  outcome: transmissionAttempts.outcome,
  detail: transmissionAttempts.detail,
  nextAttemptAt: transmissionAttempts.nextAttemptAt,
};

const RECEIPT = {
  transmissionId: transmissionReceipts.transmissionId,
  kind: transmissionReceipts.kind,
  networkCode: transmissionReceipts.networkCode,
  at: transmissionReceipts.at,
  sha256: transmissionReceipts.sha256,
  proof: transmissionReceipts.proof,
};

export function deliveryRecords(db: Db): DeliveryRecords {
  return {
    async startAttempt(row) {
      return (await db.insert(transmissionAttempts).values(row).onConflictDoNothing().returning({ id: transmissionAttempts.id })).length === 1;
    },
    async finishAttempt(transmissionId, n, end) {
      await db
        .update(transmissionAttempts)
        .set(end)
        .where(and(eq(transmissionAttempts.transmissionId, transmissionId), eq(transmissionAttempts.n, n)));
    },
    attempts: (transmissionId) => db.select(ATTEMPT).from(transmissionAttempts).where(eq(transmissionAttempts.transmissionId, transmissionId)).orderBy(asc(transmissionAttempts.n)),
    async addReceipt(row) {
      // The transmission's row lock serialises two readers of one status answer, so neither keeps it twice.
      return db.transaction(async (tx) => {
        await tx.select({ id: transmissions.id }).from(transmissions).where(eq(transmissions.id, row.transmissionId)).for("update");
        const [kept] = await tx
          .select({ id: transmissionReceipts.id })
          .from(transmissionReceipts)
          .where(and(eq(transmissionReceipts.transmissionId, row.transmissionId), eq(transmissionReceipts.sha256, row.sha256)));
        if (kept) return false;
        await tx.insert(transmissionReceipts).values(row);
        return true;
      });
    },
    receipts: (transmissionId) => db.select(RECEIPT).from(transmissionReceipts).where(eq(transmissionReceipts.transmissionId, transmissionId)).orderBy(asc(transmissionReceipts.id)),
  };
}

export function sandboxRecords(db: Db): SandboxRecords {
  return {
    async offset(orgId) {
      return (await db.select().from(sandboxClocks).where(eq(sandboxClocks.orgId, orgId)))[0]?.offsetMs ?? 0;
    },
    advance(orgId, byMs) {
      return db.transaction(async (tx) => {
        const [clock] = await tx
          .insert(sandboxClocks)
          .values({ orgId, offsetMs: byMs })
          .onConflictDoUpdate({ target: sandboxClocks.orgId, set: { offsetMs: sql`${sandboxClocks.offsetMs} + ${byMs}` } })
          .returning();
        const scheduled = await tx
          .select({ id: transmissions.id, nextAttemptAt: transmissions.nextAttemptAt })
          .from(transmissions)
          .where(and(eq(transmissions.orgId, orgId), isNotNull(transmissions.nextAttemptAt)))
          .for("update");
        for (const row of scheduled) await tx.update(transmissions).set({ nextAttemptAt: shiftedBack(row.nextAttemptAt!, byMs) }).where(eq(transmissions.id, row.id));
        return clock.offsetMs;
      });
    },
    receive(row, again) {
      return db.transaction(async (tx) => {
        const [inserted] = await tx.insert(sandboxReceived).values(row).onConflictDoNothing().returning();
        if (inserted) return inserted;
        // The insert waited for the conflicting one to commit; the row lock orders later arrivals.
        const [existing] = await tx.select().from(sandboxReceived).where(eq(sandboxReceived.providerRef, row.providerRef)).for("update");
        const [updated] = await tx.update(sandboxReceived).set({ state: again(existing) }).where(eq(sandboxReceived.providerRef, row.providerRef)).returning();
        return updated;
      });
    },
    async received(providerRef) {
      return (await db.select().from(sandboxReceived).where(eq(sandboxReceived.providerRef, providerRef)))[0];
    },
    all: () => db.select().from(sandboxReceived),
  };
}
