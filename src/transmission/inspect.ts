// What a transmission needs to know of a document, read in an engine worker (the bytes are the
// caller's): whether it can travel at all, its syntax and envelope facts, the parties' own endpoint
// ids, and the verdict it travels with.

import { detect } from "../syntax/detect";
import { parseXml } from "../syntax/xml-reader";
import { bindingOf } from "../syntax/registry";
import { DomainError } from "../errors/domain-error";
import type { ValidateOutcome, ValidateRequest } from "../validation/validate";
import type { ValidationResult } from "../validation/result";
import type { ParticipantId } from "./identifiers";

export interface InspectOrder {
  xml: string;
  /** What the request says the document is. */
  format: "ubl" | "cii";
}

export interface Inspection {
  format: "ubl" | "cii";
  root: { namespace: string; localName: string };
  /** BT-24. */
  customizationId?: string;
  /** BT-23 (UBL ProfileID, CII business process parameter). */
  processId?: string;
  /** BT-1. */
  invoiceNumber?: string;
  /** BT-34 and BT-49, as the document writes them. */
  seller?: ParticipantId;
  buyer?: ParticipantId;
  verdict: ValidationResult;
}

const refuse = (code: "MALFORMED_DOCUMENT" | "UNSUPPORTED_SYNTAX", message: string) => new DomainError(400, code, message);

const endpoint = (address: { value: string; scheme?: string } | undefined): ParticipantId | undefined =>
  address?.value ? { scheme: address.scheme ?? "", id: address.value } : undefined;

export async function inspectForTransmission(order: InspectOrder, judge: (request: ValidateRequest) => Promise<ValidateOutcome>): Promise<Inspection> {
  const bytes = new TextEncoder().encode(order.xml);
  // The reading policy refuses a DOCTYPE outright, like anything not well-formed.
  try {
    parseXml(bytes);
  } catch (error) {
    throw refuse("MALFORMED_DOCUMENT", `the document cannot travel: ${(error as Error).message}`);
  }
  const detection = detect(bytes);
  if (detection.format !== "ubl" && detection.format !== "cii") {
    throw refuse("UNSUPPORTED_SYNTAX", `only UBL and CII documents can travel; this one is ${detection.format === "unknown" ? "in no supported syntax" : detection.format}`);
  }
  if (detection.format !== order.format) {
    throw new DomainError(400, "VALIDATION_ERROR", `format says ${order.format} but the document is ${detection.format}`, {
      fields: [{ path: "/format", message: `the document is ${detection.format}`, keyword: "const" }],
    });
  }
  const judged = await judge({ bytes, hint: detection.format });
  // An XML body always gets a verdict; only a PDF without invoice XML has none.
  if (!judged.ok) throw refuse("MALFORMED_DOCUMENT", judged.message);
  let invoice;
  try {
    invoice = bindingOf(detection.format).read(bytes);
  } catch {
    // Judged but not readable into the model (a fatal verdict): the verdict says why.
    invoice = undefined;
  }
  return {
    format: detection.format,
    root: detection.root!,
    ...(detection.customizationId && { customizationId: detection.customizationId }),
    ...(invoice?.processControl.businessProcessType && { processId: invoice.processControl.businessProcessType.trim() }),
    ...(invoice?.invoiceNumber && { invoiceNumber: invoice.invoiceNumber }),
    ...(endpoint(invoice?.seller.electronicAddress) && { seller: endpoint(invoice?.seller.electronicAddress) }),
    ...(endpoint(invoice?.buyer.electronicAddress) && { buyer: endpoint(invoice?.buyer.electronicAddress) }),
    verdict: judged.result,
  };
}
