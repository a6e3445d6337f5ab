// The SDI controls a FatturaPA document can fail past its schema, decided from the document alone
// (Agenzia delle Entrate, "Elenco controlli" of the FatturaPA specifiche tecniche 1.2.x; the codes
// are SDI's scarto codes, which a ricevuta di scarto names). What SDI checks against its own
// registers (duplicates 00404/00409, the VAT and fiscal code registry 00305/00306, the recipient
// code 00311/00312) cannot be decided here and is not in the table. Text outside Basic Latin and
// Latin-1 is not a row either: the pinned XSD's *LatinType patterns already make it a schema error.

import { add, compare, multiply, negate, sum, toFixed } from "../../model/decimal";
import { CEILING as SEMPLIFICATA } from "../../syntax/fatturapa/semplificata";
import { createReader, type Element } from "../../syntax/xml-reader";
import { decimalOf, differ, type NationalRule, type Report } from "./rule";

// FatturaPA qualifies only its root; every element below is in no namespace.
const fpa = createReader({});

const ELENCO = "SDI, Elenco controlli (FatturaPA specifiche tecniche 1.2.x)";

/** SDI's tolerances: a cent on a computed amount (00421, 00423), a euro on a taxable base (00422). */
const CENT = "0.01";
const EURO = "1.00";

/** TD16, the integration of a domestic reverse-charge purchase, may state Natura beside its rate. */
const NATURA_WITH_RATE_ALLOWED = new Set(["TD16"]);

/** A row of the table: SDI's control code names the advisory; every one is a rejection, so a warning. */
const rule = (code: string, check: NationalRule["check"]): NationalRule => ({ id: `FATTURAPA_${code}_NOT_ENFORCED`, source: `${ELENCO}, control ${code}`, severity: "warning", check });

const bodies = (root: Element) => fpa.all(root, "FatturaElettronicaBody");
const tipoDocumento = (body: Element) => fpa.text(body, "DatiGenerali/DatiGeneraliDocumento/TipoDocumento");
const lines = (body: Element) => fpa.all(body, "DatiBeniServizi/DettaglioLinee");
const summaries = (body: Element) => fpa.all(body, "DatiBeniServizi/DatiRiepilogo");
/** Contributions to a professional fund carry a rate and a Natura, and count in the summaries like a line. */
const cassa = (body: Element) => fpa.all(body, "DatiGenerali/DatiGeneraliDocumento/DatiCassaPrevidenziale");

interface VatKey {
  rate: string;
  natura: string;
}

/** A line, fund contribution or summary row's rate and Natura, as SDI pairs them; undefined when the rate is no number. */
function vatKey(e: Element): VatKey | undefined {
  const rate = decimalOf(fpa.text(e, "AliquotaIVA"));
  return rate === undefined ? undefined : { rate, natura: fpa.text(e, "Natura") ?? "" };
}
const keyText = (k: VatKey) => `${k.rate}|${k.natura}`;
const describe = (k: VatKey) => `AliquotaIVA ${k.rate}${k.natura ? ` with Natura ${k.natura}` : " without Natura"}`;
const isZero = (rate: string) => compare(rate, "0") === 0;

/** Where a rate and its Natura stand, and how SDI's message names the Natura there. */
const NATURA_PLACES = {
  line: { elements: lines, field: "2.2.1.14 Natura of a line (DettaglioLinee)" },
  fund: { elements: cassa, field: "2.1.1.7.7 Natura of a fund contribution (DatiCassaPrevidenziale)" },
  summary: { elements: summaries, field: "2.2.2.2 Natura of a summary row (DatiRiepilogo)" },
};

/**
 * 00400/00401 (lines), 00413/00414 (fund contributions) and 00429/00430 (summary rows): Natura
 * says why no VAT is due, so it is there exactly when the rate is zero.
 */
function naturaRule(code: string, where: keyof typeof NATURA_PLACES, wanted: boolean): NationalRule {
  const { elements, field } = NATURA_PLACES[where];
  return rule(code, (root, report) => {
    for (const body of bodies(root)) {
      const tipo = tipoDocumento(body);
      for (const e of elements(body)) {
        const key = vatKey(e);
        if (!key) continue;
        if (wanted && isZero(key.rate) && !key.natura) report(e, `SDI would refuse the file (${code}): ${field} is missing although AliquotaIVA is zero; a zero rate must say why no VAT is due.`);
        if (!wanted && !isZero(key.rate) && key.natura && !NATURA_WITH_RATE_ALLOWED.has(tipo ?? "")) {
          report(e, `SDI would refuse the file (${code}): ${field} is ${key.natura} although AliquotaIVA is ${key.rate}; Natura is given only with a zero rate.`);
        }
      }
    }
  });
}

