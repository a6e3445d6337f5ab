// Seller (BG-4), buyer (BG-7), payee (BG-10), seller tax representative (BG-11) and a line's own
// seller (French CTC, EXT-FR-FE-164..177, on the item's cac:ManufacturerParty) <-> the UBL party
// aggregates. The SEPA creditor identifier (BT-90) travels as a party identifier with
// scheme `SEPA` on the payee, or on the seller when there is no payee; it belongs to the direct
// debit in the model, so party readers leave it out when the document has payment instructions.

import type { Buyer, Contact, Identifier, LineSeller, Payee, Seller, TaxRepresentative } from "../../model/index.ts";
import { VAT_SCHEME } from "../values.ts";
import { always, group, leaf, type XmlNode } from "../xml-writer.ts";
import { readAddress, writeAddress } from "./address.ts";
import { readIdentifier, writeIdentifier } from "./values.ts";
import { ubl, type Element } from "./vocabulary.ts";

export const SEPA_SCHEME = "SEPA";

/** Party identifiers, without the SEPA creditor id when that one is carried by the direct debit. */
function partyIdentifiers(party: Element, creditorIdElsewhere: boolean): Identifier[] {
  return ubl
    .all(party, "cac:PartyIdentification")
    .filter((pi) => ubl.matches(pi, "cbc:ID/@schemeID", (scheme) => !(creditorIdElsewhere && scheme === SEPA_SCHEME)))
    .flatMap((pi) => readIdentifier(pi, "cbc:ID") ?? []);
}

/**
 * CompanyID of the party tax scheme whose scheme is (or is not) VAT. Only the VAT scheme makes a
 * VAT identifier (the CEN rules, e.g. BR-CO-09, select it so); an id under another scheme is the
 * seller's BT-32 or the buyer's tax registration (model/party.ts), its scheme meaning "not VAT".
 */
function taxSchemeId(party: Element, vat: boolean): string | undefined {
  const scheme = ubl
    .all(party, "cac:PartyTaxScheme")
    .find((s) => ubl.matches(s, "cac:TaxScheme/cbc:ID", (id) => (id?.toUpperCase() === VAT_SCHEME) === vat));
  return scheme && ubl.text(scheme, "cbc:CompanyID");
}

function readContact(party: Element): Contact | undefined {
  const contact = ubl.one(party, "cac:Contact");
  if (!contact) return undefined;
  return {
    name: ubl.text(contact, "cbc:Name"),
    telephone: ubl.text(contact, "cbc:Telephone"),
    email: ubl.text(contact, "cbc:ElectronicMail"),
  };
}

function writeContact(contact: Contact | undefined): XmlNode | undefined {
  return (
    contact &&
    group("cac:Contact", leaf("cbc:Name", contact.name), leaf("cbc:Telephone", contact.telephone), leaf("cbc:ElectronicMail", contact.email))
  );
}

function writePartyTaxScheme(companyId: string | undefined, scheme: string): XmlNode | undefined {
  return companyId === undefined
    ? undefined
    : always("cac:PartyTaxScheme", leaf("cbc:CompanyID", companyId), always("cac:TaxScheme", leaf("cbc:ID", scheme)));
}

function writePartyIdentification(id: Identifier | undefined): XmlNode | undefined {
  return id && always("cac:PartyIdentification", writeIdentifier("cbc:ID", id));
}

function writePartyName(name: string | undefined): XmlNode | undefined {
  return group("cac:PartyName", leaf("cbc:Name", name));
}

export function readSeller(supplier: Element | undefined, creditorIdElsewhere: boolean): Seller {
  const party = supplier && ubl.one(supplier, "cac:Party");
  if (!party) return { name: "", identifiers: [], address: { countryCode: "" } };
  return {
    name: ubl.text(party, "cac:PartyLegalEntity/cbc:RegistrationName") ?? "",
    tradingName: ubl.text(party, "cac:PartyName/cbc:Name"),
    identifiers: partyIdentifiers(party, creditorIdElsewhere),
    legalRegistrationId: readIdentifier(party, "cac:PartyLegalEntity/cbc:CompanyID"),
    vatId: taxSchemeId(party, true),
    taxRegistrationId: taxSchemeId(party, false),
    additionalLegalInfo: ubl.text(party, "cac:PartyLegalEntity/cbc:CompanyLegalForm"),
    electronicAddress: readIdentifier(party, "cbc:EndpointID"),
    address: readAddress(ubl.one(party, "cac:PostalAddress")) ?? { countryCode: "" },
    contact: readContact(party),
  };
}

