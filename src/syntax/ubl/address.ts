// Postal addresses (BG-5, BG-8, BG-12, BG-15) <-> cac:PostalAddress / cac:Address.

import type { Address } from "../../model/index.ts";
import { always, group, leaf, type XmlNode } from "../xml-writer.ts";
import { ubl, type Element } from "./vocabulary.ts";

export function readAddress(el: Element | undefined): Address | undefined {
  if (!el) return undefined;
  return {
    line1: ubl.text(el, "cbc:StreetName"),
    line2: ubl.text(el, "cbc:AdditionalStreetName"),
    line3: ubl.text(el, "cac:AddressLine/cbc:Line"),
    city: ubl.text(el, "cbc:CityName"),
    postCode: ubl.text(el, "cbc:PostalZone"),
    countrySubdivision: ubl.text(el, "cbc:CountrySubentity"),
    countryCode: ubl.text(el, "cac:Country/cbc:IdentificationCode") ?? "",
  };
}

export function writeAddress(name: string, address: Address | undefined): XmlNode | undefined {
  if (!address) return undefined;
  return always(
    name,
    leaf("cbc:StreetName", address.line1),
    leaf("cbc:AdditionalStreetName", address.line2),
    leaf("cbc:CityName", address.city),
    leaf("cbc:PostalZone", address.postCode),
    leaf("cbc:CountrySubentity", address.countrySubdivision),
    group("cac:AddressLine", leaf("cbc:Line", address.line3)),
    group("cac:Country", leaf("cbc:IdentificationCode", address.countryCode || undefined)),
  );
}
