// Which row of the standards table a request means: `profile`, or its alias `facturxProfile` for
// the Factur-X family, or the standard's default; and the syntax, where the standard offers two.

import { allowedProfiles, STANDARD_TABLE, type Profile, type ProfileRow, type Standard } from "../standards/table.ts";
import { GenerateError } from "./errors.ts";
import type { GenerateRequestInput } from "./request.ts";

type Selectors = Pick<GenerateRequestInput, "standard" | "profile" | "facturxProfile" | "syntax">;

const FACTURX_FAMILY: ReadonlySet<Standard> = new Set(["zugferd", "facturx"]);

function mismatch(standard: Standard, profile: string, message: string, extra: Record<string, unknown> = {}): GenerateError {
  return new GenerateError(422, "PROFILE_STANDARD_MISMATCH", message, { standard, profile, ...extra, allowedProfiles: allowedProfiles(standard) });
}

/** The profile the request names (or the default); 422 PROFILE_STANDARD_MISMATCH outside the table. */
export function resolveProfile({ standard, profile, facturxProfile }: Selectors): Profile {
  if (facturxProfile !== undefined && !FACTURX_FAMILY.has(standard)) {
    throw mismatch(standard, profile ?? facturxProfile, `facturxProfile applies to zugferd and facturx only; for ${standard} use profile`, { facturxProfile });
  }
  if (profile !== undefined && facturxProfile !== undefined && profile !== facturxProfile) {
    throw mismatch(standard, profile, `profile "${profile}" and facturxProfile "${facturxProfile}" disagree; send one of them`, { facturxProfile });
  }
  const table = STANDARD_TABLE[standard];
  const chosen = profile ?? facturxProfile ?? table.defaultProfile;
  if (!(chosen in table.profiles)) {
    throw mismatch(standard, chosen, `profile "${chosen}" is not available for ${standard}; allowed: ${allowedProfiles(standard).join(", ")}`);
  }
  return chosen;
}

/**
 * The writer row of an accepted profile and the syntax to write. Standards whose writer does not
 * exist yet are refused with 422 VALIDATION_ERROR and `details.generationAvailable: false`.
 */
export function writerRow({ standard, syntax: requested }: Selectors, profile: Profile): { row: ProfileRow; syntax: "cii" | "ubl" } {
  const row = STANDARD_TABLE[standard].profiles[profile];
  if (!row || !STANDARD_TABLE[standard].writerAvailable) {
    throw new GenerateError(422, "VALIDATION_ERROR", `generating ${standard} documents is not available yet; ${standard} documents can be validated with POST /v1/validate`, {
      standard,
      profile,
      generationAvailable: false,
    });
  }
  const syntax = requested === "ubl" && row.ublTarget ? "ubl" : row.target.syntax;
  if (requested !== undefined && requested !== syntax) {
    throw mismatch(standard, profile, `${standard} ${profile} is written in ${syntax.toUpperCase()} only; syntax "${requested}" is not available`, { syntax: requested });
  }
  return { row, syntax };
}
