// A transmission as it is first written: its chain starts with the event that creates it, and
// nothing is leased, escalated or billed yet. Outbound acceptance, inbound reception (and the tests
// that queue rows directly) build it here, so a new column has one default.

import type { TransmissionEventRow, TransmissionRow } from "../db/storage";
import { canonicalJson } from "./canonical-json";
import { nextEvent, type ChainEvent, type EventFields } from "./event-chain";

/** `txn_` and 26 hex characters of a random UUID: unguessable and URL-safe. */
export const newTransmissionId = () => `txn_${crypto.randomUUID().replaceAll("-", "").slice(0, 26)}`;

/** The row form of an event: its data as the canonical JSON its hash covers. */
export const storedEvent = (event: ChainEvent): TransmissionEventRow => ({ ...event, data: canonicalJson(event.data) });

/** What a first write may leave out: null until the transmission's kind or a later step sets it. */
const UNSET = {
  customizationId: null,
  processId: null,
  documentTypeId: null,
  invoiceNumber: null,
  deadlineAt: null,
  verdict: null,
  idempotencyKey: null,
  requestSha256: null,
  nextAttemptAt: null,
  providerRef: null,
} satisfies Partial<TransmissionRow>;

type Chosen = Omit<
  TransmissionRow,
  "id" | "status" | "headHash" | "headSeq" | "leaseOwner" | "leaseUntil" | "attemptCount" | "recipientState" | "escalation" | "billedAt" | "createdAt" | "updatedAt" | "atRisk" | keyof typeof UNSET
> &
  Partial<Pick<TransmissionRow, keyof typeof UNSET>>;

export function firstWrite(first: EventFields, chosen: Chosen): { row: TransmissionRow; event: TransmissionEventRow } {
  const id = newTransmissionId();
  const event = nextEvent(null, id, first);
  const row: TransmissionRow = {
    ...UNSET,
    ...chosen,
    id,
    status: first.status,
    atRisk: false,
    headHash: event.hash,
    headSeq: event.seq,
    leaseOwner: null,
    leaseUntil: null,
    attemptCount: 0,
    recipientState: null,
    escalation: null,
    billedAt: null,
    createdAt: event.at,
    updatedAt: event.at,
  };
  return { row, event: storedEvent(event) };
}
