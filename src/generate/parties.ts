// Completes the model's seller and buyer with what the standard demands beyond the API fields: the
// electronic address, and for the Dutch overlay the legal-entity id routed through `peppol`.

import type { Identifier, Invoice } from "../model/index.ts";
import type { InvoiceInput } from "../invoice/schema.ts";
import { DUTCH_LEGAL_ENTITY_SCHEMES } from "../standards/eas.ts";
import type { Standard } from "../profiles/ids.ts";
import type { Writing } from "../profiles/record.ts";
import { electronicAddressOf } from "./electronic-address.ts";
import { DomainError } from "../errors/domain-error.ts";

type Party = InvoiceInput["seller"];

/**
 * NLCIUS (BR-NL-1, BR-NL-10): a Dutch party's legal entity id is a KvK (0106) or OIN (0190)
 * number. It arrives as the `peppol` block and is written as the party legal entity company id
 * too; 9944 (the VAT scheme) routes but does not identify the legal entity.
 */
function dutchLegalEntity(party: Party, role: "seller" | "buyer"): Identifier | undefined {
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

export function completeParties(model: Invoice, invoice: InvoiceInput, write: Writing, standard: Standard): void {
  for (const role of ["seller", "buyer"] as const) {
    const target = model[role];
    const address = electronicAddressOf(invoice[role], role, write.electronicAddress, standard);
    if (address) target.electronicAddress = address;
    if (write.overlay === "netherlands") {
      const legal = dutchLegalEntity(invoice[role], role);
      if (legal) target.legalRegistrationId = legal;
    }
  }
}
