// NLCIUS (BR-NL-1, BR-NL-10): a Dutch party's legal entity id is a KvK (0106) or OIN (0190) number.
// It arrives as the `peppol` block and is written as the party legal entity company id too; 9944
// (the VAT scheme) routes but does not identify the legal entity. Parse drops a legal entity id
// that only repeats a KvK or OIN electronic address: that is the routing, not a `registrationId`.

import type { Identifier } from "../model/index.ts";
import type { InvoiceInput } from "../invoice/schema.ts";
import { DUTCH_LEGAL_ENTITY_SCHEMES } from "../standards/eas.ts";
import { DomainError } from "../errors/domain-error.ts";
import { ROLES, type Overlay, type Role } from "./overlay.ts";

function legalEntity(party: InvoiceInput["seller"], role: Role): Identifier | undefined {
  const peppol = party.peppol;
  if (peppol && DUTCH_LEGAL_ENTITY_SCHEMES.includes(peppol.schemeId)) return { value: peppol.id, scheme: peppol.schemeId };
  if (party.address.countryCode !== "NL") return undefined;
  throw new DomainError(
    400,
    "INVALID_REQUEST",
    `the ${role} is in the Netherlands: netherlands-nlcius needs its legal entity id as ${role}.peppol with schemeId 0106 (KvK) or 0190 (OIN)` +
      (peppol ? `; scheme ${peppol.schemeId} is not sufficient` : ""),
    { party: role, fields: [`/invoice/${role}/peppol`], allowedSchemes: DUTCH_LEGAL_ENTITY_SCHEMES },
  );
}

const sameId = (a: Identifier | undefined, b: Identifier | undefined) => !!a && !!b && a.value === b.value && a.scheme === b.scheme;

export const netherlands: Overlay = {
  party(role, target, { invoice }) {
    const legal = legalEntity(invoice[role], role);
    if (legal) target.legalRegistrationId = legal;
  },
  undo(model, invoice) {
    for (const role of ROLES) {
      const address = model[role].electronicAddress;
      // Only the Dutch schemes are ones this overlay copies; a Swedish 0007 legal id equal to the
      // endpoint is the document's own BT-30, which generate writes only from `registrationId`.
      if (sameId(model[role].legalRegistrationId, address) && DUTCH_LEGAL_ENTITY_SCHEMES.includes(address!.scheme ?? "")) delete invoice[role].registrationId;
    }
  },
};
