// Document references: project, contract, orders, advices, tender, invoiced object, accounting
// reference (BT-11..BT-19), preceding invoices (BG-3) and supporting documents (BG-24). The
// `ram:AdditionalReferencedDocument` list holds three terms told apart by its type code.

import type { Identifier, Invoice, SupportingDocument } from "../../model/index.ts";
import { identifier } from "../values.ts";
import { attrOf, textOf } from "../xml-reader.ts";
import { group, type XmlNode } from "../xml-writer.ts";
import type { Contribution, Header } from "./context.ts";
import { readDate, term, writeDate } from "./values.ts";
import { cii, type Element } from "./vocabulary.ts";

/** UNTDID 1001 codes that the EN 16931 binding gives `ram:AdditionalReferencedDocument`. */
const ADDITIONAL = { tender: "50", invoicedObject: "130", supporting: "916" } as const;

/** CII requires a project name; EN 16931 has none, so this placeholder is the binding's convention. */
export const PROJECT_NAME = "Project reference";

/** The model's reference terms, as one CII block reads and writes them. */
type ReferenceTerms = Pick<
  Invoice,
  | "projectReference"
  | "contractReference"
  | "purchaseOrderReference"
  | "salesOrderReference"
  | "receivingAdviceReference"
  | "despatchAdviceReference"
  | "tenderOrLotReference"
  | "invoicedObjectId"
  | "buyerAccountingReference"
  | "precedingInvoices"
  | "supportingDocuments"
>;

const issuerId = (parent: Element | undefined, path: string) => cii.text(parent, `${path}/ram:IssuerAssignedID`);

export function readReferences(h: Header): ReferenceTerms {
  const additional = cii.all(h.agreement, "ram:AdditionalReferencedDocument");
  // A document without a type code is a supporting document, as the writer writes 916 back.
  const ofType = (code: string) => (d: Element) => cii.matches(d, "ram:TypeCode", (c) => (c ?? ADDITIONAL.supporting) === code);
  return {
    projectReference: cii.text(h.agreement, "ram:SpecifiedProcuringProject/ram:ID"),
    contractReference: issuerId(h.agreement, "ram:ContractReferencedDocument"),
    purchaseOrderReference: issuerId(h.agreement, "ram:BuyerOrderReferencedDocument"),
    salesOrderReference: issuerId(h.agreement, "ram:SellerOrderReferencedDocument"),
    receivingAdviceReference: issuerId(h.delivery, "ram:ReceivingAdviceReferencedDocument"),
    despatchAdviceReference: issuerId(h.delivery, "ram:DespatchAdviceReferencedDocument"),
    tenderOrLotReference: cii.text(additional.find(ofType(ADDITIONAL.tender)), "ram:IssuerAssignedID"),
    invoicedObjectId: readInvoicedObject(h.agreement),
    buyerAccountingReference: cii.text(h.settlement, "ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID"),
    precedingInvoices: cii.all(h.settlement, "ram:InvoiceReferencedDocument").map((d) => ({
      number: cii.text(d, "ram:IssuerAssignedID") ?? "",
      issueDate: readDate(d, "ram:FormattedIssueDateTime"),
    })),
    supportingDocuments: additional.filter(ofType(ADDITIONAL.supporting)).map(readSupportingDocument),
  };
}

/** The invoiced object identifier (BT-18 in the header, BT-128 on a line) under `parent`. */
export function readInvoicedObject(parent: Element | undefined): Identifier | undefined {
  const d = cii.all(parent, "ram:AdditionalReferencedDocument").find((e) => cii.matches(e, "ram:TypeCode", (c) => c === ADDITIONAL.invoicedObject));
  const value = cii.text(d, "ram:IssuerAssignedID");
  return value === undefined ? undefined : identifier(value, cii.text(d, "ram:ReferenceTypeCode"));
}

export function writeInvoicedObject(id: Identifier | undefined, bt: string, schemeBt: string): XmlNode | undefined {
  return (
    id &&
    group(
      "ram:AdditionalReferencedDocument",
      term("ram:IssuerAssignedID", id.value, bt),
      term("ram:TypeCode", ADDITIONAL.invoicedObject),
      term("ram:ReferenceTypeCode", id.scheme, schemeBt),
    )
  );
}

function readSupportingDocument(d: Element): SupportingDocument {
  const binary = cii.one(d, "ram:AttachmentBinaryObject");
  const base64 = textOf(binary);
  return {
    reference: cii.text(d, "ram:IssuerAssignedID") ?? "",
    description: cii.text(d, "ram:Name"),
    externalUri: cii.text(d, "ram:URIID"),
    attachment: base64 ? { base64, mimeCode: attrOf(binary, "mimeCode") ?? "", filename: attrOf(binary, "filename") ?? "" } : undefined,
  };
}

const referenced = (name: string, id: string | undefined, bt: string) => group(name, term("ram:IssuerAssignedID", id, bt));

export function writeReferences(r: ReferenceTerms): Contribution {
  return {
    agreement: [
      referenced("ram:SellerOrderReferencedDocument", r.salesOrderReference, "BT-14"),
      referenced("ram:BuyerOrderReferencedDocument", r.purchaseOrderReference, "BT-13"),
      referenced("ram:ContractReferencedDocument", r.contractReference, "BT-12"),
      ...r.supportingDocuments.map((d) =>
        group(
          "ram:AdditionalReferencedDocument",
          term("ram:IssuerAssignedID", d.reference, "BT-122"),
          term("ram:URIID", d.externalUri, "BT-124"),
          term("ram:TypeCode", ADDITIONAL.supporting),
          term("ram:Name", d.description, "BT-123"),
          d.attachment && term("ram:AttachmentBinaryObject", d.attachment.base64, "BT-125", { mimeCode: d.attachment.mimeCode, filename: d.attachment.filename }),
        ),
      ),
      r.tenderOrLotReference !== undefined &&
        group("ram:AdditionalReferencedDocument", term("ram:IssuerAssignedID", r.tenderOrLotReference, "BT-17"), term("ram:TypeCode", ADDITIONAL.tender)),
      writeInvoicedObject(r.invoicedObjectId, "BT-18", "BT-18-1"),
      r.projectReference !== undefined &&
        group("ram:SpecifiedProcuringProject", term("ram:ID", r.projectReference, "BT-11"), term("ram:Name", PROJECT_NAME)),
    ],
    delivery: [
      referenced("ram:DespatchAdviceReferencedDocument", r.despatchAdviceReference, "BT-16"),
      referenced("ram:ReceivingAdviceReferencedDocument", r.receivingAdviceReference, "BT-15"),
    ],
    settlement: [
      ...r.precedingInvoices.map((p) =>
        group("ram:InvoiceReferencedDocument", term("ram:IssuerAssignedID", p.number, "BT-25"), writeDate("ram:FormattedIssueDateTime", p.issueDate, "BT-26", "qdt:DateTimeString")),
      ),
      group("ram:ReceivableSpecifiedTradeAccountingAccount", term("ram:ID", r.buyerAccountingReference, "BT-19")),
    ],
  };
}
