// Document-level terms: process control (BG-2), number, type, issue date, notes (BG-1), currencies
// and the buyer reference. CII has one root for invoices and credit notes; the type code decides.

import type { DocumentKind, Note, ProcessControl } from "../../model/index.ts";
import { CREDIT_NOTE_TYPE_CODES } from "../profiles.ts";
import type { Contribution, Header } from "./context.ts";
import { all, date, text } from "./dom.ts";
import { date102, group, leaf } from "./node.ts";

export interface DocumentTerms {
  kind: DocumentKind;
  invoiceNumber: string;
  issueDate: string;
  typeCode: string;
  currencyCode: string;
  taxCurrencyCode?: string;
  buyerReference?: string;
  notes: Note[];
  processControl: ProcessControl;
}

export function readDocument(h: Header): DocumentTerms {
  const typeCode = text(h.document, "ram:TypeCode") ?? "";
  return {
    kind: CREDIT_NOTE_TYPE_CODES.has(typeCode) ? "creditNote" : "invoice",
    invoiceNumber: text(h.document, "ram:ID") ?? "",
    issueDate: date(h.document, "ram:IssueDateTime") ?? "",
    typeCode,
    currencyCode: text(h.settlement, "ram:InvoiceCurrencyCode") ?? "",
    taxCurrencyCode: text(h.settlement, "ram:TaxCurrencyCode"),
    buyerReference: text(h.agreement, "ram:BuyerReference"),
    notes: all(h.document, "ram:IncludedNote").map((n) => ({ text: text(n, "ram:Content") ?? "", subjectCode: text(n, "ram:SubjectCode") })),
    processControl: {
      businessProcessType: text(h.context, "ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID"),
      specificationIdentifier: text(h.context, "ram:GuidelineSpecifiedDocumentContextParameter/ram:ID") ?? "",
    },
  };
}

export function writeDocument(d: DocumentTerms): Contribution {
  return {
    context: [
      group("ram:BusinessProcessSpecifiedDocumentContextParameter", leaf("ram:ID", d.processControl.businessProcessType, "BT-23")),
      group("ram:GuidelineSpecifiedDocumentContextParameter", leaf("ram:ID", d.processControl.specificationIdentifier, "BT-24")),
    ],
    document: [
      leaf("ram:ID", d.invoiceNumber, "BT-1"),
      leaf("ram:TypeCode", d.typeCode, "BT-3"),
      date102("ram:IssueDateTime", d.issueDate, "BT-2"),
      ...d.notes.map((n) => group("ram:IncludedNote", leaf("ram:Content", n.text, "BT-22"), leaf("ram:SubjectCode", n.subjectCode, "BT-21"))),
    ],
    agreement: [leaf("ram:BuyerReference", d.buyerReference, "BT-10")],
    settlement: [leaf("ram:TaxCurrencyCode", d.taxCurrencyCode, "BT-6"), leaf("ram:InvoiceCurrencyCode", d.currencyCode, "BT-5")],
  };
}
