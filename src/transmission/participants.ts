// The sender identifiers an organization may send from. The operator registers them (CLI, later the
// dashboard) and confirms them once the organization has shown it holds the identifier; send and
// transmissions refuse any other sender, before anything is queued or billed.

import type { ParticipantRow, Storage } from "../db/storage";
import type { Clock } from "../clock";
import { AccountError } from "../accounts/errors";
import type { Organization } from "../accounts/orgs";
import { normalised, type ParticipantId } from "./identifiers";

interface Registration extends ParticipantId {
  country?: string;
  confirmed: boolean;
}

const COUNTRY = /^[A-Z]{2}$/;

export async function registerParticipant(storage: Storage, clock: Clock, org: Organization, registration: Registration): Promise<ParticipantRow> {
  const { scheme, id } = normalised(registration);
  if (!scheme || !id) throw new AccountError("a participant needs a non-empty --scheme and --id");
  if (scheme.length > 64 || id.length > 256) throw new AccountError("a participant's scheme has at most 64 characters and its id at most 256");
  const country = registration.country?.trim().toUpperCase();
  if (country !== undefined && !COUNTRY.test(country)) throw new AccountError(`--country must be an ISO 3166-1 alpha-2 code such as DE or FR, not '${registration.country}'`);
  const existing = await storage.participants.find(org.id, scheme, id);
  const row: ParticipantRow = {
    orgId: org.id,
    scheme,
    identifier: id,
    country: country ?? existing?.country ?? null,
    confirmed: registration.confirmed || (existing?.confirmed ?? false),
    createdAt: existing?.createdAt ?? clock().toISOString(),
  };
  await storage.participants.upsert(row);
  return row;
}

export async function confirmParticipant(storage: Storage, org: Organization, participant: ParticipantId): Promise<ParticipantRow> {
  const { scheme, id } = normalised(participant);
  const existing = await storage.participants.find(org.id, scheme, id);
  if (!existing) throw new AccountError(`${scheme}:${id} is not registered for organization ${org.name}`);
  const row = { ...existing, confirmed: true };
  await storage.participants.upsert(row);
  return row;
}

export async function removeParticipant(storage: Storage, org: Organization, participant: ParticipantId): Promise<void> {
  const { scheme, id } = normalised(participant);
  if (!(await storage.participants.remove(org.id, scheme, id))) throw new AccountError(`${scheme}:${id} is not registered for organization ${org.name}`);
}

/** The registration a send from `sender` stands on, or why there is none. */
export async function senderRegistration(storage: Storage, orgId: string, sender: ParticipantId): Promise<ParticipantRow | undefined> {
  const { scheme, id } = normalised(sender);
  return storage.participants.find(orgId, scheme, id);
}
