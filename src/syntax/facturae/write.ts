// Facturae 3.2.2 (facturae_xsd/3.2.2): one invoice, modality I by default, unsigned (FACe wants a
// XAdES signature the service does not apply). Root in the `fe` namespace, children unqualified as
// the schema declares no elementFormDefault.

import { always, leaf, serialize, withAttributes } from "../xml-writer.ts";
import type { NationalInput, NationalWritten } from "../national.ts";
import { FACTURAE_322_NS } from "../roots.ts";
import { assertLineTotals, figuresOf } from "./amounts.ts";
import { fileHeader } from "./header.ts";
import { items } from "./lines.ts";
import { lostFields } from "./lost.ts";
import { limitedLeaf } from "./limits.ts";
import { parties } from "./parties.ts";
import { paymentDetails } from "./payment.ts";
import { invoiceTotals, taxesOutputs } from "./taxes.ts";

export function writeFacturae({ invoice, model }: NationalInput): NationalWritten {
  // Generate refuses a Facturae credit note (DOCUMENT_TYPE_STANDARD_MISMATCH) before any writer runs.
  if (model.kind !== "invoice") throw new Error("Facturae is written for invoices only; a credit note should have been refused");
  const spain = invoice.spain ?? {};
  const taxTypeCode = spain.taxTypeCode ?? "01";
  const figures = figuresOf(model);
  assertLineTotals(model, figures);
  const document = always(
    "Invoice",
    always(
      "InvoiceHeader",
      limitedLeaf("InvoiceNumber", model.invoiceNumber, "/invoice/number"),
      leaf("InvoiceDocumentType", spain.invoiceDocumentType ?? "FC"),
      leaf("InvoiceClass", spain.invoiceClass ?? "OO"),
    ),
    always(
      "InvoiceIssueData",
      leaf("IssueDate", model.issueDate),
      leaf("InvoiceCurrencyCode", model.currencyCode),
      // The request's taxCurrencyCode is ignored for facturae (interface.md, Invoice): tax is stated in the invoice currency.
      leaf("TaxCurrencyCode", model.currencyCode),
      leaf("LanguageName", spain.languageName ?? "es"),
    ),
    taxesOutputs(taxTypeCode, figures.rates),
    invoiceTotals(figures),
    items(model, figures, taxTypeCode),
    paymentDetails(model, figures),
  );
  const root = withAttributes(always("fe:Facturae", fileHeader(invoice, figures), parties(invoice), always("Invoices", document)), { "xmlns:fe": FACTURAE_322_NS });
  return { xml: serialize(root), lost: lostFields(invoice, model), stated: { taxExclusive: figures.gross, tax: figures.taxOutputs, taxInclusive: figures.total } };
}
