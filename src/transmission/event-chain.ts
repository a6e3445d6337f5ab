// The audit trail of one transmission as a hash chain: each event's hash covers its content and
// the previous event's hash, so an edited, removed or reordered event breaks every later link.
// A chain alone cannot show that its tail was cut off, so the transmission row keeps the head
// hash and verification compares the last event with it.
//
// What this module does not do, and the storage must: make (transmissionId, seq) and
// (transmissionId, prevHash) unique, so two writers appending after the same head cannot fork the
// chain (the second insert fails and retries from the new head), and move the head hash in the
// same transaction as the insert.

import { sha256Hex } from "../rulesets/seal.ts";
import { canonicalJson, type JsonValue } from "./canonical-json.ts";

export interface ChainEvent {
  transmissionId: string;
  /** 1 for the first event, then +1. */
  seq: number;
  type: string;
  status: string;
  /** ISO 8601 instant with milliseconds, stored and hashed as this exact string. */
  at: string;
  data: { [key: string]: JsonValue };
  /** The previous event's hash, or genesisHash(transmissionId) for seq 1. */
  prevHash: string;
  /** SHA-256 hex of the canonical JSON of every other field. */
  hash: string;
}

/** The chain's head as the transmission row keeps it; null before the first event. */
export interface ChainHead {
  seq: number;
  hash: string;
}

/** The caller's part of an event; the chain supplies the rest. */
export interface EventFields {
  type: string;
  status: string;
  at: Date;
  data: { [key: string]: JsonValue };
}

/** Bound to the transmission, so the first event of one chain cannot start another. */
export const genesisHash = (transmissionId: string): string => sha256Hex(`einvoice.transmission-events.v1:${transmissionId}`);

const hashOf = (event: Omit<ChainEvent, "hash">): string =>
  sha256Hex(
    canonicalJson({
      transmissionId: event.transmissionId,
      seq: event.seq,
      type: event.type,
      status: event.status,
      at: event.at,
      data: event.data,
      prevHash: event.prevHash,
    }),
  );

/**
 * The event to insert after `head`. `at` is written with toISOString (milliseconds, UTC) so the
 * string hashed is one every database stores without changing it.
 */
export function nextEvent(head: ChainHead | null, transmissionId: string, fields: EventFields): ChainEvent {
  const body = {
    transmissionId,
    seq: head ? head.seq + 1 : 1,
    type: fields.type,
    status: fields.status,
    at: fields.at.toISOString(),
    data: fields.data,
    prevHash: head ? head.hash : genesisHash(transmissionId),
  };
  return { ...body, hash: hashOf(body) };
}

export type ChainBreak =
  /** The event at this place does not carry the next seq: one was removed or the order changed. */
  | "seq"
  /** The event belongs to another transmission. */
  | "transmission"
  /** The event does not point at the hash of the one before it. */
  | "prev_hash"
  /** The event's content no longer matches its hash. */
  | "hash"
  /** The last event is not the head: the tail was removed (or the head changed). */
  | "truncated"
  /** Events continue past the head: appended without moving the head. */
  | "beyond_head";

export type ChainVerdict = { chainOk: true } | { chainOk: false; brokenAt: number; reason: ChainBreak };

/**
 * Checks `events` in the order given (the storage reads them by seq) against the head the
 * transmission keeps. `brokenAt` is the first seq that cannot be trusted: the seq expected at the
 * place where a link fails, or the first seq missing after the last event.
 */
export function verifyChain(transmissionId: string, events: readonly ChainEvent[], headHash: string | null): ChainVerdict {
  let prevHash = genesisHash(transmissionId);
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    const seq = i + 1;
    if (event.seq !== seq) return { chainOk: false, brokenAt: seq, reason: "seq" };
    if (event.transmissionId !== transmissionId) return { chainOk: false, brokenAt: seq, reason: "transmission" };
    if (event.prevHash !== prevHash) return { chainOk: false, brokenAt: seq, reason: "prev_hash" };
    if (hashOf(event) !== event.hash) return { chainOk: false, brokenAt: seq, reason: "hash" };
    if (event.hash === headHash && seq < events.length) return { chainOk: false, brokenAt: seq + 1, reason: "beyond_head" };
    prevHash = event.hash;
  }
  const last = events.length ? events[events.length - 1].hash : null;
  return last === headHash ? { chainOk: true } : { chainOk: false, brokenAt: events.length + 1, reason: "truncated" };
}
