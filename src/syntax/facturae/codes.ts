// Facturae 3.2.2 code lists as data: what the request's codes become in the schema's own lists.

/**
 * ISO 3166-1 alpha-2 (the request) -> alpha-3 (Facturae `CountryType`). Generated from Debian's
 * iso-codes `iso_3166-1.json`, kept to the codes the pinned XSD enumerates: a country the schema
 * does not list (South Sudan, Kosovo, Curaçao...) has no row and is refused by name.
 */
export const COUNTRY_ALPHA3: Readonly<Record<string, string>> = {
  AD: "AND", AE: "ARE", AF: "AFG", AG: "ATG", AI: "AIA", AL: "ALB", AM: "ARM", AO: "AGO", AR: "ARG", AS: "ASM",
  AT: "AUT", AU: "AUS", AW: "ABW", AZ: "AZE", BA: "BIH", BB: "BRB", BD: "BGD", BE: "BEL", BF: "BFA", BG: "BGR",
  BH: "BHR", BI: "BDI", BJ: "BEN", BM: "BMU", BN: "BRN", BO: "BOL", BR: "BRA", BS: "BHS", BT: "BTN", BW: "BWA",
  BY: "BLR", BZ: "BLZ", CA: "CAN", CD: "COD", CF: "CAF", CG: "COG", CH: "CHE", CI: "CIV", CK: "COK", CL: "CHL",
  CM: "CMR", CN: "CHN", CO: "COL", CR: "CRI", CU: "CUB", CV: "CPV", CY: "CYP", CZ: "CZE", DE: "DEU", DJ: "DJI",
  DK: "DNK", DM: "DMA", DO: "DOM", DZ: "DZA", EC: "ECU", EE: "EST", EG: "EGY", EH: "ESH", ER: "ERI", ES: "ESP",
  ET: "ETH", FI: "FIN", FJ: "FJI", FK: "FLK", FM: "FSM", FO: "FRO", FR: "FRA", GA: "GAB", GB: "GBR", GD: "GRD",
  GE: "GEO", GF: "GUF", GG: "GGY", GH: "GHA", GI: "GIB", GL: "GRL", GM: "GMB", GN: "GIN", GP: "GLP", GQ: "GNQ",
  GR: "GRC", GT: "GTM", GU: "GUM", GW: "GNB", GY: "GUY", HK: "HKG", HN: "HND", HR: "HRV", HT: "HTI", HU: "HUN",
  ID: "IDN", IE: "IRL", IL: "ISR", IM: "IMN", IN: "IND", IQ: "IRQ", IR: "IRN", IS: "ISL", IT: "ITA", JE: "JEY",
  JM: "JAM", JO: "JOR", JP: "JPN", KE: "KEN", KG: "KGZ", KH: "KHM", KI: "KIR", KM: "COM", KN: "KNA", KP: "PRK",
  KR: "KOR", KW: "KWT", KY: "CYM", KZ: "KAZ", LA: "LAO", LB: "LBN", LC: "LCA", LI: "LIE", LK: "LKA", LR: "LBR",
  LS: "LSO", LT: "LTU", LU: "LUX", LV: "LVA", LY: "LBY", MA: "MAR", MC: "MCO", MD: "MDA", ME: "MNE", MG: "MDG",
  MH: "MHL", MK: "MKD", ML: "MLI", MM: "MMR", MN: "MNG", MO: "MAC", MP: "MNP", MQ: "MTQ", MR: "MRT", MS: "MSR",
  MT: "MLT", MU: "MUS", MV: "MDV", MW: "MWI", MX: "MEX", MY: "MYS", MZ: "MOZ", NA: "NAM", NC: "NCL", NE: "NER",
  NF: "NFK", NG: "NGA", NI: "NIC", NL: "NLD", NO: "NOR", NP: "NPL", NR: "NRU", NU: "NIU", NZ: "NZL", OM: "OMN",
  PA: "PAN", PE: "PER", PF: "PYF", PG: "PNG", PH: "PHL", PK: "PAK", PL: "POL", PM: "SPM", PN: "PCN", PR: "PRI",
  PS: "PSE", PT: "PRT", PW: "PLW", PY: "PRY", QA: "QAT", RE: "REU", RO: "ROU", RS: "SRB", RU: "RUS", RW: "RWA",
  SA: "SAU", SB: "SLB", SC: "SYC", SD: "SDN", SE: "SWE", SG: "SGP", SH: "SHN", SI: "SVN", SJ: "SJM", SK: "SVK",
  SL: "SLE", SM: "SMR", SN: "SEN", SO: "SOM", SR: "SUR", ST: "STP", SV: "SLV", SY: "SYR", SZ: "SWZ", TC: "TCA",
  TD: "TCD", TG: "TGO", TH: "THA", TJ: "TJK", TK: "TKL", TL: "TLS", TM: "TKM", TN: "TUN", TO: "TON", TR: "TUR",
  TT: "TTO", TV: "TUV", TW: "TWN", TZ: "TZA", UA: "UKR", UG: "UGA", US: "USA", UY: "URY", UZ: "UZB", VA: "VAT",
  VC: "VCT", VE: "VEN", VG: "VGB", VI: "VIR", VN: "VNM", VU: "VUT", WF: "WLF", WS: "WSM", YE: "YEM", YT: "MYT",
  ZA: "ZAF", ZM: "ZMB", ZW: "ZWE",
};

