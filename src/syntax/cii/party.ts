// Parties: seller (BG-4), buyer (BG-7), payee (BG-10), seller tax representative (BG-11), with their
// postal addresses and contacts. All are `ram:TradePartyType`; identifiers with a scheme go to
// `ram:GlobalID`, those without to `ram:ID` (EN 16931 CII binding).

import type { Element } from "@xmldom/xmldom";
import type { Address, Buyer, Contact, Identifier, Payee, Seller, TaxRepresentative } from "../../model/index.ts";
import type { Contribution, Header } from "./context.ts";
import { all, attr, first, text, unlessEmpty } from "./dom.ts";
import { group, leaf, type XmlNode } from "./node.ts";

/** Business terms of one address, in the order line1, line2, line3, city, post code, subdivision, country. */
export type AddressTerms = readonly [string, string, string, string, string, string, string];

export const ADDRESS_TERMS = {
  seller: ["BT-35", "BT-36", "BT-162", "BT-37", "BT-38", "BT-39", "BT-40"],
  buyer: ["BT-50", "BT-51", "BT-163", "BT-52", "BT-53", "BT-54", "BT-55"],
  taxRepresentative: ["BT-64", "BT-65", "BT-164", "BT-66", "BT-67", "BT-68", "BT-69"],
  deliverTo: ["BT-75", "BT-76", "BT-165", "BT-77", "BT-78", "BT-79", "BT-80"],
} as const satisfies Record<string, AddressTerms>;

export function readAddress(party: Element | undefined): Address | undefined {
  const a = first(party, "ram:PostalTradeAddress");
  if (!a) return undefined;
  return {
    line1: text(a, "ram:LineOne"),
    line2: text(a, "ram:LineTwo"),
    line3: text(a, "ram:LineThree"),
    city: text(a, "ram:CityName"),
    postCode: text(a, "ram:PostcodeCode"),
    countrySubdivision: text(a, "ram:CountrySubDivisionName"),
    countryCode: text(a, "ram:CountryID") ?? "",
  };
}

export function writeAddress(address: Address | undefined, bt: AddressTerms): XmlNode | undefined {
  if (!address) return undefined;
  const [line1, line2, line3, city, postCode, subdivision, country] = bt;
  return group(
    "ram:PostalTradeAddress",
    leaf("ram:PostcodeCode", address.postCode, postCode),
    leaf("ram:LineOne", address.line1, line1),
    leaf("ram:LineTwo", address.line2, line2),
    leaf("ram:LineThree", address.line3, line3),
    leaf("ram:CityName", address.city, city),
    leaf("ram:CountryID", address.countryCode, country),
    leaf("ram:CountrySubDivisionName", address.countrySubdivision, subdivision),
  );
}

/** The non-blank `ram:ID` and `ram:GlobalID` of a party, in document order. */
export function readPartyIds(party: Element | undefined): Identifier[] {
  return [...all(party, "ram:ID"), ...all(party, "ram:GlobalID")].map(identifier).filter((id) => id.value !== "");
}

export function writePartyId(id: Identifier | undefined, bt: string): XmlNode | undefined {
  if (!id) return undefined;
  return id.scheme ? leaf("ram:GlobalID", id.value, bt, { schemeID: id.scheme }) : leaf("ram:ID", id.value, bt);
}

export function identifier(element: Element): Identifier {
  const scheme = attr(element, "schemeID");
  return { value: element.textContent?.trim() ?? "", ...(scheme && { scheme }) };
}

function optionalIdentifier(element: Element | undefined): Identifier | undefined {
  return element && element.textContent?.trim() ? identifier(element) : undefined;
}

const taxRegistration = (party: Element | undefined, scheme: string): string | undefined =>
  all(party, "ram:SpecifiedTaxRegistration/ram:ID").find((id) => attr(id, "schemeID") === scheme)?.textContent?.trim() || undefined;

const writeTaxRegistration = (value: string | undefined, scheme: "VA" | "FC", bt: string) =>
  group("ram:SpecifiedTaxRegistration", leaf("ram:ID", value, bt, { schemeID: scheme }));

function readContact(party: Element | undefined): Contact | undefined {
  const c = first(party, "ram:DefinedTradeContact");
  return unlessEmpty({
    name: text(c, "ram:PersonName") ?? text(c, "ram:DepartmentName"),
    telephone: text(c, "ram:TelephoneUniversalCommunication/ram:CompleteNumber"),
    email: text(c, "ram:EmailURIUniversalCommunication/ram:URIID"),
  });
}

function writeContact(contact: Contact | undefined, [name, phone, email]: readonly [string, string, string]): XmlNode | undefined {
  if (!contact) return undefined;
  return group(
    "ram:DefinedTradeContact",
    leaf("ram:PersonName", contact.name, name),
    group("ram:TelephoneUniversalCommunication", leaf("ram:CompleteNumber", contact.telephone, phone)),
    group("ram:EmailURIUniversalCommunication", leaf("ram:URIID", contact.email, email)),
  );
}

const electronicAddress = (party: Element | undefined) => optionalIdentifier(first(party, "ram:URIUniversalCommunication/ram:URIID"));

