// Dashboard sessions: a random token in an HttpOnly, SameSite=Strict cookie (Secure over https),
// only its SHA-256 in the database, and a synchronizer CSRF token tied to the session that every
// state-changing request must carry (a form field, or the X-CSRF-Token header of the playground's
// calls to /v1).

import type { Deps } from "../api/deps";
import type { Caller } from "../api/route";
import type { DashboardSessionRow } from "../db/storage";
import { getOrg, type Organization } from "../accounts/orgs";
import { sha256Hex } from "../rulesets/seal";
import { ApiError } from "../api/errors";

const SESSION_COOKIE = "einvoice_session";
/** Before sign-in there is no session to tie a token to: the sign-in forms double-submit this cookie's value. */
export const PRE_SESSION_COOKIE = "einvoice_presession";
const CSRF_HEADER = "x-csrf-token";
/** The playground's own live/test switch; anything but `live` is test, so a forgotten header never bills. */
const MODE_HEADER = "x-dashboard-mode";

const SESSION_HOURS = 12;

export const randomToken = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");

export function cookies(request: Request): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0) found.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return found;
}

/** Secure only over https: a plain-http appliance on a LAN must still be able to sign in. */
export function cookieHeader(request: Request, name: string, value: string, maxAgeSeconds: number): string {
  const secure = new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

/** Constant-time comparison of two tokens, so a CSRF check leaks nothing by its timing. */
export function sameToken(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export interface Session {
  row: DashboardSessionRow;
  org: Organization;
}

/** Opens a session and returns the Set-Cookie value that carries it. */
export async function openSession(deps: Deps, request: Request, orgId: string, userId: string | null): Promise<string> {
  const token = randomToken();
  const now = deps.clock();
  // Signing in is rare enough to carry the clean-up of what has expired.
  await deps.storage.dashboard.purgeExpired(now.toISOString());
  await deps.storage.dashboard.insertSession({
    tokenHash: sha256Hex(token),
    orgId,
    userId,
    csrfToken: randomToken(),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + SESSION_HOURS * 3_600_000).toISOString(),
  });
  return cookieHeader(request, SESSION_COOKIE, token, SESSION_HOURS * 3600);
}

export async function currentSession(deps: Deps, request: Request): Promise<Session | null> {
  const token = cookies(request).get(SESSION_COOKIE);
  if (!token) return null;
  const row = await deps.storage.dashboard.session(sha256Hex(token), deps.clock().toISOString());
  const org = row && (await getOrg(deps.storage, row.orgId));
  return row && org ? { row, org } : null;
}

export async function closeSession(deps: Deps, request: Request): Promise<string> {
  const token = cookies(request).get(SESSION_COOKIE);
  if (token) await deps.storage.dashboard.deleteSession(sha256Hex(token));
  return cookieHeader(request, SESSION_COOKIE, "", 0);
}

/**
 * The caller of a /v1 request made by a signed-in page: no API key, the session cookie and its
 * CSRF token in the header. Null when the request carries no session cookie (the API key path
 * decides then). Metered like a key of the mode the playground's switch names.
 */
export async function sessionCaller(deps: Deps, request: Request): Promise<Caller | null> {
  if (!cookies(request).has(SESSION_COOKIE)) return null;
  const session = await currentSession(deps, request);
  if (!session) throw new ApiError(401, "AUTHENTICATION_REQUIRED", "the dashboard session has expired: sign in again");
  if (!sameToken(request.headers.get(CSRF_HEADER), session.row.csrfToken)) {
    throw new ApiError(401, "AUTHENTICATION_REQUIRED", "a dashboard session must send its CSRF token in the X-CSRF-Token header");
  }
  return { key: null, presentedKey: null, org: session.org, livemode: request.headers.get(MODE_HEADER) === "live" };
}
