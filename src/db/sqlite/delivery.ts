// Delivery attempts, receipts and the sandbox network's own records in SQLite.

import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { Db } from "./connection";
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

export function sqliteDelivery(db: Db): DeliveryRecords {
  return {
    async startAttempt(row) {
      return db.insert(transmissionAttempts).values(row).onConflictDoNothing().returning({ id: transmissionAttempts.id }).get() !== undefined;
    },
    async finishAttempt(transmissionId, n, end) {
      db.update(transmissionAttempts)
        .set(end)
        .where(and(eq(transmissionAttempts.transmissionId, transmissionId), eq(transmissionAttempts.n, n)))
        .run();
    },
    async attempts(transmissionId) {
      return db
        .select(ATTEMPT)
        .from(transmissionAttempts)
        .where(eq(transmissionAttempts.transmissionId, transmissionId))
        .orderBy(asc(transmissionAttempts.n))
        .all();
    },
    async addReceipt(row) {
      return db.transaction(
        () => {
          const kept = db
            .select({ id: transmissionReceipts.id })
            .from(transmissionReceipts)
            .where(and(eq(transmissionReceipts.transmissionId, row.transmissionId), eq(transmissionReceipts.sha256, row.sha256)))
            .get();
          if (kept) return false;
          db.insert(transmissionReceipts).values(row).run();
          return true;
        },
        { behavior: "immediate" },
      );
    },
    async receipts(transmissionId) {
      return db
        .select(RECEIPT)
        .from(transmissionReceipts)
        .where(eq(transmissionReceipts.transmissionId, transmissionId))
        .orderBy(asc(transmissionReceipts.id))
        .all();
    },
  };
}

export function sqliteSandbox(db: Db): SandboxRecords {
  const offsetOf = (orgId: string) => db.select().from(sandboxClocks).where(eq(sandboxClocks.orgId, orgId)).get()?.offsetMs ?? 0;
  return {
    async offset(orgId) {
      return offsetOf(orgId);
    },
    async advance(orgId, byMs) {
      return db.transaction(
        () => {
          const offsetMs = offsetOf(orgId) + byMs;
          db.insert(sandboxClocks).values({ orgId, offsetMs }).onConflictDoUpdate({ target: sandboxClocks.orgId, set: { offsetMs } }).run();
          const scheduled = db
            .select({ id: transmissions.id, nextAttemptAt: transmissions.nextAttemptAt })
            .from(transmissions)
            .where(and(eq(transmissions.orgId, orgId), isNotNull(transmissions.nextAttemptAt)))
            .all();
          for (const row of scheduled) {
            db.update(transmissions).set({ nextAttemptAt: shiftedBack(row.nextAttemptAt!, byMs) }).where(eq(transmissions.id, row.id)).run();
          }
          return offsetMs;
        },
        { behavior: "immediate" },
      );
    },
    async receive(row, again) {
      return db.transaction(
        () => {
          const inserted = db.insert(sandboxReceived).values(row).onConflictDoNothing().returning().get();
          if (inserted) return inserted;
          const existing = db.select().from(sandboxReceived).where(eq(sandboxReceived.providerRef, row.providerRef)).get()!;
          return db.update(sandboxReceived).set({ state: again(existing) }).where(eq(sandboxReceived.providerRef, row.providerRef)).returning().get()!;
        },
        { behavior: "immediate" },
      );
    },
    async received(providerRef) {
      return db.select().from(sandboxReceived).where(eq(sandboxReceived.providerRef, providerRef)).get();
    },
    async all() {
      return db.select().from(sandboxReceived).all();
    },
  };
}
