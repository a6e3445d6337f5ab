// What the playground offers to generate: every standard with its profiles (the specification's
// compatibility table) and an editable sample invoice for each, built from the same scenarios and
// market parties the generation matrix and the bench use (fixtures/invoices.ts).

import { LOCALES, SCENARIOS, type LocaleName } from "../../fixtures/invoices";
import { STANDARD_ENTRIES } from "../profiles/catalogue";
import { allowedProfiles, recordById } from "../profiles/lookup";
import type { Writing } from "../profiles/record";
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

/** A national overlay's rules want that nation's parties (the overlay is the catalogue's fact). */
const OVERLAY_MARKET: Record<NonNullable<Writing["overlay"]>, LocaleName> = { romania: "ro", netherlands: "nl" };

function marketOf(standard: (typeof STANDARDS)[number], profile: string): LocaleName {
  const [recordId] = STANDARD_ENTRIES[standard].profiles[profile as keyof (typeof STANDARD_ENTRIES)[typeof standard]["profiles"]] ?? [];
  const overlay = recordId ? recordById(recordId).write?.overlay : undefined;
  return overlay ? OVERLAY_MARKET[overlay] : MARKET[standard];
}

export function playgroundCatalogue() {
  return STANDARDS.map((standard) => {
    const entry = STANDARD_ENTRIES[standard];
    return {
      standard,
      defaultProfile: entry.defaultProfile,
      profiles: allowedProfiles(standard).map((profile) => {
        const invoice = SCENARIOS[0].build(LOCALES[marketOf(standard, profile)]);
        return { profile, invoice: profile === "extended-ctc-fr" ? { ...invoice, franceCtc: true } : invoice };
      }),
    };
  });
}
