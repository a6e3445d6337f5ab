// Notes (BG-1), process control (BG-2), preceding invoices (BG-3), the document references
// (BT-11..BT-18) and additional supporting documents (BG-24).
//
// UBL has one `cac:AdditionalDocumentReference` for several terms, told apart by
// `cbc:DocumentTypeCode`: 130 is the invoiced object identifier (BT-18), 50 the project reference
// (BT-11) in a credit note, which has no `cac:ProjectReference`; anything else is BG-24.

import type { DocumentKind, Identifier, Invoice, Note, PrecedingInvoiceReference, SupportingDocument } from "../../model/index.ts";
import { always, group, leaf, type XmlNode } from "../xml-writer.ts";
import { readIdentifier, writeIdentifier } from "./values.ts";
import { attrOf, contentOf, textOf } from "../xml-reader.ts";
import { ubl, type Element } from "./vocabulary.ts";

export const INVOICED_OBJECT_CODE = "130";
const PROJECT_CODE = "50";
// Placeholder order number when only the sales order reference (BT-14) is known: UBL makes the
// order id mandatory, and Peppol BIS names "NA" for this case.
const NO_ORDER_ID = "NA";
// BR-CL-08: a note may start with "#<UNTDID 4451 code>#" to give its subject.
const SUBJECT = /^#([A-Z]{3})#([\s\S]*)$/;

export function readNotes(root: Element): Note[] {
  return ubl.all(root, "cbc:Note").flatMap((el): Note[] => {
    // Untrimmed like the payment terms: free text as the author wrote it.
    const text = contentOf(el);
    if (text === undefined) return [];
    const m = SUBJECT.exec(text);
    return [m ? { subjectCode: m[1], text: m[2]! } : { text }];
  });
}

export function writeNotes(notes: readonly Note[]): (XmlNode | undefined)[] {
  return notes.map((n) => leaf("cbc:Note", n.subjectCode ? `#${n.subjectCode}#${n.text}` : n.text));
}

const ofType = (code: string) => (ref: Element) => ubl.matches(ref, "cbc:DocumentTypeCode", (c) => c === code);

/** The references of the header that are single ids in UBL. */
type HeaderReferences = Pick<
  Invoice,
  | "projectReference"
  | "contractReference"
  | "purchaseOrderReference"
  | "salesOrderReference"
  | "receivingAdviceReference"
  | "despatchAdviceReference"
  | "tenderOrLotReference"
  | "invoicedObjectId"
  | "precedingInvoices"
  | "supportingDocuments"
>;

function readPreceding(ref: Element): PrecedingInvoiceReference | undefined {
  const doc = ubl.one(ref, "cac:InvoiceDocumentReference");
  if (!doc) return undefined;
  return { number: ubl.text(doc, "cbc:ID") ?? "", issueDate: ubl.text(doc, "cbc:IssueDate") };
}

function readSupportingDocument(ref: Element): SupportingDocument {
  const binary = ubl.one(ref, "cac:Attachment/cbc:EmbeddedDocumentBinaryObject");
  const base64 = textOf(binary);
  return {
    reference: ubl.text(ref, "cbc:ID") ?? "",
    description: ubl.text(ref, "cbc:DocumentDescription"),
    externalUri: ubl.text(ref, "cac:Attachment/cac:ExternalReference/cbc:URI"),
    attachment:
      binary && base64
        ? { base64, mimeCode: attrOf(binary, "mimeCode") ?? "", filename: attrOf(binary, "filename") ?? "" }
        : undefined,
  };
}

export function readReferences(root: Element, kind: DocumentKind): HeaderReferences {
  const additional = ubl.all(root, "cac:AdditionalDocumentReference");
  const invoicedObject = additional.find(ofType(INVOICED_OBJECT_CODE));
  const project = kind === "creditNote" ? additional.find(ofType(PROJECT_CODE)) : undefined;
  const orderId = ubl.text(root, "cac:OrderReference/cbc:ID");
  const salesOrderReference = ubl.text(root, "cac:OrderReference/cbc:SalesOrderID");
  return {
    projectReference: project ? ubl.text(project, "cbc:ID") : ubl.text(root, "cac:ProjectReference/cbc:ID"),
    contractReference: ubl.text(root, "cac:ContractDocumentReference/cbc:ID"),
    purchaseOrderReference: orderId === NO_ORDER_ID && salesOrderReference ? undefined : orderId,
    salesOrderReference,
    receivingAdviceReference: ubl.text(root, "cac:ReceiptDocumentReference/cbc:ID"),
    despatchAdviceReference: ubl.text(root, "cac:DespatchDocumentReference/cbc:ID"),
    tenderOrLotReference: ubl.text(root, "cac:OriginatorDocumentReference/cbc:ID"),
    invoicedObjectId: invoicedObject && readIdentifier(invoicedObject, "cbc:ID"),
    precedingInvoices: ubl.all(root, "cac:BillingReference").flatMap((r) => readPreceding(r) ?? []),
    supportingDocuments: additional.filter((r) => r !== invoicedObject && r !== project).map(readSupportingDocument),
  };
}

function idReference(name: string, id: string | undefined): XmlNode | undefined {
  return group(name, leaf("cbc:ID", id));
}

function typedReference(id: Identifier | undefined, typeCode: string): XmlNode | undefined {
  return id && always("cac:AdditionalDocumentReference", writeIdentifier("cbc:ID", id), leaf("cbc:DocumentTypeCode", typeCode));
}

function writeSupportingDocument(doc: SupportingDocument): XmlNode {
  const binary = doc.attachment;
  return always(
    "cac:AdditionalDocumentReference",
    leaf("cbc:ID", doc.reference),
    leaf("cbc:DocumentDescription", doc.description),
    group(
      "cac:Attachment",
      binary &&
        leaf("cbc:EmbeddedDocumentBinaryObject", binary.base64, {
          mimeCode: binary.mimeCode || undefined,
          filename: binary.filename || undefined,
        }),
      group("cac:ExternalReference", leaf("cbc:URI", doc.externalUri)),
    ),
  );
}

/** Root children for the references, in any order (the document writer sorts them). */
export function writeReferences(invoice: Invoice): (XmlNode | undefined)[] {
  const { purchaseOrderReference: order, salesOrderReference: sales } = invoice;
  return [
    group(
      "cac:OrderReference",
      leaf("cbc:ID", order ?? (sales !== undefined ? NO_ORDER_ID : undefined)),
      leaf("cbc:SalesOrderID", sales),
    ),
    ...invoice.precedingInvoices.map((p) =>
      always("cac:BillingReference", always("cac:InvoiceDocumentReference", leaf("cbc:ID", p.number), leaf("cbc:IssueDate", p.issueDate))),
    ),
    idReference("cac:DespatchDocumentReference", invoice.despatchAdviceReference),
    idReference("cac:ReceiptDocumentReference", invoice.receivingAdviceReference),
    idReference("cac:OriginatorDocumentReference", invoice.tenderOrLotReference),
    idReference("cac:ContractDocumentReference", invoice.contractReference),
    typedReference(invoice.invoicedObjectId, INVOICED_OBJECT_CODE),
    invoice.kind === "creditNote"
      ? typedReference(invoice.projectReference === undefined ? undefined : { value: invoice.projectReference }, PROJECT_CODE)
      : idReference("cac:ProjectReference", invoice.projectReference),
    ...invoice.supportingDocuments.map(writeSupportingDocument),
  ];
}