/** 00421: Imposta is ImponibileImporto × AliquotaIVA / 100, to the cent. */
function imposta(root: Element, report: Report): void {
  for (const body of bodies(root)) {
    for (const row of summaries(body)) {
      const rate = decimalOf(fpa.text(row, "AliquotaIVA"));
      const base = decimalOf(fpa.text(row, "ImponibileImporto"));
      const tax = decimalOf(fpa.text(row, "Imposta"));
      if (rate === undefined || base === undefined || tax === undefined) continue;
      const expected = toFixed(multiply(base, multiply(rate, "0.01")), 2);
      if (differ(tax, expected, CENT)) report(row, `SDI would refuse the file (00421): Imposta ${tax} is not ImponibileImporto ${base} × AliquotaIVA ${rate}% = ${expected} (SDI allows ${CENT}).`);
    }
  }
}

/** Sums a value per rate and Natura, with the first element of each; a pair with a value that is no number sums to null (not judged). */
function sumsByKey(elements: readonly Element[], valueOf: (e: Element) => string | undefined): Map<string, { at: Element; key: VatKey; total: string | null }> {
  const sums = new Map<string, { at: Element; key: VatKey; total: string | null }>();
  for (const e of elements) {
    const key = vatKey(e);
    if (!key) continue;
    const value = valueOf(e);
    const entry = sums.get(keyText(key));
    if (!entry) sums.set(keyText(key), { at: e, key, total: value ?? null });
    else if (entry.total !== null) entry.total = value === undefined ? null : add(entry.total, value);
  }
  return sums;
}

/** An optional amount: "0" when absent, undefined when present and no number. */
const optional = (text: string | undefined) => (text === undefined ? "0" : decimalOf(text));

/** A summary row's ImponibileImporto net of its SpeseAccessorie and Arrotondamento. */
function rowBase(row: Element): string | undefined {
  const base = decimalOf(fpa.text(row, "ImponibileImporto"));
  const spese = optional(fpa.text(row, "SpeseAccessorie"));
  const arrotondamento = optional(fpa.text(row, "Arrotondamento"));
  return base === undefined || spese === undefined || arrotondamento === undefined ? undefined : add(base, negate(add(spese, arrotondamento)));
}

const detailAmount = (e: Element) => decimalOf(fpa.text(e, e.localName === "DettaglioLinee" ? "PrezzoTotale" : "ImportoContributoCassa"));

/**
 * 00422: the summary rows of one rate and Natura together state as ImponibileImporto the sum of
 * the PrezzoTotale of its lines and ImportoContributoCassa of its fund contributions, plus their
 * SpeseAccessorie and Arrotondamento. Rows are summed per rate and Natura because one pair may have
 * several rows (an exemption under two RiferimentoNormativo, two EsigibilitaIVA).
 */
function imponibile(root: Element, report: Report): void {
  for (const body of bodies(root)) {
    const detail = sumsByKey([...lines(body), ...cassa(body)], detailAmount);
    for (const [k, stated] of sumsByKey(summaries(body), rowBase)) {
      const computed = detail.get(k)?.total ?? "0";
      if (stated.total === null || detail.get(k)?.total === null) continue;
      if (differ(stated.total, computed, EURO)) {
        report(
          stated.at,
          `SDI would refuse the file (00422): ImponibileImporto for ${describe(stated.key)} is ${stated.total} net of SpeseAccessorie and Arrotondamento, but its lines and fund contributions total ${computed} (SDI allows ${EURO}).`,
        );
      }
    }
  }
}

/**
 * The line's unit price after its ScontoMaggiorazione in order: SC lowers it, MG raises it, by
 * Importo per unit or by Percentuale of the price so far. Where a change gives both, writers
 * disagree which counts (gobl.fatturapa writes percentages of the original price with matching
 * Importo; a discount on a negative price holds only as a percentage), so `prefer` chooses and
 * 00423 is drawn only when neither reading gives the total. Tipo carries the direction, so the sign
 * of Importo does not (the FatturaElettronica.NET samples write a discount as SC -1.71).
 */
