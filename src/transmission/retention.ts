// The document bytes of a settled transmission are kept for TRANSMISSION_RETENTION_DAYS, then
// dropped: its hash, events and receipts stay, and GET …/document answers 410. Archiving invoices
// for their legal period is out of scope (the spec's Out of scope); this bounds what the service holds.

import type { Storage } from "../db/storage";

/** Statuses after which nothing more happens to the document (KSeF's terminal `cleared` is kept: the status alone does not say the network). */
const SETTLED = ["delivered", "rejected", "failed", "available"] as const;

const DAY_MS = 86_400_000;

export function purgeSettledDocuments(storage: Storage, now: Date, retentionDays: number): Promise<number> {
  return storage.transmissions.purgeDocuments(new Date(now.getTime() - retentionDays * DAY_MS).toISOString(), SETTLED);
}
