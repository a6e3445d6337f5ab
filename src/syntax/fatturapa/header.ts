// DatiTrasmissione (1.1) and DatiGeneraliDocumento's identity (2.1.1): who sends, to whom SDI
// routes, and which kind of document. Shared by the ordinaria and the semplificata.

import type { InvoiceInput } from "../../invoice/schema.ts";
import { always, leaf, type XmlNode } from "../xml-writer.ts";
import type { FieldCheck } from "./limits.ts";
import { isItalian } from "./parties.ts";

export type Variant = "ordinaria" | "semplificata";

/**
 * Per variant: its FormatoTrasmissione, the TipoDocumento codes it may carry (SDI's parser refuses
 * a simplified type in the ordinaria root and the other way round) and the default.
 */
export const VARIANTS = {
  ordinaria: { formato: "FPR12", defaultTipo: "TD01", refused: new Set(["TD07", "TD08", "TD09"]) },
  semplificata: { formato: "FSM10", defaultTipo: "TD07", allowed: new Set(["TD07", "TD08", "TD09"]) },
} as const;

/**
 * CodiceDestinatario when the caller gives none: foreign buyers are routed by XXXXXXX, others by PEC
 * or the buyer's own SDI area. SDI takes XXXXXXX only for a buyer whose IdFiscaleIVA is not Italian
 * (00313), so a buyer abroad with an Italian VAT number is routed as an Italian one.
 */
const FOREIGN_ROUTE = "XXXXXXX";
const NO_ROUTE = "0000000";

const PROGRESSIVO_MAX = 10;

/** ProgressivoInvio from the invoice number: its letters and digits, the last ten (the running part). */
export function progressivoOf(number: string): string {
  const alnum = number.replace(/[^A-Za-z0-9]/g, "");
  return alnum.length > 0 ? alnum.slice(-PROGRESSIVO_MAX) : "1";
}

export function tipoDocumento(invoice: InvoiceInput, variant: Variant, check: FieldCheck): string {
  const rules = VARIANTS[variant];
  const tipo = invoice.italy?.tipoDocumento ?? rules.defaultTipo;
  const fits = "allowed" in rules ? rules.allowed.has(tipo) : !rules.refused.has(tipo);
  if (!fits) check.refuse({ path: "/invoice/italy/tipoDocumento", message: `${tipo} cannot be written as a FatturaPA ${variant}`, keyword: "enum" });
  return tipo;
}

export function datiTrasmissione(invoice: InvoiceInput, sellerVat: string, variant: Variant): XmlNode {
  const italy = invoice.italy;
  const trasmittente = italy?.idTrasmittente ?? { country: sellerVat.slice(0, 2), id: sellerVat.slice(2) };
  const italianVat = invoice.buyer.vatId?.slice(0, 2).toUpperCase() === "IT";
  const route = italy?.codiceDestinatario?.toUpperCase() ?? (isItalian(invoice.buyer) || italianVat ? NO_ROUTE : FOREIGN_ROUTE);
  return always(
    "DatiTrasmissione",
    always("IdTrasmittente", leaf("IdPaese", trasmittente.country), leaf("IdCodice", trasmittente.id)),
    leaf("ProgressivoInvio", italy?.progressivoInvio ?? progressivoOf(invoice.number)),
    leaf("FormatoTrasmissione", VARIANTS[variant].formato),
    leaf("CodiceDestinatario", route),
  );
}

/** The head both roots open DatiGeneraliDocumento with: document type, currency, date, number. */
export function documentHead(invoice: InvoiceInput, variant: Variant, check: FieldCheck): (XmlNode | undefined)[] {
  return [
    leaf("TipoDocumento", tipoDocumento(invoice, variant, check)),
    leaf("Divisa", invoice.currencyCode),
    leaf("Data", invoice.issueDate),
    leaf("Numero", check.text(invoice.number, "/invoice/number", "Numero")),
  ];
}
