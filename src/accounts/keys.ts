import type { KeyRow, Storage } from "../db/storage";
import type { Clock } from "../clock";
import { AccountError } from "./errors";
import { getOrg, type Organization } from "./orgs";
import type { Result } from "../errors/result";

export type ApiKey = KeyRow;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const SECRET_LENGTH = 40;

/**
 * `svc_live_` / `svc_test_` plus at least 32 alphanumerics; legacy keys with a plain `svc_`
 * prefix are live. Anything else is malformed (401) without a database look-up.
 */
const KEY_FORMAT = /^svc_(?:(live|test)_)?[A-Za-z0-9]{32,128}$/;

function hashKey(key: string): string {
  return new Bun.CryptoHasher("sha256").update(key).digest("hex");
}

/** The mode a key string claims: only the prefix decides, and the hash covers the prefix. */
function keyFormat(key: string): { livemode: boolean } | null {
  const match = KEY_FORMAT.exec(key);
  if (!match) return null;
  return { livemode: match[1] !== "test" };
}

/** The first eight characters, as `GET /v1/me` reports; legacy plain `svc_` keys show only `svc_`. */
export function keyPrefix(key: string): string {
  return key.startsWith("svc_live_") || key.startsWith("svc_test_") ? key.slice(0, 8) : "svc_";
}

function randomSecret(): string {
  // Rejection sampling keeps every character equally likely.
  const out: string[] = [];
  while (out.length < SECRET_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(64))) {
      if (byte < 248 && out.length < SECRET_LENGTH) out.push(ALPHABET[byte % 62]);
    }
  }
  return out.join("");
}

interface CreatedKey {
  keyId: string;
  key: string;
  orgId: string;
  livemode: boolean;
}

export async function createKey(storage: Storage, clock: Clock, org: Organization, mode: string, label?: string): Promise<CreatedKey> {
  if (mode !== "live" && mode !== "test") throw new AccountError(`--mode must be live or test, not '${mode}'`);
  if (label !== undefined && label.length > 200) throw new AccountError("a key label has at most 200 characters");
  const key = `svc_${mode}_${randomSecret()}`;
  const keyId = crypto.randomUUID();
  await storage.keys.insert({ id: keyId, orgId: org.id, keyHash: hashKey(key), label: label ?? null, livemode: mode === "live", createdAt: clock().toISOString(), revokedAt: null });
  return { keyId, key, orgId: org.id, livemode: mode === "live" };
}

interface KeyListing {
  keyId: string;
  label: string | null;
  livemode: boolean;
  createdAt: string;
  revokedAt: string | null;
}

export async function listKeys(storage: Storage, org: Organization): Promise<KeyListing[]> {
  return (await storage.keys.listFor(org.id)).map((k) => ({ keyId: k.id, label: k.label, livemode: k.livemode, createdAt: k.createdAt, revokedAt: k.revokedAt }));
}

export async function revokeKey(storage: Storage, clock: Clock, keyId: string): Promise<void> {
  const outcome = await storage.keys.revoke(keyId, clock().toISOString());
  if (outcome === "already") throw new AccountError(`key ${keyId} is revoked already`);
  if (outcome === "missing") throw new AccountError(`no key with id '${keyId}'`);
}

type Authentication = Result<{ key: ApiKey; org: Organization; livemode: boolean }, { reason: "malformed" | "unknown" }>;

/** Looks the key up by hash on every request, so a revocation takes effect on the next one. */
export async function authenticate(storage: Storage, key: string): Promise<Authentication> {
  const format = keyFormat(key);
  if (!format) return { ok: false, reason: "malformed" };
  const row = await storage.keys.byHash(hashKey(key));
  if (!row || row.revokedAt !== null) return { ok: false, reason: "unknown" };
  const org = await getOrg(storage, row.orgId);
  if (!org) return { ok: false, reason: "unknown" };
  return { ok: true, key: row, org, livemode: format.livemode };
}