/** EU member states: a party there is `U` (resident in the Union), elsewhere outside Spain `E`. */
export const EU_COUNTRIES: ReadonlySet<string> = new Set([
  "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "FI", "FR", "GR", "HR", "HU", "IE",
  "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
]);

/**
 * UN/ECE Rec 20/21 unit (BT-130) -> Facturae `UnitOfMeasureType`, by the unit the schema names in
 * each code's documentation. A unit without a row leaves UnitOfMeasure out (it is optional) and is
 * reported lost; "05 Other" is never guessed.
 */
export const UNIT_OF_MEASURE: Readonly<Record<string, string>> = {
  C62: "01", H87: "01", EA: "01", HUR: "02", KGM: "03", LTR: "04", XBX: "06", XDS: "07", XBA: "08", XJY: "09",
  XBG: "10", XCO: "11", XBO: "12", XCI: "13", CLT: "15", CMT: "16", XBI: "17", DZN: "18", XCS: "19", XDJ: "20",
  GRM: "21", KMT: "22", XCA: "23", XBH: "24", MTR: "25", MMT: "26", XPK: "28", XRO: "30", XEN: "31", XTB: "32",
  MTQ: "33", SEC: "34", WTT: "35", KWH: "36",
};

/**
 * UNTDID 4461 payment means (BT-81) -> Facturae `PaymentMeansType`: 01 cash, 02 direct debit,
 * 04 credit transfer, 11 cheque, 19 card. A code without a row (a bill of exchange, a promissory
 * note, 1 "not defined"...) leaves PaymentDetails out and is reported lost.
 */
export const PAYMENT_MEANS: Readonly<Record<string, string>> = {
  "10": "01",
  "20": "11",
  "30": "04",
  "31": "04",
  "42": "04",
  "48": "19",
  "49": "02",
  "54": "19",
  "55": "19",
  "58": "04",
  "59": "02",
};

/**
 * VAT category (UNCL 5305, BT-151) of a line carrying no Spanish VAT -> Facturae
 * `SpecialTaxableEventCode`: exempt supplies, intra-Community supplies and exports are taxable but
 * exempt (01; Ley 37/1992 arts. 20, 21, 25), out of scope is non-taxable (02). Reverse charge (AE)
 * is neither, so it has no row.
 */
export const SPECIAL_TAXABLE_EVENT: Readonly<Record<string, string>> = { E: "01", K: "01", G: "01", O: "02" };
