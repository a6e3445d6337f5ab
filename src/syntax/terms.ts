// The business terms (EN 16931-1) of the shapes the model repeats for several roles: an address,
// a contact, an allowance or charge. Both syntaxes lay these out their own way; the CII writer
// labels what it writes with them and each binding's leftover table (terms.ts beside it) names
// the source's elements with them, so the lists are written once.

/** Business terms of one address, in the order line1, line2, line3, city, post code, subdivision, country. */
export type AddressTerms = readonly [string, string, string, string, string, string, string];

export const ADDRESS_TERMS = {
  seller: ["BT-35", "BT-36", "BT-162", "BT-37", "BT-38", "BT-39", "BT-40"],
  buyer: ["BT-50", "BT-51", "BT-163", "BT-52", "BT-53", "BT-54", "BT-55"],
  taxRepresentative: ["BT-64", "BT-65", "BT-164", "BT-66", "BT-67", "BT-68", "BT-69"],
  deliverTo: ["BT-75", "BT-76", "BT-165", "BT-77", "BT-78", "BT-79", "BT-80"],
} as const satisfies Record<string, AddressTerms>;

/** Business terms of a contact: name, telephone, email. */
export type ContactTerms = readonly [string, string, string];

export const CONTACT_TERMS = {
  seller: ["BT-41", "BT-42", "BT-43"],
  buyer: ["BT-56", "BT-57", "BT-58"],
} as const satisfies Record<string, ContactTerms>;

/** Terms of amount, base, percentage, reason, reason code (and VAT category, rate at document level). */
export type AllowanceTerms = readonly [string, string, string, string, string, string?, string?];

export const ALLOWANCE_TERMS = {
  documentAllowance: ["BT-92", "BT-93", "BT-94", "BT-97", "BT-98", "BT-95", "BT-96"],
  documentCharge: ["BT-99", "BT-100", "BT-101", "BT-104", "BT-105", "BT-102", "BT-103"],
  lineAllowance: ["BT-136", "BT-137", "BT-138", "BT-139", "BT-140"],
  lineCharge: ["BT-141", "BT-142", "BT-143", "BT-144", "BT-145"],
} as const satisfies Record<string, AllowanceTerms>;
