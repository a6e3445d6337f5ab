// The parties of an invoice: seller (BG-4), buyer (BG-7), payee (BG-10), tax representative (BG-11).

import type { Address, Identifier } from "./common.ts";

/** Contact details (BG-6 seller contact, BG-9 buyer contact). */
export interface Contact {
  /** BT-41 / BT-56: contact point (person or department). */
  name?: string;
  /** BT-42 / BT-57: telephone number. */
  telephone?: string;
  /** BT-43 / BT-58: e-mail address. */
  email?: string;
}

/** BG-4 SELLER. */
export interface Seller {
  /** BT-27: seller name (legal registration name). */
  name: string;
  /** BT-28: seller trading name. */
  tradingName?: string;
  /** BT-29 (0..n): seller identifiers, each with its scheme (BT-29-1). */
  identifiers: Identifier[];
  /** BT-30 (0..1): seller legal registration identifier, with scheme (BT-30-1). */
  legalRegistrationId?: Identifier;
  /** BT-31: seller VAT identifier, with country prefix. */
  vatId?: string;
  /** BT-32: seller tax registration identifier (local, not VAT). */
  taxRegistrationId?: string;
  /** BT-33: seller additional legal information (e.g. share capital). */
  additionalLegalInfo?: string;
  /** BT-34 (0..1): seller electronic address, scheme (BT-34-1) mandatory when present. */
  electronicAddress?: Identifier;
  /** BG-5 (1..1): seller postal address. */
  address: Address;
  /** BG-6 (0..1): seller contact. */
  contact?: Contact;
}

/** BG-7 BUYER. */
export interface Buyer {
  /** BT-44: buyer name. */
  name: string;
  /** BT-45: buyer trading name. */
  tradingName?: string;
  /** BT-46 (0..1): buyer identifier, with scheme (BT-46-1). */
  identifier?: Identifier;
  /** BT-47 (0..1): buyer legal registration identifier, with scheme (BT-47-1). */
  legalRegistrationId?: Identifier;
  /** BT-48: buyer VAT identifier. */
  vatId?: string;
  /**
   * The buyer's tax registration under a scheme other than VAT (a local tax number): no EN 16931
   * term, which has BT-48 alone, but both syntaxes hold it where they hold the seller's BT-32 (UBL
   * `cac:PartyTaxScheme` with another scheme, CII `ram:SpecifiedTaxRegistration` scheme `FC`) and
   * their validators accept it there, so a conversion carries it instead of refusing.
   */
  taxRegistrationId?: string;
  /** BT-49 (0..1): buyer electronic address, scheme (BT-49-1) mandatory when present. */
  electronicAddress?: Identifier;
  /** BG-8 (1..1): buyer postal address. */
  address: Address;
  /** BG-9 (0..1): buyer contact. */
  contact?: Contact;
}

/** BG-10 PAYEE: the party receiving payment when it is not the seller. */
export interface Payee {
  /** BT-59: payee name. */
  name: string;
  /** BT-60 (0..1): payee identifier, with scheme (BT-60-1). */
  identifier?: Identifier;
  /** BT-61 (0..1): payee legal registration identifier, with scheme (BT-61-1). */
  legalRegistrationId?: Identifier;
}

/** BG-11 SELLER TAX REPRESENTATIVE PARTY. */
export interface TaxRepresentative {
  /** BT-62: seller tax representative name. */
  name: string;
  /** BT-63 (1..1): seller tax representative VAT identifier. */
  vatId: string;
  /** BG-12 (1..1): seller tax representative postal address. */
  address: Address;
}
