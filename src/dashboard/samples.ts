// What the playground offers to generate: every standard with its profiles (the specification's
// compatibility table) and an editable sample invoice for each, built from the same scenarios and
// market parties the generation matrix and the bench use (fixtures/invoices.ts).

import { LOCALES, SCENARIOS, type LocaleName } from "../../fixtures/invoices";
import { STANDARD_ENTRIES } from "../profiles/catalogue";
import { allowedProfiles } from "../profiles/lookup";
import { STANDARDS } from "../profiles/ids";

/** The market whose parties each standard's rules accept, as in test/generate/matrix.ts. */
const MARKET: Record<(typeof STANDARDS)[number], LocaleName> = {
  xrechnung: "de",
  zugferd: "de",
  facturx: "fr",
  "peppol-bis": "be",
  fatturapa: "it",
  facturae: "es",
  eslog: "si",
};

const PROFILE_MARKET: Record<string, LocaleName> = { "romania-ro-cius": "ro", "netherlands-nlcius": "nl" };

export function playgroundCatalogue() {
  return STANDARDS.map((standard) => {
    const entry = STANDARD_ENTRIES[standard];
    return {
      standard,
      defaultProfile: entry.defaultProfile,
      profiles: allowedProfiles(standard).map((profile) => {
        const invoice = SCENARIOS[0].build(LOCALES[PROFILE_MARKET[profile] ?? MARKET[standard]]);
        return { profile, invoice: profile === "extended-ctc-fr" ? { ...invoice, franceCtc: true } : invoice };
      }),
    };
  });
}
