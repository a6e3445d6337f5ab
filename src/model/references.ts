// Notes, process control, preceding invoices and supporting documents (BG-1, BG-2, BG-3, BG-24).

import type { IsoDate } from "./common.ts";

/** BG-1 INVOICE NOTE. */
export interface Note {
  /** BT-21: invoice note subject code (UNTDID 4451, e.g. `AAI`). */
  subjectCode?: string;
  /** BT-22: invoice note text. */
  text: string;
}

/** BG-2 PROCESS CONTROL. */
export interface ProcessControl {
  /** BT-23 (0..1): business process type (e.g. the Peppol profile id). */
  businessProcessType?: string;
  /** BT-24 (1..1): specification identifier (the customization id). */
  specificationIdentifier: string;
}

/** BG-3 PRECEDING INVOICE REFERENCE. */
export interface PrecedingInvoiceReference {
  /** BT-25: preceding invoice reference (its number). */
  number: string;
  /** BT-26: preceding invoice issue date. */
  issueDate?: IsoDate;
}

/** BT-125 attached document: embedded binary, kept as the base64 text of the source. */
export interface Attachment {
  /** BT-125: the content, base64 encoded. */
  base64: string;
  /** BT-125-1: MIME code of the attached document. */
  mimeCode: string;
  /** BT-125-2: file name of the attached document. */
  filename: string;
}

/** BG-24 ADDITIONAL SUPPORTING DOCUMENTS. */
export interface SupportingDocument {
  /** BT-122: supporting document reference. */
  reference: string;
  /** BT-123: supporting document description. */
  description?: string;
  /** BT-124: external document location (URL). */
  externalUri?: string;
  /** BT-125 (0..1): attached document. */
  attachment?: Attachment;
}
