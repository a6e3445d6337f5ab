// The electronic address (BT-34 seller, BT-49 buyer) each standard needs, and where it comes from:
// an explicit `peppol` block first, then the party's VAT id under its country's Peppol scheme
// (a routable address beats a mailbox), then, where the standard accepts e-mail, the party's e-mail
// under scheme EM. Peppol and XRechnung require one for each party; the Factur-X levels write one
// when it can be derived and never refuse.

import type { Identifier } from "../model/index.ts";
import type { InvoiceInput } from "../invoice/schema.ts";
import { EMAIL_EAS, VAT_EAS_BY_COUNTRY } from "../standards/eas.ts";
import type { AddressRule } from "../profiles/record.ts";
import { DomainError } from "../errors/domain-error.ts";

type Party = InvoiceInput["seller"];
type Source = "peppol" | "vatId" | "email";

const RULES: Record<AddressRule, { sources: readonly Source[]; required: boolean }> = {
  peppol: { sources: ["peppol", "vatId"], required: true },
  xrechnung: { sources: ["peppol", "vatId", "email"], required: true },
  optional: { sources: ["peppol", "vatId", "email"], required: false },
};

const FROM: Record<Source, (p: Party) => Identifier | undefined> = {
  peppol: (p) => p.peppol && { value: p.peppol.id, scheme: p.peppol.schemeId },
  vatId: (p) => {
    const scheme = VAT_EAS_BY_COUNTRY[p.address.countryCode];
    return p.vatId !== undefined && scheme ? { value: p.vatId, scheme } : undefined;
  },
  email: (p) => p.email === undefined ? undefined : { value: p.email, scheme: EMAIL_EAS },
};

const WHAT: Record<Source, string> = {
  peppol: "peppol",
  vatId: "vatId with an address.countryCode that has a Peppol VAT scheme",
  email: "email",
};

export function electronicAddressOf(party: Party, role: "seller" | "buyer", rule: AddressRule, standard: string): Identifier | undefined {
  const { sources, required } = RULES[rule];
  for (const source of sources) {
    const id = FROM[source](party);
    if (id) return id;
  }
  if (!required) return undefined;
  throw new DomainError(
    400,
    "INVALID_REQUEST",
    `the ${role} has no electronic address for ${standard}: give ${role}.${sources.map((s) => WHAT[s]).join(", or ")}`,
    {
      party: role,
      fields: sources.map((s) => `/invoice/${role}/${s}`),
      ...(sources.includes("vatId") && { vatSchemeCountries: Object.keys(VAT_EAS_BY_COUNTRY) }),
    },
  );
}
