// Standard Webhooks 1.0, symmetric scheme (standardwebhooks.com): HMAC-SHA256 over
// `${webhook-id}.${webhook-timestamp}.${body}` with a `whsec_`-prefixed base64 secret, sent as
// `webhook-signature: v1,<base64>`, several space-separated while a secret is rotated. Used both
// to sign our outgoing webhooks and to verify inbound network callbacks, so the two cannot drift.

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const PREFIX = "whsec_";
/** The spec's bounds on a symmetric secret: at least 192 bits, at most 512. */
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;
/** The spec's replay window, both ways (clocks drift in either direction). */
export const TOLERANCE_SECONDS = 5 * 60;
// Bounds on what a caller can make us parse: an id is an identifier, and with a handful of
// rotating secrets a genuine header holds a few 47-character entries. Anything larger is refused
// before any HMAC is computed, so a megabyte header costs one length check.
const MAX_ID_LENGTH = 256;
const MAX_SIGNATURE_HEADER = 1024;
const MAX_SIGNATURES = 8;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** A v1 signature: 32 bytes in base64. */
const SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;
// An id holding a "." would make `${id}.${timestamp}.${body}` ambiguous (the spec forbids it);
// printable ASCII keeps it a header value.
const ID = /^[\x21-\x2d\x2f-\x7e]+$/;
const TIMESTAMP = /^(?:0|[1-9][0-9]{0,11})$/;

// A type, not an interface, so it passes where a plain header record is expected.
export type WebhookHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

export type Verification = { ok: true } | { ok: false; reason: "missing" | "invalid" | "expired" };

/** A new secret: 32 random bytes, in the spec's serialisation. */
export const newSecret = (): string => PREFIX + randomBytes(32).toString("base64");

/** The HMAC key of a secret; throws on a malformed one, which is our configuration error, not the caller's. */
function keyOf(secret: string): Buffer {
  const encoded = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : "";
  const key = BASE64.test(encoded) ? Buffer.from(encoded, "base64") : Buffer.alloc(0);
  if (key.length < MIN_SECRET_BYTES || key.length > MAX_SECRET_BYTES) {
    throw new Error(`a webhook secret is "${PREFIX}" and the base64 of ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} bytes`);
  }
  return key;
}

const mac = (key: Buffer, id: string, timestamp: string, body: string | Uint8Array): Buffer =>
  createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest();

/**
 * The three headers of one delivery, with one signature per secret (the current one first, then
 * any still accepted during a rotation). `timestamp` is Unix seconds of this attempt, not of the event.
 */
export function sign(secrets: readonly string[], message: { id: string; timestamp: number; body: string | Uint8Array }): WebhookHeaders {
  if (!secrets.length) throw new Error("signing needs at least one secret");
  if (!ID.test(message.id) || message.id.length > MAX_ID_LENGTH) throw new Error(`webhook id ${JSON.stringify(message.id)} is not a printable id without "."`);
  if (!Number.isSafeInteger(message.timestamp) || message.timestamp < 0) throw new Error(`webhook timestamp ${message.timestamp} is not Unix seconds`);
  const timestamp = String(message.timestamp);
  return {
    "webhook-id": message.id,
    "webhook-timestamp": timestamp,
    "webhook-signature": secrets.map((s) => `v1,${mac(keyOf(s), message.id, timestamp, message.body).toString("base64")}`).join(" "),
  };
}

/** Header names are case-insensitive; a plain record may spell them any way. */
function header(headers: Headers | Record<string, string | undefined>, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name) return headers[key];
  return undefined;
}

/**
 * Accepts when any v1 signature in the header matches any of `secrets`. The signature is checked
 * before the time window, so "expired" means genuine but outside the window (a replay or a bad
 * clock, INBOX_SIGNATURE_EXPIRED) and never tells a forger anything. Entries of other schemes
 * (v1a, future versions) are skipped, as the spec asks.
 */
export function verify(
  secrets: readonly string[],
  headers: Headers | Record<string, string | undefined>,
  body: string | Uint8Array,
  nowSeconds: number,
): Verification {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) return { ok: false, reason: "missing" };
  if (id.length > MAX_ID_LENGTH || !ID.test(id) || !TIMESTAMP.test(timestamp) || signatures.length > MAX_SIGNATURE_HEADER) {
    return { ok: false, reason: "invalid" };
  }
  const entries = signatures.split(" ");
  if (entries.length > MAX_SIGNATURES) return { ok: false, reason: "invalid" };
  const offered = entries.flatMap((entry) => {
    const [version, signature] = entry.split(",", 2);
    return version === "v1" && SIGNATURE.test(signature ?? "") && entry.length === 3 + signature.length ? [Buffer.from(signature, "base64")] : [];
  });
  if (!offered.length) return { ok: false, reason: "invalid" };
  const expected = secrets.map((s) => mac(keyOf(s), id, timestamp, body));
  // Every pair is compared, no early exit, so the time taken does not say which secret matched.
  let matched = false;
  for (const candidate of offered) for (const computed of expected) matched = timingSafeEqual(candidate, computed) || matched;
  if (!matched) return { ok: false, reason: "invalid" };
  return Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS ? { ok: false, reason: "expired" } : { ok: true };
}
