// Accepting a document for transmission: every refusal of what cannot travel comes before anything
// is written, so a refused request queues nothing and bills nothing; an accepted one is one
// transmission row and its first event, in one transaction.

import { sha256Hex } from "../rulesets/seal";
import type { Storage, TransmissionRow } from "../db/storage";
import { DomainError } from "../errors/domain-error";
import type { ValidationResult } from "../validation/result";
import { display, normalised, routable, sameParticipant, type ParticipantId } from "./identifiers";
import type { Inspection, InspectOrder } from "./inspect";
import { senderRegistration } from "./participants";
import { firstWrite } from "./first-write";
import { canonicalJson, type JsonValue } from "./canonical-json";
import { peppolEnvelope } from "./envelope";

export interface TransmissionRequest {
  network: string;
  sender: ParticipantId;
  recipient: ParticipantId;
  format: "ubl" | "cii";
  xml: string;
  documentTypeId?: string;
  deadlineAt?: string;
}

export interface Caller {
  orgId: string;
  livemode: boolean;
}

/** An Idempotency-Key and the fingerprint of the request it guards (send fingerprints its own body, not the document it generates). */
export interface Idempotency {
  key: string;
  requestSha256: string;
}

/** What the caller learns: the transmission, whether it already existed, and the verdict it travels with. */
export interface Accepted {
  transmission: TransmissionRow;
  deduplicated: boolean;
}

export interface CreateSteps {
  storage: Storage;
  now: () => Date;
  /** The document read in an engine worker (src/transmission/inspect.ts). */
  inspect(order: InspectOrder): Promise<Inspection>;
  /** Refuses (429 QUOTA_EXCEEDED) when a live key's window has no unit left for the delivery to bill. */
  unitLeft(): Promise<void>;
}

/** An outbound transmission can still arrive, or has arrived, unless it settled on one of these. */
const SETTLED_WITHOUT_ARRIVAL = ["failed", "rejected"] as const;
/** Identifier schemes of French companies (ISO 6523 ICD: SIREN, SIRET, the French CTC address). */
const FRENCH_SCHEMES = new Set(["0002", "0009", "0225"]);
const FRANCE_CTC_ARTIFACT = "france_ctc_schematron";

/** The fingerprint an Idempotency-Key replay compares: the request as parsed, in canonical JSON. */
export const requestFingerprint = (request: object) => sha256Hex(canonicalJson(request as JsonValue));


/** Idempotency-Key: printable ASCII, 1 to 255 characters; checked before anything else is spent. */
export function checkIdempotencyKey(key: string | null): string | null {
  if (key === null) return null;
  if (key.length === 0 || key.length > 255 || !/^[\x20-\x7e]+$/.test(key)) {
    throw new DomainError(400, "INVALID_IDEMPOTENCY_KEY", "Idempotency-Key must be 1 to 255 printable ASCII characters; nothing was queued or billed");
  }
  return key;
}

/** The same key and body: the first answer again; the same key with another body: a conflict. */
export async function replayed(storage: Storage, caller: Caller, { key, requestSha256 }: Idempotency): Promise<Accepted | undefined> {
  const existing = await storage.transmissions.byIdempotencyKey(caller.orgId, caller.livemode, key);
  if (!existing) return undefined;
  if (existing.requestSha256 !== requestSha256) {
    throw new DomainError(409, "IDEMPOTENCY_KEY_REUSED", `Idempotency-Key '${key}' was used for another request (transmission ${existing.id}); use a new key for a new request`, {
      transmissionId: existing.id,
    });
  }
  return { transmission: existing, deduplicated: true };
}

async function checkSender(storage: Storage, caller: Caller, sender: ParticipantId): Promise<{ country: string }> {
  const registration = await senderRegistration(storage, caller.orgId, sender);
  if (!registration?.confirmed) {
    throw new DomainError(
      403,
      "SENDER_NOT_REGISTERED",
      registration
        ? `sender ${display(sender)} is registered but not confirmed for this organization; nothing was queued or billed`
        : `sender ${display(sender)} is not a registered participant of this organization (einvoice participants add); nothing was queued or billed`,
    );
  }
  if (!registration.country) throw new DomainError(409, "SENDER_COUNTRY_MISSING", `the registration of sender ${display(sender)} records no country; nothing was queued or billed`);
  return { country: registration.country };
}

function checkParties(request: TransmissionRequest, inspection: Inspection): void {
  const pairs = [
    { role: "seller", document: inspection.seller, request: request.sender, field: "sender" },
    { role: "buyer", document: inspection.buyer, request: request.recipient, field: "recipient" },
  ];
  for (const pair of pairs) {
    if (pair.document && !sameParticipant(pair.document, pair.request)) {
      throw new DomainError(400, "DOCUMENT_PARTY_MISMATCH", `the document's ${pair.role} endpoint ${display(pair.document)} is not the request's ${pair.field} ${display(pair.request)}`, {
        role: pair.role,
        documentId: pair.document,
        requestId: pair.request,
      });
    }
  }
}