const writeElectronicAddress = (id: Identifier | undefined, bt: string) =>
  id && group("ram:URIUniversalCommunication", leaf("ram:URIID", id.value, bt, { schemeID: id.scheme }));

const legalRegistration = (party: Element | undefined) => optionalIdentifier(first(party, "ram:SpecifiedLegalOrganization/ram:ID"));

export function readSeller(h: Header): Seller {
  const p = first(h.agreement, "ram:SellerTradeParty");
  return {
    name: text(p, "ram:Name") ?? "",
    tradingName: text(p, "ram:SpecifiedLegalOrganization/ram:TradingBusinessName"),
    identifiers: readPartyIds(p),
    legalRegistrationId: legalRegistration(p),
    vatId: taxRegistration(p, "VA"),
    taxRegistrationId: taxRegistration(p, "FC"),
    additionalLegalInfo: text(p, "ram:Description"),
    electronicAddress: electronicAddress(p),
    address: readAddress(p) ?? { countryCode: "" },
    contact: readContact(p),
  };
}

export function writeSeller(s: Seller): Contribution {
  return {
    agreement: [
      group(
        "ram:SellerTradeParty",
        s.identifiers.map((id) => writePartyId(id, "BT-29")),
        leaf("ram:Name", s.name, "BT-27"),
        leaf("ram:Description", s.additionalLegalInfo, "BT-33"),
        group(
          "ram:SpecifiedLegalOrganization",
          leaf("ram:ID", s.legalRegistrationId?.value, "BT-30", { schemeID: s.legalRegistrationId?.scheme }),
          leaf("ram:TradingBusinessName", s.tradingName, "BT-28"),
        ),
        writeContact(s.contact, ["BT-41", "BT-42", "BT-43"]),
        writeAddress(s.address, ADDRESS_TERMS.seller),
        writeElectronicAddress(s.electronicAddress, "BT-34"),
        writeTaxRegistration(s.vatId, "VA", "BT-31"),
        writeTaxRegistration(s.taxRegistrationId, "FC", "BT-32"),
      ),
    ],
  };
}

export function readBuyer(h: Header): Buyer {
  const p = first(h.agreement, "ram:BuyerTradeParty");
  return {
    name: text(p, "ram:Name") ?? "",
    tradingName: text(p, "ram:SpecifiedLegalOrganization/ram:TradingBusinessName"),
    identifier: readPartyIds(p)[0],
    legalRegistrationId: legalRegistration(p),
    vatId: taxRegistration(p, "VA"),
    electronicAddress: electronicAddress(p),
    address: readAddress(p) ?? { countryCode: "" },
    contact: readContact(p),
  };
}

export function writeBuyer(b: Buyer): Contribution {
  return {
    agreement: [
      group(
        "ram:BuyerTradeParty",
        writePartyId(b.identifier, "BT-46"),
        leaf("ram:Name", b.name, "BT-44"),
        group(
          "ram:SpecifiedLegalOrganization",
          leaf("ram:ID", b.legalRegistrationId?.value, "BT-47", { schemeID: b.legalRegistrationId?.scheme }),
          leaf("ram:TradingBusinessName", b.tradingName, "BT-45"),
        ),
        writeContact(b.contact, ["BT-56", "BT-57", "BT-58"]),
        writeAddress(b.address, ADDRESS_TERMS.buyer),
        writeElectronicAddress(b.electronicAddress, "BT-49"),
        writeTaxRegistration(b.vatId, "VA", "BT-48"),
      ),
    ],
  };
}

export function readPayee(h: Header): Payee | undefined {
  const p = first(h.settlement, "ram:PayeeTradeParty");
  if (!p) return undefined;
  return { name: text(p, "ram:Name") ?? "", identifier: readPartyIds(p)[0], legalRegistrationId: legalRegistration(p) };
}

export function writePayee(p: Payee | undefined): Contribution {
  if (!p) return {};
  return {
    settlement: [
      group(
        "ram:PayeeTradeParty",
        writePartyId(p.identifier, "BT-60"),
        leaf("ram:Name", p.name, "BT-59"),
        group("ram:SpecifiedLegalOrganization", leaf("ram:ID", p.legalRegistrationId?.value, "BT-61", { schemeID: p.legalRegistrationId?.scheme })),
      ),
    ],
  };
}

export function readTaxRepresentative(h: Header): TaxRepresentative | undefined {
  const p = first(h.agreement, "ram:SellerTaxRepresentativeTradeParty");
  if (!p) return undefined;
  return { name: text(p, "ram:Name") ?? "", vatId: taxRegistration(p, "VA") ?? "", address: readAddress(p) ?? { countryCode: "" } };
}

export function writeTaxRepresentative(t: TaxRepresentative | undefined): Contribution {
  if (!t) return {};
  return {
    agreement: [
      group(
        "ram:SellerTaxRepresentativeTradeParty",
        leaf("ram:Name", t.name, "BT-62"),
        writeAddress(t.address, ADDRESS_TERMS.taxRepresentative),
        writeTaxRegistration(t.vatId, "VA", "BT-63"),
      ),
    ],
  };
}
