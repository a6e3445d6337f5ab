// Parties: seller (BG-4), buyer (BG-7), payee (BG-10), seller tax representative (BG-11), with their
// postal addresses and contacts, and a line's own seller (French CTC, EXT-FR-FE-164..177). All are
// `ram:TradePartyType`; identifiers with a scheme go to `ram:GlobalID`, those without to `ram:ID`
// (EN 16931 CII binding).

import type { Address, Buyer, Contact, Identifier, LineSeller, Payee, Seller, TaxRepresentative } from "../../model/index.ts";
import { ADDRESS_TERMS, CONTACT_TERMS, type AddressTerms, type ContactTerms } from "../terms.ts";
import { firstRead, identifier } from "../values.ts";
import { attrOf, textOf } from "../xml-reader.ts";
import { group, type XmlNode } from "../xml-writer.ts";
import type { Contribution, Header } from "./context.ts";
import { term, unlessEmpty } from "./values.ts";
import { cii, type Element } from "./vocabulary.ts";

export function readAddress(party: Element | undefined): Address | undefined {
  const a = cii.one(party, "ram:PostalTradeAddress");
  if (!a) return undefined;
  return {
    line1: cii.text(a, "ram:LineOne"),
    line2: cii.text(a, "ram:LineTwo"),
    line3: cii.text(a, "ram:LineThree"),
    city: cii.text(a, "ram:CityName"),
    postCode: cii.text(a, "ram:PostcodeCode"),
    countrySubdivision: cii.text(a, "ram:CountrySubDivisionName"),
    countryCode: cii.text(a, "ram:CountryID") ?? "",
  };
}

export function writeAddress(address: Address | undefined, bt: AddressTerms): XmlNode | undefined {
  if (!address) return undefined;
  const [line1, line2, line3, city, postCode, subdivision, country] = bt;
  return group(
    "ram:PostalTradeAddress",
    term("ram:PostcodeCode", address.postCode, postCode),
    term("ram:LineOne", address.line1, line1),
    term("ram:LineTwo", address.line2, line2),
    term("ram:LineThree", address.line3, line3),
    term("ram:CityName", address.city, city),
    term("ram:CountryID", address.countryCode, country),
    term("ram:CountrySubDivisionName", address.countrySubdivision, subdivision),
  );
}

const partyIdElements = (party: Element | undefined) => [...cii.all(party, "ram:ID"), ...cii.all(party, "ram:GlobalID")];

/** The non-blank `ram:ID` and `ram:GlobalID` of a party, in document order. */
function readPartyIds(party: Element | undefined): Identifier[] {
  return partyIdElements(party).flatMap((e) => optionalIdentifier(e) ?? []);
}

/** The first of them, the others left unread where the model has one identifier. */
export const readPartyId = (party: Element | undefined): Identifier | undefined => firstRead(partyIdElements(party), optionalIdentifier);

export function writePartyId(id: Identifier | undefined, bt: string): XmlNode | undefined {
  if (!id) return undefined;
  return id.scheme ? term("ram:GlobalID", id.value, bt, { schemeID: id.scheme }) : term("ram:ID", id.value, bt);
}

/** The identifier an element holds, with its `schemeID`. */
export function identifierOf(element: Element): Identifier {
  return identifier(textOf(element) ?? "", attrOf(element, "schemeID"));
}

function optionalIdentifier(element: Element | undefined): Identifier | undefined {
  const value = textOf(element);
  return value === undefined ? undefined : identifier(value, attrOf(element, "schemeID"));
}

const taxRegistration = (party: Element | undefined, scheme: string): string | undefined =>
  textOf(cii.all(party, "ram:SpecifiedTaxRegistration/ram:ID").find((id) => cii.matches(id, "@schemeID", (s) => s === scheme)));

const writeTaxRegistration = (value: string | undefined, scheme: "VA" | "FC", bt: string | undefined) =>
  group("ram:SpecifiedTaxRegistration", term("ram:ID", value, bt, { schemeID: scheme }));