function netUnitPrice(line: Element, prefer: "Importo" | "Percentuale"): string | undefined {
  let price = decimalOf(fpa.text(line, "PrezzoUnitario"));
  for (const change of fpa.all(line, "ScontoMaggiorazione")) {
    if (price === undefined) return undefined;
    const tipo = fpa.text(change, "Tipo");
    const percentuale = decimalOf(fpa.text(change, "Percentuale"));
    const byPercent = percentuale === undefined ? undefined : multiply(price, multiply(percentuale, "0.01"));
    const byImporto = decimalOf(fpa.text(change, "Importo"))?.replace(/^-/, "");
    const amount = prefer === "Importo" ? (byImporto ?? byPercent) : (byPercent ?? byImporto);
    if (amount === undefined || (tipo !== "SC" && tipo !== "MG")) return undefined;
    // Eight decimals each step, as SDI rounds the unit price: it keeps the work bounded and is far below the cent tolerance.
    price = toFixed(add(price, tipo === "SC" ? negate(amount) : amount), 8);
  }
  return price;
}

/** 00423: PrezzoTotale is the unit price after discounts and surcharges, rounded to 8 decimals, times Quantita (1 when absent), to the cent. */
function prezzoTotale(root: Element, report: Report): void {
  for (const body of bodies(root)) {
    for (const line of lines(body)) {
      const quantitaText = fpa.text(line, "Quantita");
      const quantity = quantitaText === undefined ? "1" : decimalOf(quantitaText);
      const total = decimalOf(fpa.text(line, "PrezzoTotale"));
      const prices = [netUnitPrice(line, "Importo"), netUnitPrice(line, "Percentuale")];
      if (quantity === undefined || total === undefined || prices.some((p) => p === undefined)) continue;
      const expected = prices.map((price) => toFixed(multiply(price!, quantity), 2));
      if (expected.every((e) => differ(total, e, CENT))) {
        report(line, `SDI would refuse the file (00423): PrezzoTotale ${total} is not the unit price ${prices[0]} (after ScontoMaggiorazione) × Quantita ${quantity} = ${expected[0]} (SDI allows ${CENT}).`);
      }
    }
  }
}

/**
 * 00443 (rates) and 00444 (Natura): every rate and Natura of a line or fund contribution has a
 * summary row, and every summary row's has a line or contribution.
 */
function correspondence(code: string, field: "rate" | "natura"): NationalRule {
  const name = field === "rate" ? "AliquotaIVA" : "Natura";
  return rule(code, (root, report) => {
    for (const body of bodies(root)) {
      const valueOf = (e: Element) => vatKey(e)?.[field];
      const detail = [...lines(body), ...cassa(body)];
      const rows = summaries(body);
      const inDetail = new Set(detail.map(valueOf).filter((v) => v));
      const inRows = new Set(rows.map(valueOf).filter((v) => v));
      for (const e of detail) {
        const v = valueOf(e);
        if (v && !inRows.has(v)) report(e, `SDI would refuse the file (${code}): ${name} ${v} of this ${e.localName} has no DatiRiepilogo row.`);
      }
      for (const row of rows) {
        const v = valueOf(row);
        if (v && !inDetail.has(v))
          report(row, `SDI would refuse the file (${code}): this DatiRiepilogo row's ${name} ${v} is on no line (DettaglioLinee) or fund contribution (DatiCassaPrevidenziale).`);
      }
    }
  });
}

/** 00460: a simplified invoice totals at most 400 euro with VAT, unless the seller is a forfettario (RF19). */
function semplificataCeiling(root: Element, report: Report): void {
  if (root.localName !== "FatturaElettronicaSemplificata") return;
  const regime = fpa.text(root, "FatturaElettronicaHeader/CedentePrestatore/RegimeFiscale");
  if (regime && SEMPLIFICATA.exemptRegimes.has(regime)) return;
  for (const body of bodies(root)) {
    // The ceiling is in euro; another currency's total cannot be weighed from the document.
    if (fpa.text(body, "DatiGenerali/DatiGeneraliDocumento/Divisa") !== "EUR") continue;
    const amounts = fpa.all(body, "DatiBeniServizi").map((item) => decimalOf(fpa.text(item, "Importo")));
    if (amounts.some((a) => a === undefined)) continue;
    const total = sum(amounts as string[]);
    if (compare(total, SEMPLIFICATA.total) > 0) {
      report(
        body,
        `SDI would refuse the file (00460): a fattura semplificata may total at most ${SEMPLIFICATA.total} EUR with VAT, this body totals ${total}${regime ? ` under regime ${regime}` : ""}; only RF19 (forfettari) is spared the ceiling.`,
      );
    }
  }
}

