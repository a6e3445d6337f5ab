import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/connection";
import { apiKeys } from "../db/schema";
import { preparedOn } from "../db/prepared";
import type { Clock } from "../clock";
import { AccountError } from "./errors";
import { getOrg, type Organization } from "./orgs";
import type { Result } from "../errors/result";

export type ApiKey = typeof apiKeys.$inferSelect;

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

export function createKey(db: Db, clock: Clock, org: Organization, mode: string, label?: string): CreatedKey {
  if (mode !== "live" && mode !== "test") throw new AccountError(`--mode must be live or test, not '${mode}'`);
  if (label !== undefined && label.length > 200) throw new AccountError("a key label has at most 200 characters");
  const key = `svc_${mode}_${randomSecret()}`;
  const keyId = crypto.randomUUID();
  db.insert(apiKeys)
    .values({ id: keyId, orgId: org.id, keyHash: hashKey(key), label: label ?? null, livemode: mode === "live", createdAt: clock().toISOString() })
    .run();
  return { keyId, key, orgId: org.id, livemode: mode === "live" };
}

interface KeyListing {
  keyId: string;
  label: string | null;
  livemode: boolean;
  createdAt: string;
  revokedAt: string | null;
}

export function listKeys(db: Db, org: Organization): KeyListing[] {
  return db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.orgId, org.id))
    .orderBy(apiKeys.createdAt)
    .all()
    .map((k) => ({ keyId: k.id, label: k.label, livemode: k.livemode, createdAt: k.createdAt, revokedAt: k.revokedAt }));
}

export function revokeKey(db: Db, clock: Clock, keyId: string): void {
  const revoked = db
    .update(apiKeys)
    .set({ revokedAt: clock().toISOString() })
    .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning()
    .get();
  if (revoked) return;
  const existing = db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).get();
  throw new AccountError(existing ? `key ${keyId} is revoked already` : `no key with id '${keyId}'`);
}

type Authentication = Result<{ key: ApiKey; org: Organization; livemode: boolean }, { reason: "malformed" | "unknown" }>;

const keyByHash = preparedOn((db) => db.select().from(apiKeys).where(eq(apiKeys.keyHash, sql.placeholder("hash"))).prepare());

/** Looks the key up by hash on every request, so a revocation takes effect on the next one. */
export function authenticate(db: Db, key: string): Authentication {
  const format = keyFormat(key);
  if (!format) return { ok: false, reason: "malformed" };
  const row = keyByHash(db).get({ hash: hashKey(key) });
  if (!row || row.revokedAt !== null) return { ok: false, reason: "unknown" };
  const org = getOrg(db, row.orgId);
  if (!org) return { ok: false, reason: "unknown" };
  return { ok: true, key: row, org, livemode: format.livemode };
}
