// The Peppol EAS (electronic address scheme, ISO 6523 / CEF code list) that identifies a party by its
// VAT number, per country: used to derive a party's electronic address (BT-34 / BT-49) from `vatId`
// when the caller gives no explicit `peppol` block. The value written is the `vatId` as given,
// country prefix included, which is what these schemes register.
//
// Austria is 9914 (AT:VAT); 9915 is the Austrian government organisation id (AT:GOV), not a VAT
// scheme. Italy is 0211 (Partita IVA); the older 9906 (IT:VAT) left the Peppol code list.
// Countries whose VAT number has no Peppol scheme (DK, FI, SE, NO use organisation numbers) are
// not listed: such parties must send `peppol` explicitly.

export const VAT_EAS_BY_COUNTRY: Readonly<Record<string, string>> = {
  AD: "9922",
  AL: "9923",
  AT: "9914",
  BA: "9924",
  BE: "9925",
  BG: "9926",
  CH: "9927",
  CY: "9928",
  CZ: "9929",
  DE: "9930",
  EE: "9931",
  ES: "9920",
  FR: "9957",
  GB: "9932",
  GR: "9933",
  HR: "9934",
  HU: "9910",
  IE: "9935",
  IT: "0211",
  LI: "9936",
  LT: "9937",
  LU: "9938",
  LV: "9939",
  MC: "9940",
  ME: "9941",
  MK: "9942",
  MT: "9943",
  NL: "9944",
  PL: "9945",
  PT: "9946",
  RO: "9947",
  RS: "9948",
  SI: "9949",
  SK: "9950",
  SM: "9951",
  TR: "9952",
  VA: "9953",
};

/** EAS code of an e-mail electronic address (accepted by XRechnung, not by Peppol). */
export const EMAIL_EAS = "EM";

/** Dutch legal-entity schemes: chamber of commerce (KvK) and government organisation id (OIN). */
export const DUTCH_LEGAL_ENTITY_SCHEMES: readonly string[] = ["0106", "0190"];