/** `creditorId` is BT-90 when the seller carries it (no payee). */
export function writeSeller(seller: Seller, creditorId: string | undefined): XmlNode {
  return always(
    "cac:AccountingSupplierParty",
    always(
      "cac:Party",
      writeIdentifier("cbc:EndpointID", seller.electronicAddress),
      seller.identifiers.map(writePartyIdentification),
      creditorId !== undefined && writePartyIdentification({ value: creditorId, scheme: SEPA_SCHEME }),
      writePartyName(seller.tradingName),
      writeAddress("cac:PostalAddress", seller.address),
      writePartyTaxScheme(seller.vatId, VAT_SCHEME),
      // Any scheme other than VAT reads back as BT-32; `TAX` is the one Peppol BIS and most of
      // our corpus use. The source's own scheme code is not an EN 16931 term and is not kept.
      writePartyTaxScheme(seller.taxRegistrationId, "TAX"),
      always(
        "cac:PartyLegalEntity",
        leaf("cbc:RegistrationName", seller.name),
        writeIdentifier("cbc:CompanyID", seller.legalRegistrationId),
        leaf("cbc:CompanyLegalForm", seller.additionalLegalInfo),
      ),
      writeContact(seller.contact),
    ),
  );
}

export function readBuyer(customer: Element | undefined): Buyer {
  const party = customer && ubl.one(customer, "cac:Party");
  if (!party) return { name: "", address: { countryCode: "" } };
  return {
    name: ubl.text(party, "cac:PartyLegalEntity/cbc:RegistrationName") ?? "",
    tradingName: ubl.text(party, "cac:PartyName/cbc:Name"),
    identifier: readIdentifier(party, "cac:PartyIdentification/cbc:ID"),
    legalRegistrationId: readIdentifier(party, "cac:PartyLegalEntity/cbc:CompanyID"),
    vatId: taxSchemeId(party, true),
    taxRegistrationId: taxSchemeId(party, false),
    electronicAddress: readIdentifier(party, "cbc:EndpointID"),
    address: readAddress(ubl.one(party, "cac:PostalAddress")) ?? { countryCode: "" },
    contact: readContact(party),
  };
}

export function writeBuyer(buyer: Buyer): XmlNode {
  return always(
    "cac:AccountingCustomerParty",
    always(
      "cac:Party",
      writeIdentifier("cbc:EndpointID", buyer.electronicAddress),
      writePartyIdentification(buyer.identifier),
      writePartyName(buyer.tradingName),
      writeAddress("cac:PostalAddress", buyer.address),
      writePartyTaxScheme(buyer.vatId, VAT_SCHEME),
      writePartyTaxScheme(buyer.taxRegistrationId, "TAX"),
      always(
        "cac:PartyLegalEntity",
        leaf("cbc:RegistrationName", buyer.name),
        writeIdentifier("cbc:CompanyID", buyer.legalRegistrationId),
      ),
      writeContact(buyer.contact),
    ),
  );
}

export function readPayee(party: Element | undefined, creditorIdElsewhere: boolean): Payee | undefined {
  if (!party) return undefined;
  return {
    name: ubl.text(party, "cac:PartyName/cbc:Name") ?? "",
    identifier: partyIdentifiers(party, creditorIdElsewhere)[0],
    legalRegistrationId: readIdentifier(party, "cac:PartyLegalEntity/cbc:CompanyID"),
  };
}

/** `creditorId` is BT-90, carried by the payee when there is one. */
export function writePayee(payee: Payee | undefined, creditorId: string | undefined): XmlNode | undefined {
  if (!payee) return undefined;
  return always(
    "cac:PayeeParty",
    writePartyIdentification(payee.identifier),
    creditorId !== undefined && writePartyIdentification({ value: creditorId, scheme: SEPA_SCHEME }),
    writePartyName(payee.name),
    group("cac:PartyLegalEntity", writeIdentifier("cbc:CompanyID", payee.legalRegistrationId)),
  );
}

export function readTaxRepresentative(party: Element | undefined): TaxRepresentative | undefined {
  if (!party) return undefined;
  return {
    name: ubl.text(party, "cac:PartyName/cbc:Name") ?? "",
    vatId: taxSchemeId(party, true) ?? "",
    address: readAddress(ubl.one(party, "cac:PostalAddress")) ?? { countryCode: "" },
  };
}

export function writeTaxRepresentative(rep: TaxRepresentative | undefined): XmlNode | undefined {
  if (!rep) return undefined;
  return always(
    "cac:TaxRepresentativeParty",
    writePartyName(rep.name),
    writeAddress("cac:PostalAddress", rep.address),
    writePartyTaxScheme(rep.vatId, VAT_SCHEME),
  );
}

/** The line's seller of a French multi-vendor invoice: where the BR-FR rules for UBL look for it. */
export function readLineSeller(party: Element | undefined): LineSeller | undefined {
  const legalRegistrationId = party && readIdentifier(party, "cac:PartyLegalEntity/cbc:CompanyID");
  if (!legalRegistrationId) return undefined;
  return {
    name: ubl.text(party, "cac:PartyLegalEntity/cbc:RegistrationName") ?? "",
    legalRegistrationId,
    countryCode: ubl.text(party, "cac:PostalAddress/cac:Country/cbc:IdentificationCode") ?? "",
  };
}

export function writeLineSeller(seller: LineSeller | undefined): XmlNode | undefined {
  return (
    seller &&
    always(
      "cac:ManufacturerParty",
      always("cac:PostalAddress", always("cac:Country", leaf("cbc:IdentificationCode", seller.countryCode))),
      always("cac:PartyLegalEntity", leaf("cbc:RegistrationName", seller.name), writeIdentifier("cbc:CompanyID", seller.legalRegistrationId)),
    )
  );
}
