// The electronic address (BT-34 seller, BT-49 buyer) each standard needs, and where it comes from:
// an explicit `peppol` block first, then the party's VAT id under its country's Peppol scheme
// (a routable address beats a mailbox), then, where the standard accepts e-mail, the party's e-mail
// under scheme EM. Peppol and XRechnung require one for each party; the Factur-X levels write one
// when it can be derived and never refuse. Parse gives an address back as `peppol` unless generate
// would have derived it itself.

import type { Buyer, Identifier, Seller } from "../model/index.ts";
import type { InvoiceInput } from "../invoice/schema.ts";
import { EMAIL_EAS, VAT_EAS_BY_COUNTRY } from "../standards/eas.ts";
import type { AddressRule } from "../profiles/record.ts";
import { DomainError } from "../errors/domain-error.ts";
import { ROLES, type Overlay, type Role } from "./overlay.ts";

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

function electronicAddressOf(party: Party, role: Role, rule: AddressRule, standard: string): Identifier | undefined {
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

/** True when generate would have derived this address itself from the party's e-mail or VAT id. */
function derived(party: Seller | Buyer): boolean {
  const address = party.electronicAddress;
  if (!address) return false;
  if (address.scheme === EMAIL_EAS) return address.value === party.contact?.email;
  return address.value === party.vatId && address.scheme === VAT_EAS_BY_COUNTRY[party.address.countryCode];
}

export const electronicAddress: Overlay = {
  party(role, target, { invoice, write, standard }) {
    const address = electronicAddressOf(invoice[role], role, write.electronicAddress, standard);
    if (address) target.electronicAddress = address;
  },
  undo(model, invoice) {
    for (const role of ROLES) {
      const address = model[role].electronicAddress;
      if (!address || derived(model[role])) continue;
      // An e-mail address (scheme EM) is what generate writes from `email`; the API has no other
      // place for it, so a party without a contact e-mail gets it there.
      if (address.scheme === EMAIL_EAS && invoice[role].email === undefined) invoice[role].email = address.value;
      else invoice[role].peppol = { schemeId: address.scheme ?? "", id: address.value };
    }
  },
};
