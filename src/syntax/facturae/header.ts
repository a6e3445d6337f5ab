// FileHeader: schema version, modality, issuer type and the Batch, whose amounts repeat the one
// invoice's totals (the schema's rule for modality I).

import type { InvoiceInput } from "../../invoice/schema.ts";
import { always, leaf, type XmlNode } from "../xml-writer.ts";
import type { Figures } from "./amounts.ts";
import { fitted } from "./limits.ts";
import { taxIdentification } from "./parties.ts";
import { amount } from "./taxes.ts";

/** The schema's own description of BatchIdentifier: the issuer's document number, then the invoice number. */
function batchIdentifier(invoice: InvoiceInput): string {
  const given = invoice.spain?.batchIdentifier;
  if (given !== undefined) return fitted("BatchIdentifier", given, "/invoice/spain/batchIdentifier");
  return fitted("BatchIdentifier", `${taxIdentification(invoice, "seller").number}-${invoice.number}`, "/invoice/number");
}

export function fileHeader(invoice: InvoiceInput, figures: Figures): XmlNode {
  return always(
    "FileHeader",
    leaf("SchemaVersion", "3.2.2"),
    leaf("Modality", invoice.spain?.modality ?? "I"),
    leaf("InvoiceIssuerType", invoice.spain?.invoiceIssuerType ?? "EM"),
    always(
      "Batch",
      leaf("BatchIdentifier", batchIdentifier(invoice)),
      leaf("InvoicesCount", "1"),
      amount("TotalInvoicesAmount", figures.total),
      amount("TotalOutstandingAmount", figures.total),
      amount("TotalExecutableAmount", figures.total),
      leaf("InvoiceCurrencyCode", invoice.currencyCode),
    ),
  );
}