function readContact(party: Element | undefined): Contact | undefined {
  const c = cii.one(party, "ram:DefinedTradeContact");
  return unlessEmpty({
    name: cii.text(c, "ram:PersonName") ?? cii.text(c, "ram:DepartmentName"),
    telephone: cii.text(c, "ram:TelephoneUniversalCommunication/ram:CompleteNumber"),
    email: cii.text(c, "ram:EmailURIUniversalCommunication/ram:URIID"),
  });
}

function writeContact(contact: Contact | undefined, [name, phone, email]: ContactTerms): XmlNode | undefined {
  if (!contact) return undefined;
  return group(
    "ram:DefinedTradeContact",
    term("ram:PersonName", contact.name, name),
    group("ram:TelephoneUniversalCommunication", term("ram:CompleteNumber", contact.telephone, phone)),
    group("ram:EmailURIUniversalCommunication", term("ram:URIID", contact.email, email)),
  );
}

const electronicAddress = (party: Element | undefined) => optionalIdentifier(cii.one(party, "ram:URIUniversalCommunication/ram:URIID"));

const writeElectronicAddress = (id: Identifier | undefined, bt: string) =>
  id && group("ram:URIUniversalCommunication", term("ram:URIID", id.value, bt, { schemeID: id.scheme }));

const legalRegistration = (party: Element | undefined) => optionalIdentifier(cii.one(party, "ram:SpecifiedLegalOrganization/ram:ID"));

const writeLegalOrganization = (id: Identifier | undefined, bt: string, tradingName?: string, tradingNameBt?: string) =>
  group(
    "ram:SpecifiedLegalOrganization",
    term("ram:ID", id?.value, bt, { schemeID: id?.scheme }),
    term("ram:TradingBusinessName", tradingName, tradingNameBt),
  );

/** What the seller and buyer parties hold alike (and the seller's own terms, optional here). */
type TradeParty = Omit<Buyer, "identifier"> & Partial<Pick<Seller, "additionalLegalInfo">>;

/** The business terms of a `TradeParty`'s elements, for seller or buyer. */
interface TradePartyTerms {
  id: string;
  name: string;
  description?: string;
  legalId: string;
  tradingName: string;
  contact: ContactTerms;
  address: AddressTerms;
  electronicAddress: string;
  vatId: string;
  taxRegistrationId: string;
}

const SELLER_TERMS: TradePartyTerms = {
  id: "BT-29",
  name: "BT-27",
  description: "BT-33",
  legalId: "BT-30",
  tradingName: "BT-28",
  contact: CONTACT_TERMS.seller,
  address: ADDRESS_TERMS.seller,
  electronicAddress: "BT-34",
  vatId: "BT-31",
  taxRegistrationId: "BT-32",
};

const BUYER_TERMS: TradePartyTerms = {
  id: "BT-46",
  name: "BT-44",
  legalId: "BT-47",
  tradingName: "BT-45",
  contact: CONTACT_TERMS.buyer,
  address: ADDRESS_TERMS.buyer,
  electronicAddress: "BT-49",
  vatId: "BT-48",
  taxRegistrationId: "buyer tax registration (no EN 16931 term)",
};

function writeTradeParty(name: string, p: TradeParty, ids: readonly (Identifier | undefined)[], t: TradePartyTerms): XmlNode | undefined {
  return group(
    name,
    ids.map((id) => writePartyId(id, t.id)),
    term("ram:Name", p.name, t.name),
    term("ram:Description", p.additionalLegalInfo, t.description),
    writeLegalOrganization(p.legalRegistrationId, t.legalId, p.tradingName, t.tradingName),
    writeContact(p.contact, t.contact),
    writeAddress(p.address, t.address),
    writeElectronicAddress(p.electronicAddress, t.electronicAddress),
    writeTaxRegistration(p.vatId, "VA", t.vatId),
    writeTaxRegistration(p.taxRegistrationId, "FC", t.taxRegistrationId),
  );
}

