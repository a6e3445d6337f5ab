// The SDI controls a FatturaPA document can fail past its schema, decided from the document alone
// (Agenzia delle Entrate, "Elenco controlli" of the FatturaPA specifiche tecniche 1.2.x; the codes
// are SDI's scarto codes, which a ricevuta di scarto names). What SDI checks against its own
// registers (duplicates 00404/00409, the VAT and fiscal code registry 00305/00306, the recipient
// code 00311/00312), the date of receipt (00403) cannot be decided here and is not in the table.
// Text outside Basic Latin and Latin-1 is not a row either: the pinned XSD's *LatinType patterns
// already make it a schema error; nor is 00419, which fires only where 00443 already does.

import { add, compare, multiply, negate, sum, toFixed } from "../../model/decimal";
import { CEILING as SEMPLIFICATA } from "../../syntax/fatturapa/semplificata";
import { attrOf, createReader, textOf, type Element } from "../../syntax/xml-reader";
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

/** Caller text echoed in a message, cut to the length of any value the schemas allow, so a huge value costs no huge message. */
const shown = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

/** 00474: a TD21 (self-invoice for exceeding the export plafond) charges VAT on every line, so no line is at a zero rate. */
function plafondLines(root: Element, report: Report): void {
  for (const body of bodies(root)) {
    if (tipoDocumento(body) !== "TD21") continue;
    for (const line of lines(body)) {
      const key = vatKey(line);
      if (key && isZero(key.rate)) report(line, `SDI would refuse the file (00474): a TD21 (autofattura per splafonamento) charges VAT on every line, but this line has AliquotaIVA ${key.rate}; give the rate the purchase should have borne.`);
    }
  }
}

/**
 * Where each root keeps a party's identifiers: the ordinaria under DatiAnagrafici, the semplificata
 * the seller's IdFiscaleIVA directly and the buyer's under IdentificativiFiscali.
 */
function identifiers(root: Element, role: "CedentePrestatore" | "CessionarioCommittente"): Element | undefined {
  const party = fpa.one(root, `FatturaElettronicaHeader/${role}`);
  if (root.localName !== "FatturaElettronicaSemplificata") return fpa.one(party, "DatiAnagrafici");
  return role === "CedentePrestatore" ? party : fpa.one(party, "IdentificativiFiscali");
}

/** 00417: the buyer is identified by its VAT id, its fiscal code or both; the schema makes both optional. */
function buyerIdentified(root: Element, report: Report): void {
  const ids = identifiers(root, "CessionarioCommittente");
  if (!ids || fpa.one(ids, "IdFiscaleIVA") || fpa.one(ids, "CodiceFiscale")) return;
  report(ids, `SDI would refuse the file (00417): the buyer (CessionarioCommittente) has neither IdFiscaleIVA nor CodiceFiscale; at least one must be given.`);
}

/** 00476: SDI carries invoices that concern Italy, so the seller and the buyer cannot both have a VAT id from another country. */
function bothForeign(root: Element, report: Report): void {
  const sellerCountry = fpa.text(identifiers(root, "CedentePrestatore"), "IdFiscaleIVA/IdPaese");
  const buyerId = fpa.one(identifiers(root, "CessionarioCommittente"), "IdFiscaleIVA");
  const buyerCountry = fpa.text(buyerId, "IdPaese");
  // A buyer without a VAT id is not weighed: SDI's check reads the buyer's IdFiscaleIVA.
  if (!buyerId || sellerCountry === undefined || buyerCountry === undefined || sellerCountry === "IT" || buyerCountry === "IT") return;
  report(buyerId, `SDI would refuse the file (00476): the seller's IdPaese ${shown(sellerCountry)} and the buyer's IdPaese ${shown(buyerCountry)} are both other than IT; at least one party must be Italian.`);
}

const trasmissione = (root: Element) => fpa.one(root, "FatturaElettronicaHeader/DatiTrasmissione");

/** 00313: CodiceDestinatario XXXXXXX routes an invoice to a buyer outside Italy, which SDI reads as a buyer VAT id from another country. */
function foreignRoute(root: Element, report: Report): void {
  const code = fpa.one(trasmissione(root), "CodiceDestinatario");
  if (!code || textOf(code) !== "XXXXXXX") return;
  const country = fpa.text(identifiers(root, "CessionarioCommittente"), "IdFiscaleIVA/IdPaese");
  if (country !== undefined && country !== "IT") return;
  report(code, `SDI would refuse the file (00313): CodiceDestinatario XXXXXXX is only for a buyer outside Italy, but the buyer's IdFiscaleIVA/IdPaese is ${country === undefined ? "absent" : shown(country)}; give the buyer's own code, or 0000000.`);
}

