// The parties' national identities and addresses, shared by the ordinaria (1.2, 1.4) and the
// semplificata (1.2, 1.3), which arrange them differently: seller (BG-4) is CedentePrestatore,
// buyer (BG-7) CessionarioCommittente.

import { missing } from "../../invoice/field-errors.ts";
import type { InvoiceInput } from "../../invoice/schema.ts";
import { always, leaf, type XmlNode } from "../xml-writer.ts";
import type { FieldCheck } from "./limits.ts";

type Party = InvoiceInput["seller"];

/**
 * What the Agenzia delle Entrate's guide puts in IdCodice for a buyer outside Italy who has no VAT
 * number (a private person, a non-EU company).
 */
const NO_FOREIGN_ID = "99999999999";

/** CAP for an address outside Italy, where no Italian post code exists (SDI refuses any other). */
const FOREIGN_CAP = "00000";

const ITALIAN_CAP = /^[0-9]{5}$/;
const PROVINCIA = /^[A-Z]{2}$/;
const CODICE_FISCALE = /^[A-Z0-9]{11,16}$/;

export const isItalian = (party: Party): boolean => party.address.countryCode === "IT";

/** IdPaese and IdCodice of a VAT number with its country prefix (BT-31, BT-48). */
export function idFiscale(name: string, vatId: string): XmlNode {
  return always(name, leaf("IdPaese", vatId.slice(0, 2)), leaf("IdCodice", vatId.slice(2)));
}

/** RF01: ordinary regime, the default when the caller names no other. */
export const regimeOf = (invoice: InvoiceInput): string => invoice.italy?.regimeFiscale ?? "RF01";

/**
 * The seller's VAT number: IdFiscaleIVA is mandatory for the CedentePrestatore. Without one the
 * refusal stops the document, so the empty stand-in is never written.
 */
export function sellerVatId(seller: Party, check: FieldCheck): string {
  if (seller.vatId === undefined) check.refuse(missing("/invoice/seller", "vatId"));
  return seller.vatId ?? "";
}

/** The buyer's IdFiscaleIVA or CodiceFiscale; at least one is required (SDI 00417). */
export function buyerIdentity(buyer: Party, check: FieldCheck): XmlNode[] {
  if (buyer.vatId !== undefined) return [idFiscale("IdFiscaleIVA", buyer.vatId)];
  if (!isItalian(buyer)) return [always("IdFiscaleIVA", leaf("IdPaese", buyer.address.countryCode), leaf("IdCodice", NO_FOREIGN_ID))];
  if (buyer.taxId === undefined) {
    check.refuse(missing("/invoice/buyer", "vatId"));
    return [];
  }
  const cf = buyer.taxId.toUpperCase();
  if (!CODICE_FISCALE.test(cf)) check.refuse({ path: "/invoice/buyer/taxId", message: "must be an Italian codice fiscale: 11 to 16 letters or digits", keyword: "pattern" });
  return [leaf("CodiceFiscale", cf)!];
}

/** Sede (IndirizzoType). An address outside Italy takes CAP 00000 and no Provincia. */
export function sede(party: Party, pointer: string, check: FieldCheck): XmlNode {
  const a = party.address;
  const at = `${pointer}/address`;
  if (a.street === undefined) check.refuse(missing(at, "street"));
  const italian = isItalian(party);
  if (italian && !ITALIAN_CAP.test(a.postalCode)) check.refuse({ path: `${at}/postalCode`, message: "must be 5 digits (FatturaPA CAP)", keyword: "pattern" });
  const provinciaKey = a.region !== undefined ? "region" : "province";
  const provincia = italian ? a[provinciaKey] : undefined;
  if (provincia !== undefined && !PROVINCIA.test(provincia)) check.refuse({ path: `${at}/${provinciaKey}`, message: "must be a 2-letter Italian province code (FatturaPA Provincia)", keyword: "pattern" });
  return always(
    "Sede",
    leaf("Indirizzo", a.street === undefined ? undefined : check.text(a.street, `${at}/street`, "Indirizzo")),
    leaf("CAP", italian ? a.postalCode : FOREIGN_CAP),
    leaf("Comune", check.text(a.city, `${at}/city`, "Comune")),
    leaf("Provincia", provincia),
    leaf("Nazione", a.countryCode),
  );
}

export const denominazione = (party: Party, pointer: string, check: FieldCheck): XmlNode => leaf("Denominazione", check.text(party.name, `${pointer}/name`, "Denominazione"))!;
