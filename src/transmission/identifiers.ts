// Participant identifiers as networks compare them. Peppol identifiers are case-insensitive and
// people write them with spaces, dots or dashes, and sometimes with the identifier scheme's prefix;
// one identifier in any of those spellings must compare equal (a document's own endpoint id against
// the request's, a registration against a send).

export interface ParticipantId {
  scheme: string;
  id: string;
}

const PEPPOL_PREFIX = /^iso6523-actorid-upis::/i;
const SEPARATORS = /[\s.\-/]/g;

/** The form identifiers are stored and compared in. */
export function normalised(participant: ParticipantId): ParticipantId {
  const scheme = participant.scheme.trim().replace(PEPPOL_PREFIX, "").toLowerCase();
  let id = participant.id.trim().replace(PEPPOL_PREFIX, "");
  // `0088:123…` written whole in the id field, with the same scheme beside it.
  if (id.toLowerCase().startsWith(`${scheme}:`)) id = id.slice(scheme.length + 1);
  return { scheme, id: id.replace(SEPARATORS, "").toLowerCase() };
}

export const sameParticipant = (a: ParticipantId, b: ParticipantId) => {
  const [x, y] = [normalised(a), normalised(b)];
  return x.scheme === y.scheme && x.id === y.id;
};

/** Peppol addresses a participant by a four-digit ISO 6523 ICD and a value (the SMP lookup key). */
export function routable(network: string, participant: ParticipantId): string | null {
  const { scheme, id } = normalised(participant);
  if (!id) return "the identifier value is empty";
  if (network === "peppol" && !/^\d{4}$/.test(scheme)) return `'${participant.scheme}' is not a four-digit ISO 6523 scheme (ICD), e.g. 0088 or 0192`;
  if (!scheme) return "the identifier scheme is empty";
  return null;
}

export const display = (participant: ParticipantId) => `${participant.scheme}:${participant.id}`;