export function readSeller(h: Header): Seller {
  const p = cii.one(h.agreement, "ram:SellerTradeParty");
  return {
    name: cii.text(p, "ram:Name") ?? "",
    tradingName: cii.text(p, "ram:SpecifiedLegalOrganization/ram:TradingBusinessName"),
    identifiers: readPartyIds(p),
    legalRegistrationId: legalRegistration(p),
    vatId: taxRegistration(p, "VA"),
    taxRegistrationId: taxRegistration(p, "FC"),
    additionalLegalInfo: cii.text(p, "ram:Description"),
    electronicAddress: electronicAddress(p),
    address: readAddress(p) ?? { countryCode: "" },
    contact: readContact(p),
  };
}

export function writeSeller(s: Seller): Contribution {
  return { agreement: [writeTradeParty("ram:SellerTradeParty", s, s.identifiers, SELLER_TERMS)] };
}

export function readBuyer(h: Header): Buyer {
  const p = cii.one(h.agreement, "ram:BuyerTradeParty");
  return {
    name: cii.text(p, "ram:Name") ?? "",
    tradingName: cii.text(p, "ram:SpecifiedLegalOrganization/ram:TradingBusinessName"),
    identifier: readPartyId(p),
    legalRegistrationId: legalRegistration(p),
    vatId: taxRegistration(p, "VA"),
    taxRegistrationId: taxRegistration(p, "FC"),
    electronicAddress: electronicAddress(p),
    address: readAddress(p) ?? { countryCode: "" },
    contact: readContact(p),
  };
}

export function writeBuyer(b: Buyer): Contribution {
  return { agreement: [writeTradeParty("ram:BuyerTradeParty", b, [b.identifier], BUYER_TERMS)] };
}

export function readPayee(h: Header): Payee | undefined {
  const p = cii.one(h.settlement, "ram:PayeeTradeParty");
  if (!p) return undefined;
  return { name: cii.text(p, "ram:Name") ?? "", identifier: readPartyId(p), legalRegistrationId: legalRegistration(p) };
}

export function writePayee(p: Payee | undefined): Contribution {
  if (!p) return {};
  return {
    settlement: [
      group(
        "ram:PayeeTradeParty",
        writePartyId(p.identifier, "BT-60"),
        term("ram:Name", p.name, "BT-59"),
        writeLegalOrganization(p.legalRegistrationId, "BT-61"),
      ),
    ],
  };
}

export function readTaxRepresentative(h: Header): TaxRepresentative | undefined {
  const p = cii.one(h.agreement, "ram:SellerTaxRepresentativeTradeParty");
  if (!p) return undefined;
  return { name: cii.text(p, "ram:Name") ?? "", vatId: taxRegistration(p, "VA") ?? "", address: readAddress(p) ?? { countryCode: "" } };
}

export function writeTaxRepresentative(t: TaxRepresentative | undefined): Contribution {
  if (!t) return {};
  return {
    agreement: [
      group(
        "ram:SellerTaxRepresentativeTradeParty",
        term("ram:Name", t.name, "BT-62"),
        writeAddress(t.address, ADDRESS_TERMS.taxRepresentative),
        writeTaxRegistration(t.vatId, "VA", "BT-63"),
      ),
    ],
  };
}

/** The line's seller of a French multi-vendor invoice, in the line agreement (EXTENDED only). */
export function readLineSeller(agreement: Element | undefined): LineSeller | undefined {
  const p = cii.one(agreement, "ram:ItemSellerTradeParty");
  const legalRegistrationId = legalRegistration(p);
  if (!p || !legalRegistrationId) return undefined;
  return { name: cii.text(p, "ram:Name") ?? "", legalRegistrationId, countryCode: cii.text(p, "ram:PostalTradeAddress/ram:CountryID") ?? "" };
}

export function writeLineSeller(s: LineSeller | undefined): XmlNode | undefined {
  return (
    s &&
    group(
      "ram:ItemSellerTradeParty",
      term("ram:Name", s.name, "EXT-FR-FE-164"),
      writeLegalOrganization(s.legalRegistrationId, "EXT-FR-FE-167"),
      group("ram:PostalTradeAddress", term("ram:CountryID", s.countryCode, "EXT-FR-FE-177")),
    )
  );
}
