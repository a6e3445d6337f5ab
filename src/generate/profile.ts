// Which catalogue record a request means: `profile`, or its alias `facturxProfile` for the Factur-X
// family, or the standard's default; and the syntax, where the standard offers two.

import { STANDARD_ENTRIES } from "../profiles/catalogue.ts";
import { isEn16931Syntax, type En16931Syntax, type RequestProfile, type Standard } from "../profiles/ids.ts";
import { allowedProfiles, recordById } from "../profiles/lookup.ts";
import type { ProfileRecord, Writing } from "../profiles/record.ts";
import { DomainError } from "../errors/domain-error.ts";
import type { GenerateRequestInput } from "./request.ts";

type Selectors = Pick<GenerateRequestInput, "standard" | "profile" | "facturxProfile" | "syntax">;

const FACTURX_FAMILY: ReadonlySet<Standard> = new Set(["zugferd", "facturx"]);

function mismatch(standard: Standard, profile: string, message: string, extra: Record<string, unknown> = {}): DomainError {
  return new DomainError(422, "PROFILE_STANDARD_MISMATCH", message, { standard, profile, ...extra, allowedProfiles: allowedProfiles(standard) });
}

/** The profile the request names (or the default); 422 PROFILE_STANDARD_MISMATCH outside the table. */
export function resolveProfile({ standard, profile, facturxProfile }: Selectors): RequestProfile {
  if (facturxProfile !== undefined && !FACTURX_FAMILY.has(standard)) {
    throw mismatch(standard, profile ?? facturxProfile, `facturxProfile applies to zugferd and facturx only; for ${standard} use profile`, { facturxProfile });
  }
  if (profile !== undefined && facturxProfile !== undefined && profile !== facturxProfile) {
    throw mismatch(standard, profile, `profile "${profile}" and facturxProfile "${facturxProfile}" disagree; send one of them`, { facturxProfile });
  }
  const entry = STANDARD_ENTRIES[standard];
  const chosen = profile ?? facturxProfile ?? entry.defaultProfile;
  if (!(chosen in entry.profiles)) {
    throw mismatch(standard, chosen, `profile "${chosen}" is not available for ${standard}; allowed: ${allowedProfiles(standard).join(", ")}`);
  }
  return chosen;
}

type WritableRecord = ProfileRecord & { syntax: En16931Syntax; write: Writing };

const writable = (record: ProfileRecord): record is WritableRecord => record.write !== undefined && isEn16931Syntax(record.syntax);

/**
 * The record of an accepted EN 16931 profile in the syntax to write: the standard's default, or the
 * alternative the request names. (The national standards have their own writers: national.ts.)
 */
export function writerRecord({ standard, syntax: requested }: Selectors, profile: RequestProfile): WritableRecord {
  const records = (STANDARD_ENTRIES[standard].profiles[profile] ?? []).map(recordById);
  const [preferred] = records;
  if (!preferred || !writable(preferred)) throw new Error(`the catalogue names no EN 16931 writer for ${standard} ${profile}`);
  if (requested === undefined || requested === preferred.syntax) return preferred;
  const alternative = records.find((r) => r.syntax === requested);
  if (alternative && writable(alternative)) return alternative;
  throw mismatch(standard, profile, `${standard} ${profile} is written in ${preferred.syntax.toUpperCase()} only; syntax "${requested}" is not available`, { syntax: requested });
}
