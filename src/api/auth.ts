import { authenticate } from "../accounts/keys";
import { ApiError } from "./errors";
import type { Caller } from "./route";
import type { Storage } from "../db/storage";

/** The mode a request claims by its key's prefix, before the key is checked; no key reads as live. */
export function claimedLivemode(request: Request): boolean {
  const sent = request.headers.get("x-api-key") ?? request.headers.get("authorization")?.replace(/^Bearer\s+/i, "") ?? "";
  return !sent.trim().startsWith("svc_test_");
}

/** The key from `Authorization: Bearer` or `X-API-Key`; two different keys are ambiguous. */
export function presentedKey(request: Request): string | null {
  const authorization = request.headers.get("authorization");
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1] ?? null;
  if (authorization !== null && bearer === null) {
    throw new ApiError(401, "AUTHENTICATION_REQUIRED", "the Authorization header must read 'Bearer <API key>'");
  }
  const headerKey = request.headers.get("x-api-key")?.trim() || null;
  if (bearer && headerKey && bearer !== headerKey) {
    throw new ApiError(401, "AUTHENTICATION_REQUIRED", "Authorization and X-API-Key carry different keys; send one key");
  }
  return bearer ?? headerKey;
}

export async function authenticateRequest(storage: Storage, request: Request): Promise<Caller> {
  const key = presentedKey(request);
  if (!key) {
    throw new ApiError(401, "AUTHENTICATION_REQUIRED", "this route needs an API key: send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'");
  }
  const result = await authenticate(storage, key);
  if (!result.ok && result.reason === "malformed") {
    throw new ApiError(401, "AUTHENTICATION_REQUIRED", "the API key is not in a valid format (expected svc_live_… or svc_test_… followed by at least 32 letters and digits)");
  }
  if (!result.ok) throw new ApiError(403, "INVALID_API_KEY", "this API key does not exist or has been revoked");
  return { key: result.key, presentedKey: key, org: result.org, livemode: result.livemode };
}
