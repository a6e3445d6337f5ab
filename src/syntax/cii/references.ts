// Document references: project, contract, orders, advices, tender, invoiced object, accounting
// reference (BT-11..BT-19), preceding invoices (BG-3) and supporting documents (BG-24). The
// `ram:AdditionalReferencedDocument` list holds three terms told apart by its type code.

import type { Element } from "@xmldom/xmldom";
import type { Identifier, PrecedingInvoiceReference, SupportingDocument } from "../../model/index.ts";
import type { Contribution, Header } from "./context.ts";
import { all, attr, date, first, text } from "./dom.ts";
import { formattedDate, group, leaf } from "./node.ts";

/** UNTDID 1001 codes that the EN 16931 binding gives `ram:AdditionalReferencedDocument`. */
const ADDITIONAL = { tender: "50", invoicedObject: "130", supporting: "916" } as const;

/** CII requires a project name; EN 16931 has none, so this placeholder is the binding's convention. */
const PROJECT_NAME = "Project reference";

export interface ReferenceTerms {
  projectReference?: string;
  contractReference?: string;
  purchaseOrderReference?: string;
  salesOrderReference?: string;
  receivingAdviceReference?: string;
  despatchAdviceReference?: string;
  tenderOrLotReference?: string;
  invoicedObjectId?: Identifier;
  buyerAccountingReference?: string;
  precedingInvoices: PrecedingInvoiceReference[];
  supportingDocuments: SupportingDocument[];
}

const issuerId = (parent: Element | undefined, path: string) => text(parent, `${path}/ram:IssuerAssignedID`);

export function readReferences(h: Header): ReferenceTerms {
  const additional = all(h.agreement, "ram:AdditionalReferencedDocument");
  const ofType = (code: string) => additional.filter((d) => (text(d, "ram:TypeCode") ?? ADDITIONAL.supporting) === code);
  const invoicedObject = ofType(ADDITIONAL.invoicedObject)[0];
  const objectId = text(invoicedObject, "ram:IssuerAssignedID");
  const objectScheme = text(invoicedObject, "ram:ReferenceTypeCode");
  return {
    projectReference: text(h.agreement, "ram:SpecifiedProcuringProject/ram:ID"),
    contractReference: issuerId(h.agreement, "ram:ContractReferencedDocument"),
    purchaseOrderReference: issuerId(h.agreement, "ram:BuyerOrderReferencedDocument"),
    salesOrderReference: issuerId(h.agreement, "ram:SellerOrderReferencedDocument"),
    receivingAdviceReference: issuerId(h.delivery, "ram:ReceivingAdviceReferencedDocument"),
    despatchAdviceReference: issuerId(h.delivery, "ram:DespatchAdviceReferencedDocument"),
    tenderOrLotReference: text(ofType(ADDITIONAL.tender)[0], "ram:IssuerAssignedID"),
    invoicedObjectId: objectId === undefined ? undefined : { value: objectId, ...(objectScheme && { scheme: objectScheme }) },
    buyerAccountingReference: text(h.settlement, "ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID"),
    precedingInvoices: all(h.settlement, "ram:InvoiceReferencedDocument").map((d) => ({
      number: text(d, "ram:IssuerAssignedID") ?? "",
      issueDate: date(d, "ram:FormattedIssueDateTime"),
    })),
    supportingDocuments: ofType(ADDITIONAL.supporting).map(readSupportingDocument),
  };
}

function readSupportingDocument(d: Element): SupportingDocument {
  const binary = first(d, "ram:AttachmentBinaryObject");
  const base64 = binary?.textContent?.trim();
  return {
    reference: text(d, "ram:IssuerAssignedID") ?? "",
    description: text(d, "ram:Name"),
    externalUri: text(d, "ram:URIID"),
    attachment: base64 ? { base64, mimeCode: attr(binary, "mimeCode") ?? "", filename: attr(binary, "filename") ?? "" } : undefined,
  };
}

const referenced = (name: string, id: string | undefined, bt: string) => group(name, leaf("ram:IssuerAssignedID", id, bt));

export function writeReferences(r: ReferenceTerms): Contribution {
  return {
    agreement: [
      referenced("ram:SellerOrderReferencedDocument", r.salesOrderReference, "BT-14"),
      referenced("ram:BuyerOrderReferencedDocument", r.purchaseOrderReference, "BT-13"),
      referenced("ram:ContractReferencedDocument", r.contractReference, "BT-12"),
      ...r.supportingDocuments.map((d) =>
        group(
          "ram:AdditionalReferencedDocument",
          leaf("ram:IssuerAssignedID", d.reference, "BT-122"),
          leaf("ram:URIID", d.externalUri, "BT-124"),
          leaf("ram:TypeCode", ADDITIONAL.supporting),
          leaf("ram:Name", d.description, "BT-123"),
          d.attachment && leaf("ram:AttachmentBinaryObject", d.attachment.base64, "BT-125", { mimeCode: d.attachment.mimeCode, filename: d.attachment.filename }),
        ),
      ),
      r.tenderOrLotReference !== undefined &&
        group("ram:AdditionalReferencedDocument", leaf("ram:IssuerAssignedID", r.tenderOrLotReference, "BT-17"), leaf("ram:TypeCode", ADDITIONAL.tender)),
      r.invoicedObjectId &&
        group(
          "ram:AdditionalReferencedDocument",
          leaf("ram:IssuerAssignedID", r.invoicedObjectId.value, "BT-18"),
          leaf("ram:TypeCode", ADDITIONAL.invoicedObject),
          leaf("ram:ReferenceTypeCode", r.invoicedObjectId.scheme, "BT-18-1"),
        ),
      r.projectReference !== undefined &&
        group("ram:SpecifiedProcuringProject", leaf("ram:ID", r.projectReference, "BT-11"), leaf("ram:Name", PROJECT_NAME)),
    ],
    delivery: [
      referenced("ram:DespatchAdviceReferencedDocument", r.despatchAdviceReference, "BT-16"),
      referenced("ram:ReceivingAdviceReferencedDocument", r.receivingAdviceReference, "BT-15"),
    ],
    settlement: [
      ...r.precedingInvoices.map((p) =>
        group("ram:InvoiceReferencedDocument", leaf("ram:IssuerAssignedID", p.number, "BT-25"), formattedDate("ram:FormattedIssueDateTime", p.issueDate, "BT-26")),
      ),
      group("ram:ReceivableSpecifiedTradeAccountingAccount", leaf("ram:ID", r.buyerAccountingReference, "BT-19")),
    ],
  };
}
