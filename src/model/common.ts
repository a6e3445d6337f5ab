// Value types shared by every group of the EN 16931 semantic model.

/**
 * An amount, quantity, rate or percentage kept exactly as written in the source ("1234.50",
 * "-3", "19.00"). Never a JS number: binary floats cannot hold 0.1, and trailing zeros carry
 * meaning for the decimal-count rules (BR-DEC-*). Arithmetic lives in `decimal.ts`.
 */
export type Decimal = string;

/** A calendar date, `YYYY-MM-DD` (the semantic data type "Date"). */
export type IsoDate = string;

/**
 * An identifier with its optional identification scheme (the semantic data type "Identifier"),
 * e.g. a GLN with scheme `0088`.
 */
export interface Identifier {
  value: string;
  scheme?: string;
}

/** Postal address (BG-5 seller, BG-8 buyer, BG-12 tax representative, BG-15 deliver-to). */
export interface Address {
  /** BT-35 / BT-50 / BT-64 / BT-75: address line 1. */
  line1?: string;
  /** BT-36 / BT-51 / BT-65 / BT-76: address line 2. */
  line2?: string;
  /** BT-162 / BT-163 / BT-164 / BT-165: address line 3. */
  line3?: string;
  /** BT-37 / BT-52 / BT-66 / BT-77: city. */
  city?: string;
  /** BT-38 / BT-53 / BT-67 / BT-78: post code. */
  postCode?: string;
  /** BT-39 / BT-54 / BT-68 / BT-79: country subdivision. */
  countrySubdivision?: string;
  /** BT-40 / BT-55 / BT-69 / BT-80: ISO 3166-1 alpha-2 country code (1..1 in every address). */
  countryCode: string;
}
