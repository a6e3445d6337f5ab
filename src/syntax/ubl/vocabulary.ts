// UBL 2.1 names the bindings share: namespaces, the lookup reader, and what differs between the
// Invoice and CreditNote documents (root, line and quantity element names, sequences).

import { createReader } from "../xml-reader.ts";
import type { DocumentKind } from "../../model/index.ts";

export const NS = {
  invoice: "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",
  creditNote: "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2",
  cac: "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
  cbc: "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
  ext: "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2",
} as const;

/** Lookups with the prefixes every binding file uses (`cac:`, `cbc:`). */
export type { Element } from "../xml-reader.ts";

export const ubl = createReader({ cac: NS.cac, cbc: NS.cbc });

/** The prefix each UBL namespace is written and reported with. */
export const PREFIXES: Record<string, string> = { [NS.cac]: "cac", [NS.cbc]: "cbc", [NS.ext]: "ext" };

/** What a document kind calls its parts. */
export interface KindNames {
  root: string;
  namespace: string;
  typeCode: string;
  line: string;
  quantity: string;
  subLine: string;
}

export const KINDS: Record<DocumentKind, KindNames> = {
  invoice: {
    root: "Invoice",
    namespace: NS.invoice,
    typeCode: "cbc:InvoiceTypeCode",
    line: "cac:InvoiceLine",
    quantity: "cbc:InvoicedQuantity",
    subLine: "cac:SubInvoiceLine",
  },
  creditNote: {
    root: "CreditNote",
    namespace: NS.creditNote,
    typeCode: "cbc:CreditNoteTypeCode",
    line: "cac:CreditNoteLine",
    quantity: "cbc:CreditedQuantity",
    subLine: "cac:SubCreditNoteLine",
  },
};
