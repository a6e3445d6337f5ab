// Who may open a session: a dashboard user with a password (argon2id through Bun.password), or
// whoever holds a one-time link printed by the CLI. Failed and successful password attempts alike
// count against the client address and the email (storage.counters), so guessing is slow from
// one address and slow against one account from many.

import type { Storage } from "../db/storage";
import type { Clock } from "../clock";
import type { Organization } from "../accounts/orgs";
import { AccountError } from "../accounts/errors";
import { sha256Hex } from "../rulesets/seal";
import { randomToken } from "./session";

const LINK_MINUTES = 15;
const ATTEMPTS_PER_ADDRESS_PER_MINUTE = 10;
const ATTEMPTS_PER_EMAIL_PER_MINUTE = 5;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MIN_PASSWORD = 12;

const normalEmail = (email: string) => email.trim().toLowerCase();

export async function addUser(storage: Storage, clock: Clock, org: Organization, email: string, password: string): Promise<{ userId: string; email: string }> {
  const address = normalEmail(email);
  if (!EMAIL.test(address) || address.length > 254) throw new AccountError(`'${email}' is not an email address`);
  if (password.length < MIN_PASSWORD) throw new AccountError(`a dashboard password has at least ${MIN_PASSWORD} characters`);
  const id = crypto.randomUUID();
  const passwordHash = await Bun.password.hash(password, { algorithm: "argon2id" });
  if (!(await storage.dashboard.insertUser({ id, orgId: org.id, email: address, passwordHash, createdAt: clock().toISOString() }))) {
    throw new AccountError(`a dashboard user '${address}' exists already`);
  }
  return { userId: id, email: address };
}

/** A link token, shown once; only its hash is stored. */
export async function createSignInLink(storage: Storage, clock: Clock, org: Organization): Promise<{ token: string; expiresAt: string }> {
  const token = randomToken();
  const now = clock();
  const expiresAt = new Date(now.getTime() + LINK_MINUTES * 60_000).toISOString();
  await storage.dashboard.insertLink({ tokenHash: sha256Hex(token), orgId: org.id, createdAt: now.toISOString(), expiresAt, usedAt: null });
  return { token, expiresAt };
}

export async function linkSignIn(storage: Storage, clock: Clock, token: string): Promise<string | undefined> {
  return storage.dashboard.useLink(sha256Hex(token), clock().toISOString());
}

/** Verified against when the email is unknown, so a wrong email costs the same time as a wrong password. */
let decoy: Promise<string> | undefined;

type PasswordOutcome = { ok: true; orgId: string; userId: string } | { ok: false; throttled: boolean; retryAfterSeconds?: number };

export async function passwordSignIn(storage: Storage, clock: Clock, clientAddress: string, email: string, password: string): Promise<PasswordOutcome> {
  const address = normalEmail(email);
  const nowMs = clock().getTime();
  for (const [counter, limit] of [
    [`dashboard-sign-in:address:${clientAddress}`, ATTEMPTS_PER_ADDRESS_PER_MINUTE],
    [`dashboard-sign-in:email:${address}`, ATTEMPTS_PER_EMAIL_PER_MINUTE],
  ] as const) {
    const verdict = await storage.counters.take(counter, limit, nowMs);
    if (!verdict.allowed) return { ok: false, throttled: true, retryAfterSeconds: verdict.resetSeconds };
  }
  const user = await storage.dashboard.userByEmail(address);
  const hash = user?.passwordHash ?? (await (decoy ??= Bun.password.hash(randomToken(), { algorithm: "argon2id" })));
  const matches = await Bun.password.verify(password, hash);
  return user && matches ? { ok: true, orgId: user.orgId, userId: user.id } : { ok: false, throttled: false };
}
