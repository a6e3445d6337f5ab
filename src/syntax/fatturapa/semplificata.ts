// FatturaPA semplificata, FSM10 (schema 1.0.1): a receipt-like invoice of at most 400 euro, each
// line stating its amount with VAT and its own VAT (art. 21-bis DPR 633/72).

import { DomainError } from "../../errors/domain-error.ts";
import { add, compare } from "../../model/decimal.ts";
import type { NationalInput, NationalWritten } from "../national.ts";
import { always, leaf, withAttributes, type XmlNode } from "../xml-writer.ts";
import { datiTrasmissione, documentHead } from "./header.ts";
import type { FieldCheck } from "./limits.ts";
import { nationalLines, type NationalLine } from "./lines.ts";
import { buyerIdentity, denominazione, idFiscale, regimeOf, sede, sellerVatId } from "./parties.ts";
import { summaryRows } from "./summary.ts";
import { taxOn, total } from "./values.ts";

const NAMESPACE = "http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.0";

/**
 * The simplified invoice's ceiling, VAT included (DM 10 May 2019), and the regimes exempt from it:
 * since 2025 the forfettari (RF19) may issue it for any amount. Validate's SDI advisory 00460 weighs the same.
 */
export const CEILING: { total: string; exemptRegimes: ReadonlySet<string> } = { total: "400.00", exemptRegimes: new Set(["RF19"]) };

/** Importo is the line's amount with its VAT; Imposta is rounded per line, as each line states it. */
function datiBeniServizi(line: NationalLine, riferimento: string | undefined): { node: XmlNode; importo: string } {
  const imposta = taxOn(line.prezzoTotale, line.aliquota);
  const importo = add(line.prezzoTotale, imposta);
  const node = always(
    "DatiBeniServizi",
    leaf("Descrizione", line.descrizione),
    leaf("Importo", importo),
    always("DatiIVA", leaf("Imposta", imposta), leaf("Aliquota", line.aliquota)),
    leaf("Natura", line.natura),
    leaf("RiferimentoNormativo", riferimento),
  );
  return { node, importo };
}

/** FSM10 states each line's amount with its VAT, so its one total is the amount with VAT. */
export function semplificata(input: NationalInput, check: FieldCheck): { root: XmlNode; stated: NationalWritten["stated"] } {
  const { invoice } = input;
  const regime = regimeOf(invoice);
  const vat = sellerVatId(invoice.seller, check);
  const lines = nationalLines(input, check);
  const references = new Map(summaryRows(lines, invoice, check).map((r) => [r.natura, r.riferimentoNormativo]));
  const items = lines.map((l) => datiBeniServizi(l, l.natura && references.get(l.natura)));
  const documentTotal = total(items.map((i) => i.importo));
  const header = always(
    "FatturaElettronicaHeader",
    datiTrasmissione(invoice, vat, "semplificata"),
    always("CedentePrestatore", idFiscale("IdFiscaleIVA", vat), denominazione(invoice.seller, "/invoice/seller", check), sede(invoice.seller, "/invoice/seller", check), leaf("RegimeFiscale", regime)),
    always(
      "CessionarioCommittente",
      always("IdentificativiFiscali", buyerIdentity(invoice.buyer, check)),
      always("AltriDatiIdentificativi", denominazione(invoice.buyer, "/invoice/buyer", check), sede(invoice.buyer, "/invoice/buyer", check)),
    ),
  );
  const body = always(
    "FatturaElettronicaBody",
    always(
      "DatiGenerali",
      always(
        "DatiGeneraliDocumento",
        documentHead(invoice, "semplificata", check),
      ),
    ),
    items.map((i) => i.node),
  );
  // A request with fields to fix is answered with those first: it is not yet an invoice to weigh.
  check.done();
  if (compare(documentTotal, CEILING.total) > 0 && !CEILING.exemptRegimes.has(regime)) {
    throw new DomainError(422, "VALIDATION_ERROR", `a FatturaPA semplificata may total at most ${CEILING.total} EUR with VAT; this invoice totals ${documentTotal} (regime ${regime})`, {
      total: documentTotal,
      ceiling: CEILING.total,
    });
  }
  return { root: withAttributes(always("p:FatturaElettronicaSemplificata", header, body), { "xmlns:p": NAMESPACE, versione: "FSM10" }), stated: { taxInclusive: documentTotal } };
}
