// Documents a provider brings in through the inbound callback. Each is recorded before anything
// judges it (`received`), then judged and read in an engine worker (`validated`) and exposed with
// its verdict (`available`, firing transmission.received), a failing verdict included. Only a
// document that cannot be read at all ends `failed` (its bytes kept); an engine outage leaves it
// `received`, to be judged again later, never `failed`.

import type { Storage, TransmissionRow } from "../db/storage";
import { DomainError } from "../errors/domain-error";
import { EngineUnavailable } from "../engine/admission";
import type { ReceiveOutcome } from "../workers/protocol";
import type { ValidateRequest } from "../validation/validate";
import { firstWrite, storedEvent } from "./first-write";
import { nextEvent } from "./event-chain";
import { display, normalised, type ParticipantId } from "./identifiers";
import { requestFingerprint, verdictSubset } from "./create";
import { sha256Hex } from "../rulesets/seal";

export interface InboundDocument {
  /** The provider's id for the message: the same id again is the same document (a retry), never a second one. */
  messageId: string;
  network: string;
  sender: ParticipantId;
  recipient: ParticipantId;
  format: "ubl" | "cii";
  xml: string;
}

export interface InboundSteps {
  storage: Storage;
  now: () => Date;
  /** The receive job (verdict, and the invoice where parse maps it). */
  judge(request: ValidateRequest): Promise<ReceiveOutcome>;
}

/** The verdict's findings that say the document could not be read at all, as opposed to judged and found wanting. */
const UNREADABLE = new Set(["XML_MALFORMED", "XML_REFUSED", "UNSUPPORTED_FORMAT"]);

/** How long an engine outage waits before the document is judged again. */
const RETRY_AFTER_OUTAGE_MS = 60_000;


/** Records the document for the organization that receives for its recipient, then judges it. */
export async function acceptInbound(steps: InboundSteps, providerId: string, document: InboundDocument): Promise<{ transmission: TransmissionRow; duplicate: boolean }> {
  const recipient = normalised(document.recipient);
  const [receiver] = await steps.storage.participants.receivers(recipient.scheme, recipient.id);
  if (!receiver) throw new DomainError(422, "VALIDATION_ERROR", `no organization receives for ${display(document.recipient)} on this deployment (einvoice participants add … --confirmed)`);
  const key = `inbox:${providerId}:${document.messageId}`;
  const at = steps.now();
  const sender = normalised(document.sender);
  const { row, event } = firstWrite({ type: "received", status: "received", at, data: { provider: providerId, messageId: document.messageId } }, {
    orgId: receiver.orgId,
    livemode: true,
    direction: "inbound",
    network: document.network,
    senderScheme: recipient.scheme,
    senderId: recipient.id,
    counterpartyScheme: sender.scheme,
    counterpartyId: sender.id,
    format: document.format,
    documentSha256: sha256Hex(document.xml),
    document: document.xml,
    idempotencyKey: key,
    requestSha256: requestFingerprint(document),
    nextAttemptAt: at.toISOString(),
    providerRef: document.messageId,
  });
  const created = await steps.storage.transmissions.create(row, event);
  if (!created.created) return { transmission: created.existing, duplicate: true };
  return { transmission: (await judgeInbound(steps, row)) ?? row, duplicate: false };
}

/** `received` → `validated` → `available` (or `failed` when unreadable); an outage leaves it `received` for later. */
export async function judgeInbound(steps: InboundSteps, row: TransmissionRow): Promise<TransmissionRow | undefined> {
  const { storage } = steps;
  let outcome: ReceiveOutcome;
  try {
    outcome = await steps.judge({ bytes: new TextEncoder().encode(row.document ?? ""), hint: row.format as "ubl" | "cii" });
  } catch (error) {
    if (!(error instanceof EngineUnavailable)) throw error;
    const retryAt = new Date(steps.now().getTime() + RETRY_AFTER_OUTAGE_MS).toISOString();
    console.error(JSON.stringify({ level: "error", event: "inbound-judging-deferred", transmissionId: row.id, reason: error.message }));
    return storage.transmissions.change(row.id, { from: "received", to: "received", patch: { nextAttemptAt: retryAt, leaseOwner: null, leaseUntil: null }, at: steps.now().toISOString() });
  }
  const at = () => steps.now();
  if (!outcome.ok || outcome.result.errors.some((f) => UNREADABLE.has(f.ruleId))) {
    const why = outcome.ok ? (outcome.result.errors[0]?.message ?? "unreadable") : outcome.message;
    return storage.transmissions.change(row.id, {
      from: "received",
      to: "failed",
      patch: { nextAttemptAt: null, leaseOwner: null, leaseUntil: null, ...(outcome.ok && { verdict: JSON.stringify(verdictSubset(outcome.result)) }) },
      event: (head) => storedEvent(nextEvent(head, row.id, { type: "transmission.failed", status: "failed", at: at(), data: { reason: why.slice(0, 200) } })),
      at: at().toISOString(),
    });
  }
  const verdict = verdictSubset(outcome.result);
  const validated = await storage.transmissions.change(row.id, {
    from: "received",
    to: "validated",
    patch: { verdict: JSON.stringify(verdict), nextAttemptAt: null, leaseOwner: null, leaseUntil: null },
    event: (head) => storedEvent(nextEvent(head, row.id, { type: "validated", status: "validated", at: at(), data: { valid: verdict.valid } })),
    at: at().toISOString(),
  });
  if (!validated) return undefined;
  // A failing verdict does not hold the document back: it is delivered with its verdict.
  return storage.transmissions.change(row.id, {
    from: "validated",
    to: "available",
    event: (head) => storedEvent(nextEvent(head, row.id, { type: "transmission.received", status: "available", at: at(), data: { valid: verdict.valid } })),
    at: at().toISOString(),
  });
}


/** Judges what an outage left `received`, under a lease so instances share the work. */
export async function judgePendingInbound(steps: InboundSteps, owner: string, limit = 20): Promise<number> {
  const now = steps.now();
  const claimed = await steps.storage.transmissions.claimDueInbound(owner, now.toISOString(), new Date(now.getTime() + 60_000).toISOString(), limit);
  for (const row of claimed) if (row.status === "received") await judgeInbound(steps, row);
  return claimed.length;
}