/** 00426: a PEC address is where SDI delivers when no channel is named, so it is given only with CodiceDestinatario 0000000. */
function pecWithCode(root: Element, report: Report): void {
  const dati = trasmissione(root);
  const pec = fpa.one(dati, "PECDestinatario");
  const code = fpa.text(dati, "CodiceDestinatario");
  if (!pec || code === undefined || code === "0000000") return;
  report(pec, `SDI would refuse the file (00426): PECDestinatario is given with CodiceDestinatario ${shown(code)}; a PEC address goes only with CodiceDestinatario 0000000.`);
}

/** CodiceDestinatario's length per FormatoTrasmissione: a public administration's office code has 6 characters, a private channel 7. */
const ROUTE_LENGTH = new Map([
  ["FPA12", 6],
  ["FPR12", 7],
]);

/** 00427: the code's length matches the format (the schema allows 6 or 7 whatever the format). */
function routeLength(root: Element, report: Report): void {
  const dati = trasmissione(root);
  const formato = fpa.text(dati, "FormatoTrasmissione");
  const code = fpa.one(dati, "CodiceDestinatario");
  const text = textOf(code);
  const wanted = formato === undefined ? undefined : ROUTE_LENGTH.get(formato);
  if (!code || text === undefined || wanted === undefined || text.length === wanted) return;
  report(code, `SDI would refuse the file (00427): CodiceDestinatario ${shown(text)} has ${text.length} characters, but FormatoTrasmissione ${formato} needs ${wanted}.`);
}

/** 00428: FormatoTrasmissione repeats the root's versione attribute. */
function formatoVersione(root: Element, report: Report): void {
  const formato = fpa.one(trasmissione(root), "FormatoTrasmissione");
  const text = textOf(formato);
  const versione = attrOf(root, "versione");
  if (!formato || text === undefined || versione === undefined || text === versione) return;
  report(formato, `SDI would refuse the file (00428): FormatoTrasmissione ${shown(text)} differs from the root's versione ${shown(versione)}; both name the same format.`);
}

const documento = (body: Element) => fpa.one(body, "DatiGenerali/DatiGeneraliDocumento");

/** 00425: the invoice number holds at least one digit. */
function numberDigit(root: Element, report: Report): void {
  for (const body of bodies(root)) {
    const numero = fpa.one(documento(body), "Numero");
    const text = textOf(numero) ?? "";
    if (numero && !/[0-9]/.test(text)) report(numero, `SDI would refuse the file (00425): Numero ${shown(text)} has no digit; an invoice number must contain at least one.`);
  }
}

/** A date as the schema writes it (YYYY-MM-DD), which compares as text; anything else is not judged. */
const isoDate = (text: string | undefined) => (text !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : undefined);

/**
 * 00418: a document is not dated before an invoice it refers to (ordinaria: DatiFattureCollegate;
 * semplificata: the corrected invoice, DatiFatturaRettificata/DataFR).
 */
function linkedDate(root: Element, report: Report): void {
  for (const body of bodies(root)) {
    const dataElement = fpa.one(documento(body), "Data");
    const data = isoDate(textOf(dataElement));
    if (!dataElement || data === undefined) continue;
    const linked = [...fpa.all(body, "DatiGenerali/DatiFattureCollegate/Data"), ...fpa.all(body, "DatiGenerali/DatiFatturaRettificata/DataFR")];
    for (const at of linked) {
      const earlier = isoDate(textOf(at));
      if (earlier !== undefined && data < earlier) {
        const field = at.localName === "DataFR" ? "DatiFatturaRettificata/DataFR" : "DatiFattureCollegate/Data";
        report(dataElement, `SDI would refuse the file (00418): Data ${data} is before ${field} ${earlier}, the date of the invoice it refers to; a document cannot predate it.`);
      }
    }
  }
}

/**
 * 00411 (lines) and 00415 (fund contributions): an amount subject to withholding (Ritenuta SI)
 * needs the withholding itself, DatiRitenuta.
 */
