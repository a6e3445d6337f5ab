// DatiPagamento (2.4) from the payment instructions (BG-16), written when the request has them.

import type { InvoiceInput } from "../../invoice/schema.ts";
import { always, leaf, type XmlNode } from "../xml-writer.ts";
import type { FieldCheck } from "./limits.ts";

/**
 * UNCL 4461 payment means (BT-81) → ModalitaPagamento. Any other code needs the caller's
 * `italy.modalitaPagamento`, since guessing would misstate how the buyer pays.
 */
const MODALITA_BY_MEANS: Readonly<Record<string, string>> = {
  "10": "MP01", // in cash: contanti
  "20": "MP02", // cheque: assegno
  "30": "MP05", // credit transfer: bonifico
  "42": "MP05", // payment to bank account: bonifico
  "58": "MP05", // SEPA credit transfer: bonifico
  "48": "MP08", // bank card: carta di pagamento
  "54": "MP08", // credit card: carta di pagamento
  "55": "MP08", // debit card: carta di pagamento
  "49": "MP09", // direct debit: RID
  "59": "MP19", // SEPA direct debit: SEPA Direct Debit
};

/** Direct debits name the buyer's account; FatturaPA's IBAN is where the payee is paid. */
const DEBITS: ReadonlySet<string> = new Set(["MP09", "MP10", "MP11", "MP19", "MP20", "MP21"]);

const IBAN = /^[a-zA-Z]{2}[0-9]{2}[a-zA-Z0-9]{11,30}$/;
const BIC = /^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/;

/** TP02: payment in full, the default when the caller does not say TP01 (instalments). */
const DEFAULT_CONDIZIONI = "TP02";

function patterned(value: string | undefined, pattern: RegExp, pointer: string, what: string, check: FieldCheck): string | undefined {
  if (value !== undefined && !pattern.test(value)) check.refuse({ path: pointer, message: `must be ${what} to be written in FatturaPA`, keyword: "pattern" });
  return value;
}

/** `amountDue` is what the buyer pays the seller (without the VAT under split payment). */
export function datiPagamento(invoice: InvoiceInput, amountDue: string, check: FieldCheck): XmlNode | undefined {
  const means = invoice.paymentMeans;
  if (!means) return undefined;
  const modalita = invoice.italy?.modalitaPagamento ?? MODALITA_BY_MEANS[means.typeCode];
  if (!modalita) check.refuse({ path: "/invoice/paymentMeans/typeCode", message: `has no FatturaPA ModalitaPagamento; send invoice.italy.modalitaPagamento`, keyword: "enum" });
  const credited = modalita !== undefined && !DEBITS.has(modalita);
  return always(
    "DatiPagamento",
    leaf("CondizioniPagamento", invoice.italy?.condizioniPagamento ?? DEFAULT_CONDIZIONI),
    always(
      "DettaglioPagamento",
      leaf("ModalitaPagamento", modalita),
      leaf("DataScadenzaPagamento", invoice.dueDate),
      leaf("ImportoPagamento", amountDue),
      credited && leaf("IBAN", patterned(means.iban, IBAN, "/invoice/paymentMeans/iban", "an IBAN", check)),
      credited && leaf("BIC", patterned(means.bic, BIC, "/invoice/paymentMeans/bic", "a BIC", check)),
    ),
  );
}