function checkFrance(request: TransmissionRequest, senderCountry: string, verdict: ValidationResult): void {
  if (request.network === "peppol" && senderCountry === "FR" && FRENCH_SCHEMES.has(normalised(request.recipient).scheme)) {
    throw new DomainError(409, "FRENCH_DOMESTIC_FLOW", "sender and recipient are both French: a domestic invoice goes through a certified platform (network ppf_pdp), not Peppol", {
      sender: request.sender,
      recipient: request.recipient,
    });
  }
  if (request.network !== "ppf_pdp") return;
  if (!verdict.rulesetArtifacts?.some((a) => a.key === FRANCE_CTC_ARTIFACT)) {
    throw new DomainError(422, "FRANCE_CTC_NOT_JUDGED", "the document was not judged against the French CTC rules: declare EXTENDED-CTC-FR in BT-24 and give BT-23");
  }
  // Blocking whatever their severity: the platform refuses on any of them.
  const ruleIds = [...new Set([...verdict.errors, ...verdict.warnings].map((f) => f.ruleId).filter((id) => id.startsWith("BR-FR-")))];
  if (ruleIds.length) throw new DomainError(422, "FRANCE_CTC_BLOCKING_FINDINGS", `the document trips French CTC rules a platform refuses: ${ruleIds.join(", ")}`, { ruleIds });
}

/** A verdict as send and transmissions return it. */
export const verdictSubset = (verdict: ValidationResult) => ({
  valid: verdict.valid,
  format: verdict.format,
  ...(verdict.profileDetected !== undefined && { profileDetected: verdict.profileDetected }),
  errors: verdict.errors,
  warnings: verdict.warnings,
});

export async function createTransmission(steps: CreateSteps, caller: Caller, request: TransmissionRequest, idempotency: Idempotency | null): Promise<Accepted> {
  const { storage } = steps;
  if (idempotency !== null) {
    const again = await replayed(storage, caller, idempotency);
    if (again) return again;
  }
  const unroutable = routable(request.network, request.recipient);
  if (unroutable) throw new DomainError(400, "RECIPIENT_NOT_ROUTABLE", `the recipient ${display(request.recipient)} cannot be addressed on ${request.network}: ${unroutable}`);
  const { country } = await checkSender(storage, caller, request.sender);
  await steps.unitLeft();
  if (request.xml.trim() === "") throw new DomainError(400, "EMPTY_DOCUMENT", "the document is empty; nothing was queued or billed");

  const inspection = await steps.inspect({ xml: request.xml, format: request.format });
  // The specific refusals first: a document without its envelope ids, addressed to other parties
  // or tripping the French rules is also invalid, and the specific code says what to fix.
  const envelope = request.network === "peppol" ? peppolEnvelope(inspection, request) : undefined;
  checkParties(request, inspection);
  checkFrance(request, country, inspection.verdict);
  if (!inspection.verdict.valid) {
    throw new DomainError(422, "INVALID_INVOICE", `the document is not valid (${inspection.verdict.errors.length} errors); nothing was queued or billed`, { validationResult: inspection.verdict });
  }
  if (request.network === "ppf_pdp" && inspection.invoiceNumber) {
    const burned = await storage.transmissions.rejectedNumber(caller.orgId, caller.livemode, "ppf_pdp", normalised(request.sender), inspection.invoiceNumber);
    if (burned) {
      throw new DomainError(409, "FRANCE_INVOICE_NUMBER_BURNED", `a certified platform rejected invoice number ${inspection.invoiceNumber} (transmission ${burned.id}); reissue it under a new number`, {
        transmissionId: burned.id,
      });
    }
  }

  const documentSha256 = sha256Hex(request.xml);
  const recipient = normalised(request.recipient);
  const earlier = await storage.transmissions.sameDocument(caller.orgId, caller.livemode, documentSha256, recipient, SETTLED_WITHOUT_ARRIVAL);
  // A request with the same Idempotency-Key that was still being read when this one began.
  if (earlier && idempotency !== null && earlier.idempotencyKey === idempotency.key) return (await replayed(storage, caller, idempotency))!;
  if (earlier) {
    throw new DomainError(409, "CONTENT_ALREADY_SENT", `this document was already sent to ${display(request.recipient)} (transmission ${earlier.id}, ${earlier.status}) and can still arrive`, {
      transmissionId: earlier.id,
    });
  }

  const at = steps.now();
  const verdict = verdictSubset(inspection.verdict);
  const sender = normalised(request.sender);
  const { row, event } = firstWrite({ type: "transmission.queued", status: "queued", at, data: { network: request.network } }, {
    orgId: caller.orgId,
    livemode: caller.livemode,
    direction: "outbound",
    network: request.network,
    senderScheme: sender.scheme,
    senderId: sender.id,
    counterpartyScheme: recipient.scheme,
    counterpartyId: recipient.id,
    format: inspection.format,
    documentSha256,
    document: request.xml,
    customizationId: inspection.customizationId ?? null,
    processId: inspection.processId ?? null,
    documentTypeId: request.documentTypeId ?? envelope?.documentTypeId ?? null,
    invoiceNumber: inspection.invoiceNumber ?? null,
    deadlineAt: request.deadlineAt ?? null,
    verdict: JSON.stringify(verdict),
    idempotencyKey: idempotency?.key ?? null,
    requestSha256: idempotency?.requestSha256 ?? null,
    // Due at once: the delivery worker picks it up on its next pass.
    nextAttemptAt: at.toISOString(),
    providerRef: null,
  });
  const created = await storage.transmissions.create(row, event);
  if (!created.created) return (await replayed(storage, caller, idempotency!))!;
  return { transmission: row, deduplicated: false };
}
