// SellerParty and BuyerParty (BG-4, BG-7): tax identification, then a legal entity or an
// individual with an address in Spain or overseas. Written from the request, not the model: the
// `spain` overrides, `state` and `province` have no EN 16931 term.

import type { InvoiceInput } from "../../invoice/schema.ts";
import { fieldErrors } from "../../errors/domain-error.ts";
import { always, leaf, type XmlNode } from "../xml-writer.ts";
import { COUNTRY_ALPHA3, EU_COUNTRIES } from "./codes.ts";
import { fitted, limitedLeaf } from "./limits.ts";

type Role = "seller" | "buyer";
type Party = InvoiceInput["seller"];

interface TaxIdentification {
  personType: "F" | "J";
  residence: "R" | "U" | "E";
  number: string;
}

/** A Spanish NIF of a person: a DNI (digits), an NIE (X, Y, Z) or a special person NIF (K, L, M); a letter otherwise is a company's. */
const PERSON_NIF = /^[0-9KLMXYZ]/;

function residenceOf(invoice: InvoiceInput, role: Role): TaxIdentification["residence"] {
  const country = invoice[role].address.countryCode;
  return invoice.spain?.[role]?.residenceTypeCode ?? (country === "ES" ? "R" : EU_COUNTRIES.has(country) ? "U" : "E");
}

/**
 * The tax id, the VAT id first. A Spanish resident's is its NIF without the `ES` prefix; others keep
 * their VAT id whole, the prefix naming the country.
 */
export function taxIdentification(invoice: InvoiceInput, role: Role): TaxIdentification {
  const party = invoice[role];
  const field = party.vatId !== undefined ? "vatId" : "taxId";
  const id = party[field];
  if (id === undefined) throw fieldErrors([{ path: `/invoice/${role}/vatId`, message: "is required by Facturae (TaxIdentificationNumber): give vatId or taxId", keyword: "required" }]);
  const residence = residenceOf(invoice, role);
  const number = fitted("TaxIdentificationNumber", residence === "R" ? id.replace(/^ES/, "") : id, `/invoice/${role}/${field}`);
  // Only a Spanish NIF tells a person from a company; a foreign party is taken for a business.
  const personType = invoice.spain?.[role]?.personTypeCode ?? (residence === "R" && PERSON_NIF.test(number) ? "F" : "J");
  return { personType, residence, number };
}

function country(party: Party, role: Role): string {
  const code = COUNTRY_ALPHA3[party.address.countryCode];
  if (code === undefined) throw fieldErrors([{ path: `/invoice/${role}/address/countryCode`, message: "is not in Facturae's CountryType list", keyword: "enum" }]);
  return code;
}

/** Province is mandatory in both address blocks: the state, else the province code, else the town itself. */
function province(party: Party, role: Role): XmlNode {
  const a = party.address;
  const [value, field] = a.state !== undefined ? [a.state, "state"] : a.province !== undefined ? [a.province, "province"] : [a.city, "city"];
  return limitedLeaf("Province", value, `/invoice/${role}/address/${field}`);
}

function address(party: Party, role: Role): XmlNode {
  const a = party.address;
  const at = `/invoice/${role}/address`;
  if (a.street === undefined) throw fieldErrors([{ path: `${at}/street`, message: "is required by Facturae (Address)", keyword: "required" }]);
  const street = limitedLeaf("Address", a.street, `${at}/street`);
  if (a.countryCode === "ES") {
    return always("AddressInSpain", street, limitedLeaf("PostCode", a.postalCode, `${at}/postalCode`), limitedLeaf("Town", a.city, `${at}/city`), province(party, role), leaf("CountryCode", country(party, role)));
  }
  return always("OverseasAddress", street, limitedLeaf("PostCodeAndTown", `${a.postalCode} ${a.city}`, `${at}/city`), province(party, role), leaf("CountryCode", country(party, role)));
}

/**
 * An individual's one `name` is split at its first space: given name, then surnames. The API has a
 * single name field and Facturae requires the first surname apart.
 */
function individual(party: Party, role: Role): XmlNode {
  const [given = "", ...surnames] = party.name.trim().split(/\s+/);
  const pointer = `/invoice/${role}/name`;
  return always("Individual", limitedLeaf("Name", given, pointer), limitedLeaf("FirstSurname", surnames.join(" "), pointer), address(party, role));
}

function party(invoice: InvoiceInput, role: Role, element: string): XmlNode {
  const id = taxIdentification(invoice, role);
  const p = invoice[role];
  return always(
    element,
    always("TaxIdentification", leaf("PersonTypeCode", id.personType), leaf("ResidenceTypeCode", id.residence), leaf("TaxIdentificationNumber", id.number)),
    id.personType === "F" ? individual(p, role) : always("LegalEntity", limitedLeaf("CorporateName", p.name, `/invoice/${role}/name`), address(p, role)),
  );
}

export const parties = (invoice: InvoiceInput): XmlNode => always("Parties", party(invoice, "seller", "SellerParty"), party(invoice, "buyer", "BuyerParty"));