function withholdingRule(code: string, where: "line" | "fund"): NationalRule {
  const elements = where === "line" ? lines : cassa;
  return rule(code, (root, report) => {
    for (const body of bodies(root)) {
      if (fpa.one(documento(body), "DatiRitenuta")) continue;
      for (const e of elements(body)) {
        if (fpa.text(e, "Ritenuta") === "SI") report(e, `SDI would refuse the file (${code}): this ${e.localName} has Ritenuta SI but the document has no DatiRitenuta (2.1.1.5); state the withholding.`);
      }
    }
  });
}

/**
 * 00437 (the document's ScontoMaggiorazione, 2.1.1.8) and 00438 (a line's, 2.2.1.10): a discount
 * or surcharge states how much, as Percentuale or Importo; the schema makes both optional.
 */
function changeAmount(code: string, path: string, field: string): NationalRule {
  return rule(code, (root, report) => {
    for (const body of bodies(root)) {
      for (const change of fpa.all(body, path)) {
        if (!fpa.one(change, "Percentuale") && !fpa.one(change, "Importo"))
          report(change, `SDI would refuse the file (${code}): ${field} has Tipo ${shown(fpa.text(change, "Tipo") ?? "")} but neither Percentuale nor Importo; say how much.`);
      }
    }
  });
}

/** 00420: reverse charge (Natura N6.x) and split payment (EsigibilitaIVA S) exclude each other: under reverse charge the buyer owes the VAT, so the seller charges none to split. */
function reverseChargeSplit(root: Element, report: Report): void {
  for (const body of bodies(root)) {
    for (const row of summaries(body)) {
      const natura = fpa.text(row, "Natura");
      if (natura?.startsWith("N6") && fpa.text(row, "EsigibilitaIVA") === "S") {
        report(row, `SDI would refuse the file (00420): this DatiRiepilogo row has Natura ${shown(natura)} (reverse charge) with EsigibilitaIVA S (split payment); reverse charge takes EsigibilitaIVA I or D.`);
      }
    }
  }
}

/** 00424: AliquotaIVA is a percentage (22.00), not a fraction (0.22); the schema allows both spellings. */
function ratePercent(root: Element, report: Report): void {
  for (const body of bodies(root)) {
    for (const e of [...lines(body), ...cassa(body), ...summaries(body)]) {
      const rate = vatKey(e)?.rate;
      if (rate !== undefined && !isZero(rate) && compare(rate, "1") < 0) {
        const percent = toFixed(multiply(rate, "100"), 2);
        report(e, `SDI would refuse the file (00424): AliquotaIVA ${rate} of this ${e.localName} is not a percentage; a rate of ${percent}% is written ${percent}.`);
      }
    }
  }
}

/** The generic Natura codes the 2021 specification split into sub-codes (N2.1, N3.1 … N6.9); SDI refuses them since 1 January 2021. */
const GENERIC_NATURA = new Set(["N2", "N3", "N6"]);

/** 00445: a line, fund contribution or summary row uses a generic Natura (the pinned schema still lists them). */
function genericNatura(root: Element, report: Report): void {
  for (const body of bodies(root)) {
    for (const e of [...lines(body), ...cassa(body), ...summaries(body)]) {
      const natura = fpa.text(e, "Natura");
      if (natura && GENERIC_NATURA.has(natura)) report(e, `SDI would refuse the file (00445): Natura ${natura} of this ${e.localName} is a generic code no longer accepted; give its sub-code (${natura}.1, ${natura}.2 …).`);
    }
  }
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
  rule("00474", plafondLines),
  rule("00476", bothForeign),
  rule("00417", buyerIdentified),
  rule("00313", foreignRoute),
  rule("00426", pecWithCode),
  rule("00427", routeLength),
  rule("00428", formatoVersione),
  rule("00425", numberDigit),
  rule("00418", linkedDate),
  withholdingRule("00411", "line"),
  withholdingRule("00415", "fund"),
  changeAmount("00437", "DatiGenerali/DatiGeneraliDocumento/ScontoMaggiorazione", "the document's ScontoMaggiorazione (2.1.1.8)"),
  changeAmount("00438", "DatiBeniServizi/DettaglioLinee/ScontoMaggiorazione", "a line's ScontoMaggiorazione (2.2.1.10)"),
  rule("00420", reverseChargeSplit),
  rule("00424", ratePercent),
  rule("00445", genericNatura),
];
