// Request terms neither FatturaPA variant writes, reported as generate reports any target's losses.
// Each row names where the nearest FatturaPA place is, for a reader looking for the term.

import type { InvoiceInput } from "../../invoice/schema.ts";
import type { LostField } from "../binding.ts";

const NOT_WRITTEN: readonly { bt: string; present: (i: InvoiceInput) => boolean; xpath: string }[] = [
  { bt: "BT-10", present: (i) => i.buyerReference !== undefined, xpath: "/FatturaElettronicaBody/DatiGenerali" },
  { bt: "BT-13", present: (i) => i.orderReference !== undefined, xpath: "/FatturaElettronicaBody/DatiGenerali/DatiOrdineAcquisto" },
  { bt: "BT-20", present: (i) => i.paymentTerms !== undefined, xpath: "/FatturaElettronicaBody/DatiPagamento" },
  { bt: "BT-22", present: (i) => i.note !== undefined, xpath: "/FatturaElettronicaBody/DatiGenerali/DatiGeneraliDocumento/Causale" },
  { bt: "BT-32", present: (i) => i.seller.taxId !== undefined, xpath: "/FatturaElettronicaHeader/CedentePrestatore" },
  { bt: "BG-6", present: (i) => [i.seller.contactName, i.seller.email, i.seller.phone].some((v) => v !== undefined), xpath: "/FatturaElettronicaHeader/CedentePrestatore/Contatti" },
  { bt: "BG-9", present: (i) => [i.buyer.contactName, i.buyer.email, i.buyer.phone].some((v) => v !== undefined), xpath: "/FatturaElettronicaHeader/CessionarioCommittente" },
  { bt: "BG-13", present: (i) => i.delivery !== undefined, xpath: "/FatturaElettronicaBody/DatiGenerali/DatiTrasporto" },
  { bt: "BT-83", present: (i) => i.paymentMeans?.paymentReference !== undefined, xpath: "/FatturaElettronicaBody/DatiPagamento/DettaglioPagamento" },
  { bt: "BT-85", present: (i) => i.paymentMeans?.bankName !== undefined, xpath: "/FatturaElettronicaBody/DatiPagamento/DettaglioPagamento" },
];

export function lostTerms(invoice: InvoiceInput): LostField[] {
  return NOT_WRITTEN.filter((row) => row.present(invoice)).map(({ bt, xpath }) => ({ bt, xpath }));
}
