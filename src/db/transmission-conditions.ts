// What each transmission query selects, once for both dialects: drizzle's operators build the same
// SQL over either table (their columns share names), so only the statements around these differ.

import { and, eq, inArray, isNotNull, isNull, lt, lte, notInArray, or, type SQL } from "drizzle-orm";
import type { transmissions as sqliteTransmissions } from "./sqlite/schema";
import type { transmissions as pgTransmissions } from "./postgres/schema";
import type { TransmissionChange, TransmissionCursor, TransmissionFilters } from "./storage";

type Table = typeof sqliteTransmissions | typeof pgTransmissions;

/** The compare-and-set of a change: the status it must have, and the further conditions it names. */
export function changeCondition(t: Table, id: string, change: TransmissionChange): SQL {
  const where: (SQL | undefined)[] = [eq(t.id, id), eq(t.status, change.from)];
  if (change.expect?.atRisk !== undefined) where.push(eq(t.atRisk, change.expect.atRisk));
  if (change.expect && "leaseOwner" in change.expect) {
    const owner = change.expect.leaseOwner;
    where.push(owner === null || owner === undefined ? isNull(t.leaseOwner) : eq(t.leaseOwner, owner));
  }
  return and(...where)!;
}

export const sameDocumentCondition = (t: Table, orgId: string, livemode: boolean, documentSha256: string, counterparty: { scheme: string; id: string }, settled: readonly string[]) =>
  and(
    eq(t.orgId, orgId),
    eq(t.livemode, livemode),
    eq(t.documentSha256, documentSha256),
    eq(t.counterpartyScheme, counterparty.scheme),
    eq(t.counterpartyId, counterparty.id),
    notInArray(t.status, [...settled]),
  );

export const rejectedNumberCondition = (t: Table, orgId: string, livemode: boolean, network: string, sender: { scheme: string; id: string }, invoiceNumber: string) =>
  and(
    eq(t.orgId, orgId),
    eq(t.livemode, livemode),
    eq(t.network, network),
    eq(t.senderScheme, sender.scheme),
    eq(t.senderId, sender.id),
    eq(t.invoiceNumber, invoiceNumber),
    eq(t.status, "rejected"),
  );

/** One page of the newest-first listing: after the cursor (creation time, then id). */
export function listCondition(t: Table, orgId: string, filters: TransmissionFilters, cursor: TransmissionCursor | null): SQL {
  const where: (SQL | undefined)[] = [eq(t.orgId, orgId)];
  if (filters.direction) where.push(eq(t.direction, filters.direction as "outbound" | "inbound"));
  if (filters.status) where.push(eq(t.status, filters.status));
  if (filters.network) where.push(eq(t.network, filters.network));
  if (cursor) where.push(or(lt(t.createdAt, cursor.createdAt), and(eq(t.createdAt, cursor.createdAt), lt(t.id, cursor.id))));
  return and(...where)!;
}

/** Due for a pass: scheduled, the time come, and no lease in force. */
export const dueCondition = (t: Table, direction: "outbound" | "inbound", now: string) =>
  and(eq(t.direction, direction), isNotNull(t.nextAttemptAt), lte(t.nextAttemptAt, now), or(isNull(t.leaseUntil), lte(t.leaseUntil, now)));

/** Settled before the cut-off with its bytes still held. */
export const purgeableCondition = (t: Table, before: string, settled: readonly string[]) => and(isNotNull(t.document), lt(t.updatedAt, before), inArray(t.status, [...settled]));
