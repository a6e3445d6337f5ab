// FatturaPA ordinaria, FPR12 (schema 1.2.2): one header, one body, between private parties.

import type { NationalInput, NationalWritten } from "../national.ts";
import { always, leaf, withAttributes, type XmlNode } from "../xml-writer.ts";
import { datiTrasmissione, documentHead } from "./header.ts";
import type { FieldCheck } from "./limits.ts";
import { dettaglioLinee, nationalLines } from "./lines.ts";
import { buyerIdentity, denominazione, idFiscale, regimeOf, sede, sellerVatId } from "./parties.ts";
import { datiPagamento } from "./payment.ts";
import { datiRiepilogo, summaryRows, type SummaryRow } from "./summary.ts";
import { total } from "./values.ts";

const NAMESPACE = "http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2";

/** What the buyer pays the seller: under split payment (S) the VAT goes to the Treasury instead. */
function amountDue(rows: readonly SummaryRow[], documentTotal: string, esigibilita: string): string {
  if (esigibilita !== "S") return documentTotal;
  return total([documentTotal, ...rows.map((r) => `-${r.imposta}`)]);
}

export function ordinaria(input: NationalInput, check: FieldCheck): { root: XmlNode; stated: NationalWritten["stated"] } {
  const { invoice } = input;
  const italy = invoice.italy;
  const vat = sellerVatId(invoice.seller, check);
  const lines = nationalLines(input, check);
  const rows = summaryRows(lines, invoice, check);
  const esigibilita = italy?.esigibilitaIVA ?? "I";
  // Amounts are not negative, so when the document total fits every row and payment does too.
  const documentTotal = check.number(total(rows.flatMap((r) => [r.imponibile, r.imposta])), "/invoice/lines", "ImportoTotaleDocumento");
  const header = always(
    "FatturaElettronicaHeader",
    datiTrasmissione(invoice, vat, "ordinaria"),
    always(
      "CedentePrestatore",
      always("DatiAnagrafici", idFiscale("IdFiscaleIVA", vat), always("Anagrafica", denominazione(invoice.seller, "/invoice/seller", check)), leaf("RegimeFiscale", regimeOf(invoice))),
      sede(invoice.seller, "/invoice/seller", check),
    ),
    always(
      "CessionarioCommittente",
      always("DatiAnagrafici", buyerIdentity(invoice.buyer, check), always("Anagrafica", denominazione(invoice.buyer, "/invoice/buyer", check))),
      sede(invoice.buyer, "/invoice/buyer", check),
    ),
  );
  const body = always(
    "FatturaElettronicaBody",
    always(
      "DatiGenerali",
      always(
        "DatiGeneraliDocumento",
        documentHead(invoice, "ordinaria", check),
        leaf("ImportoTotaleDocumento", documentTotal),
        (italy?.causale ?? []).map((c, i) => leaf("Causale", check.text(c, `/invoice/italy/causale/${i}`, "Causale"))),
      ),
    ),
    always("DatiBeniServizi", lines.map(dettaglioLinee), rows.map((r) => datiRiepilogo(r, esigibilita))),
    datiPagamento(invoice, amountDue(rows, documentTotal, esigibilita), check),
  );
  const stated = { taxExclusive: total(rows.map((r) => r.imponibile)), tax: total(rows.map((r) => r.imposta)), taxInclusive: documentTotal };
  return { root: withAttributes(always("p:FatturaElettronica", header, body), { "xmlns:p": NAMESPACE, versione: "FPR12" }), stated };
}
