// Document-level terms: process control (BG-2), number, type, issue date, notes (BG-1), currencies
// and the buyer reference. CII has one root for invoices and credit notes; the type code decides.

import type { DocumentKind, Note, ProcessControl } from "../../model/index.ts";
import { CREDIT_NOTE_TYPE_CODES } from "../roots.ts";
import { group } from "../xml-writer.ts";
import type { Contribution, Header } from "./context.ts";
import { readDate, term, writeDate } from "./values.ts";
import { cii } from "./vocabulary.ts";

interface DocumentTerms {
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
  const typeCode = cii.text(h.document, "ram:TypeCode") ?? "";
  return {
    kind: CREDIT_NOTE_TYPE_CODES.has(typeCode) ? "creditNote" : "invoice",
    invoiceNumber: cii.text(h.document, "ram:ID") ?? "",
    issueDate: readDate(h.document, "ram:IssueDateTime") ?? "",
    typeCode,
    currencyCode: cii.text(h.settlement, "ram:InvoiceCurrencyCode") ?? "",
    taxCurrencyCode: cii.text(h.settlement, "ram:TaxCurrencyCode"),
    buyerReference: cii.text(h.agreement, "ram:BuyerReference"),
    notes: cii.all(h.document, "ram:IncludedNote").map((n) => ({ text: cii.text(n, "ram:Content") ?? "", subjectCode: cii.text(n, "ram:SubjectCode") })),
    processControl: {
      businessProcessType: cii.text(h.context, "ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID"),
      specificationIdentifier: cii.text(h.context, "ram:GuidelineSpecifiedDocumentContextParameter/ram:ID") ?? "",
    },
  };
}

export function writeDocument(d: DocumentTerms): Contribution {
  return {
    context: [
      group("ram:BusinessProcessSpecifiedDocumentContextParameter", term("ram:ID", d.processControl.businessProcessType, "BT-23")),
      group("ram:GuidelineSpecifiedDocumentContextParameter", term("ram:ID", d.processControl.specificationIdentifier, "BT-24")),
    ],
    document: [
      term("ram:ID", d.invoiceNumber, "BT-1"),
      term("ram:TypeCode", d.typeCode, "BT-3"),
      writeDate("ram:IssueDateTime", d.issueDate, "BT-2"),
      ...d.notes.map((n) => group("ram:IncludedNote", term("ram:Content", n.text, "BT-22"), term("ram:SubjectCode", n.subjectCode, "BT-21"))),
    ],
    agreement: [term("ram:BuyerReference", d.buyerReference, "BT-10")],
    settlement: [term("ram:TaxCurrencyCode", d.taxCurrencyCode, "BT-6"), term("ram:InvoiceCurrencyCode", d.currencyCode, "BT-5")],
  };
}
