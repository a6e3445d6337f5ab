// Natura (FatturaPA 2.2.1.14 / 2.2.2.2): why a line bears no VAT. EN 16931 says it with the VAT
// category (BT-151) and, finer, the VATEX exemption code (BT-121); the code wins when it names an
// Italian case, the category decides otherwise. Natura is written iff the rate is 0 (00400/00401).

/** VATEX-EU code (BT-121) → Natura: the regimes where the code says more than the category. */
const BY_EXEMPTION_CODE: Readonly<Record<string, string>> = {
  "VATEX-EU-79-C": "N1", // amounts received as disbursements: escluse ex art. 15 DPR 633/72
  "VATEX-EU-O": "N2.2", // not subject: non soggette, altri casi
  "VATEX-EU-G": "N3.1", // export: non imponibili, esportazioni
  "VATEX-EU-IC": "N3.2", // intra-Community supply: cessioni intracomunitarie
  "VATEX-EU-D": "N5", // margin scheme, travel agents
  "VATEX-EU-F": "N5", // margin scheme, second-hand goods
  "VATEX-EU-I": "N5", // margin scheme, works of art
  "VATEX-EU-J": "N5", // margin scheme, antiques
  "VATEX-EU-AE": "N6.9", // reverse charge: inversione contabile, altri casi
};

/**
 * VAT category (UNCL 5305) → Natura. Italy has no zero rate: a zero-rated supply (Z) is "non
 * imponibile", and without a finer code it is the residual N3.6. Reverse charge (AE) without a
 * finer code is N6.9; the N6.1–N6.8 sectors need the caller's own Italian classification.
 */
const BY_CATEGORY: Readonly<Record<string, string>> = {
  E: "N4", // exempt: esenti (art. 10 DPR 633/72)
  Z: "N3.6", // zero rated: non imponibili, altre operazioni
  AE: "N6.9", // reverse charge: inversione contabile, altri casi
  K: "N3.2", // intra-Community supply: non imponibili, cessioni intracomunitarie
  G: "N3.1", // export: non imponibili, esportazioni
  O: "N2.2", // outside the scope of VAT: non soggette, altri casi
};

/**
 * RiferimentoNormativo written with a Natura when the caller's breakdown gives no reason text
 * (BT-120): the provision each Natura rests on.
 */
const LEGAL_BASIS: Readonly<Record<string, string>> = {
  N1: "Escluse ex art. 15 DPR 633/72",
  "N2.2": "Non soggette - altri casi",
  "N3.1": "Non imponibili - esportazioni, art. 8 DPR 633/72",
  "N3.2": "Non imponibili - cessioni intracomunitarie, art. 41 DL 331/93",
  "N3.6": "Non imponibili - altre operazioni",
  N4: "Esenti art. 10 DPR 633/72",
  N5: "Regime del margine, art. 36 DL 41/95",
  "N6.9": "Inversione contabile, art. 17 DPR 633/72",
};

/** The Natura of a zero-rated line, or undefined when neither its code nor its category maps. */
export function naturaOf(categoryCode: string, exemptionCode: string | undefined): string | undefined {
  return (exemptionCode && BY_EXEMPTION_CODE[exemptionCode.toUpperCase()]) || BY_CATEGORY[categoryCode];
}

export const legalBasisOf = (natura: string): string | undefined => LEGAL_BASIS[natura];
