// Providers that may call the inbound callback. Each signs its calls per Standard Webhooks with a
// secret the operator registered for it (einvoice inbox-providers add); a rotation keeps the
// previous secret valid beside the new one until the provider has switched.

import type { InboxProviderRow, Storage } from "../db/storage";
import type { Clock } from "../clock";
import { AccountError } from "../accounts/errors";
import { DomainError } from "../errors/domain-error";
import { newSecret, verify } from "./standard-webhooks";
import { NETWORKS } from "./states";

const PROVIDER_ID = /^[a-z0-9][a-z0-9-]{1,62}$/;
/** The new secret and the one before it: enough for a provider to switch without a refused call. */
const SECRETS_KEPT = 2;

export async function registerProvider(storage: Storage, clock: Clock, id: string, network: string): Promise<{ provider: InboxProviderRow; secret: string }> {
  if (!PROVIDER_ID.test(id)) throw new AccountError(`--id must be 2 to 63 lower-case letters, digits or hyphens (it is part of the callback URL), not '${id}'`);
  if (!(NETWORKS as readonly string[]).includes(network)) throw new AccountError(`--network must be one of ${NETWORKS.join(", ")}, not '${network}'`);
  const secret = newSecret();
  const provider = { id, network, secrets: [secret], createdAt: clock().toISOString() };
  if (!(await storage.inboxProviders.insert(provider))) throw new AccountError(`an inbox provider '${id}' exists already (rotate its secret instead)`);
  return { provider, secret };
}

export async function rotateProviderSecret(storage: Storage, id: string): Promise<{ secret: string }> {
  const provider = await storage.inboxProviders.find(id);
  if (!provider) throw new AccountError(`no inbox provider '${id}'`);
  const secret = newSecret();
  await storage.inboxProviders.setSecrets(id, [secret, ...provider.secrets].slice(0, SECRETS_KEPT));
  return { secret };
}

export async function removeProvider(storage: Storage, id: string): Promise<void> {
  if (!(await storage.inboxProviders.remove(id))) throw new AccountError(`no inbox provider '${id}'`);
}

/** The provider a callback claims to come from, once its signature holds; refusals as the spec names them. */
export async function verifiedProvider(storage: Storage, providerId: string, headers: Headers, body: Uint8Array, now: Date): Promise<InboxProviderRow> {
  const provider = await storage.inboxProviders.find(providerId);
  if (!provider) throw new DomainError(404, "INBOX_UNKNOWN_PROVIDER", `no inbox provider '${providerId}' is registered on this deployment`);
  const verdict = verify(provider.secrets, headers, body, Math.floor(now.getTime() / 1000));
  if (verdict.ok) return provider;
  if (verdict.reason === "expired") {
    throw new DomainError(401, "INBOX_SIGNATURE_EXPIRED", "the signature is valid but webhook-timestamp is more than 5 minutes from now: a replay, or a clock far off; nothing was recorded");
  }
  throw new DomainError(
    401,
    "INBOX_VERIFICATION_FAILED",
    verdict.reason === "missing"
      ? "the callback needs webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks); nothing was recorded"
      : "webhook-signature does not verify against this provider's secrets; nothing was recorded",
  );
}