/**
 * The document types whose parties SDI checks against each other (self-invoices, integrations,
 * San Marino): which types refuse one party as both seller and buyer (00471), which need it
 * (00472), which refuse an Italian seller (00473; TD28 needs a San Marino one) and which need the
 * buyer's VAT id (00475). The lists are SDI's messages for those codes.
 */
const PARTY_RULES = {
  notSelf: new Set(["TD01", "TD02", "TD03", "TD06", "TD16", "TD17", "TD18", "TD19", "TD20", "TD24", "TD25", "TD28"]),
  selfOnly: new Set(["TD21", "TD27"]),
  foreignSeller: new Set(["TD17", "TD18", "TD19", "TD28"]),
  buyerVatId: new Set(["TD16", "TD17", "TD18", "TD19", "TD20", "TD22", "TD23", "TD28"]),
};

interface Party {
  country?: string;
  vatCode?: string;
  fiscalCode?: string;
}

function partyOf(root: Element, role: "CedentePrestatore" | "CessionarioCommittente"): Party {
  const data = fpa.one(root, `FatturaElettronicaHeader/${role}/DatiAnagrafici`);
  return { country: fpa.text(data, "IdFiscaleIVA/IdPaese"), vatCode: fpa.text(data, "IdFiscaleIVA/IdCodice"), fiscalCode: fpa.text(data, "CodiceFiscale") };
}

/** One party in both roles, as SDI compares them: the same VAT id and the same fiscal code. */
const sameParty = (a: Party, b: Party) => a.country === b.country && a.vatCode === b.vatCode && a.fiscalCode === b.fiscalCode;

/** Runs `refused` for each body whose document type is in `types`, reporting at that TipoDocumento. */
function partyRule(code: string, types: ReadonlySet<string>, refused: (tipo: string, seller: Party, buyer: Party) => string | undefined): NationalRule {
  return rule(code, (root, report) => {
    const seller = partyOf(root, "CedentePrestatore");
    const buyer = partyOf(root, "CessionarioCommittente");
    for (const body of bodies(root)) {
      const tipo = tipoDocumento(body);
      if (tipo === undefined || !types.has(tipo)) continue;
      const why = refused(tipo, seller, buyer);
      if (why) report(fpa.one(body, "DatiGenerali/DatiGeneraliDocumento/TipoDocumento")!, `SDI would refuse the file (${code}): ${tipo} ${why}.`);
    }
  });
}

export const FATTURAPA_RULES: readonly NationalRule[] = [
  naturaRule("00400", "line", true),
  naturaRule("00401", "line", false),
  naturaRule("00413", "fund", true),
  naturaRule("00414", "fund", false),
  naturaRule("00429", "summary", true),
  naturaRule("00430", "summary", false),
  rule("00421", imposta),
  rule("00422", imponibile),
  rule("00423", prezzoTotale),
  correspondence("00443", "rate"),
  correspondence("00444", "natura"),
  rule("00460", semplificataCeiling),
  partyRule("00471", PARTY_RULES.notSelf, (_, seller, buyer) => (sameParty(seller, buyer) ? "does not allow the same party as seller and buyer" : undefined)),
  partyRule("00472", PARTY_RULES.selfOnly, (_, seller, buyer) => (sameParty(seller, buyer) ? undefined : "needs the same party as seller and buyer")),
  partyRule("00473", PARTY_RULES.foreignSeller, (tipo, seller) => {
    if (tipo === "TD28") return seller.country === "SM" ? undefined : `needs a San Marino seller (IdPaese SM), not ${seller.country ?? "none"}`;
    return seller.country === "IT" ? "does not allow an Italian seller (IdPaese IT)" : undefined;
  }),
  partyRule("00475", PARTY_RULES.buyerVatId, (_, __, buyer) => (buyer.country && buyer.vatCode ? undefined : "needs the buyer's VAT id (IdFiscaleIVA)")),
];
