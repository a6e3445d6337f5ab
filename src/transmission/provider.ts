// What a network access point plugs into: the delivery worker (src/transmission/delivery.ts) asks
// it who can receive, hands it documents, and reads back what the network answered. The sandbox
// (src/transmission/sandbox/) is one implementation; a real Peppol access point, SDI channel or
// KSeF session would be another, with no change to the worker.
//
// Three rules the worker relies on:
// - `submit` is keyed by our reference, written on the transmission before the call. Given a
//   reference it already holds, a provider must not deliver the document a second time.
// - An answer that did not arrive (a timeout, a dropped connection) is `unknown`, or a thrown
//   error, never `refused`: only the network's own verdict rejects.
// - `status(ref)` tells whether the provider holds the reference at all, so an attempt that ended
//   without an answer (or an instance killed during it) is reconciled before anything is resent.

import type { TransmissionRow } from "../db/storage";
import type { ParticipantId } from "./identifiers";
import { statusForCode, type Network, type OutboundStatus } from "./states";

/** What the recipient lookup (the Peppol SMP, a network's directory) answers; spec "POST /v1/send" point 9. */
export type LookupAnswer = "reachable" | "not_in_directory" | "not_served" | "doctype_not_published" | "lookup_failed";

/** Lookup answers that keep a transmission open and escalated: the recipient is unresolved. */
export const UNRESOLVED: readonly LookupAnswer[] = ["not_in_directory", "not_served", "doctype_not_published"];

/** The envelope a network routes by (for Peppol the SBDH values, src/transmission/envelope.ts). */
export interface RoutingEnvelope {
  network: Network;
  sender: ParticipantId;
  recipient: ParticipantId;
  documentTypeId: string | null;
  processId: string | null;
}

interface Submission {
  /** Our reference: the same for every attempt of one transmission. */
  ref: string;
  transmission: TransmissionRow;
  document: string;
  envelope: RoutingEnvelope;
}

export type SubmitOutcome =
  /** The provider took it; `code` is the network's word for that (mapped like any answer). */
  | { outcome: "accepted"; code: string }
  /** The provider's own verdict on the document, at submission. */
  | { outcome: "refused"; reasons: string[] }
  /** The provider answered that it took nothing (busy, throttled, down for maintenance): try again later. */
  | { outcome: "retry"; detail: string }
  /** No answer came back: the document may or may not be on the network. */
  | { outcome: "unknown"; detail: string };

/** One answer of the network, with the proof it came with. */
export interface NetworkAnswer {
  code: string;
  /** transport, message_level, official_receipt, lifecycle, acceptance … */
  kind: string;
  /** When the network gave it (the provider's clock). */
  at: string;
  /** The receipt's bytes as received (XML or JSON text); their SHA-256 is the receipt's identity. */
  proof: string;
  /** SDI answers a public administration and a business differently to the same RC. */
  recipient?: "pa" | "business";
  reasons?: string[];
}

/**
 * Whether the provider holds the reference, and every answer so far, oldest first; `refused` when
 * it refused the submission itself (the verdict whose answer an interrupted submit never returned).
 */
export type StatusAnswer = { found: false } | { found: true; refused?: string[]; answers: NetworkAnswer[] };

export interface Provider {
  /** Recorded on every attempt. */
  readonly name: string;
  lookup(network: Network, recipient: ParticipantId, documentTypeId: string | null): Promise<LookupAnswer>;
  /** May throw: the worker reads a throw as an unknown outcome. */
  submit(submission: Submission): Promise<SubmitOutcome>;
  status(ref: string): Promise<StatusAnswer>;
}

/** Our status for a network's answer (states.ts NETWORK_CODES); throws on an answer the table does not know. */
export const statusOfAnswer = (network: Network, answer: Pick<NetworkAnswer, "code" | "recipient">): OutboundStatus | null =>
  statusForCode(network, answer.code, answer.recipient);
