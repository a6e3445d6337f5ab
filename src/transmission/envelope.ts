// The Peppol envelope (SBDH) values a transmission travels with, derived as the spec says: the
// document type id from the root element and the customization id, the process id from BT-23,
// sender and recipient from the request (never the invoice).

import { DomainError } from "../errors/domain-error";
import type { Inspection } from "./inspect";
import { normalised, type ParticipantId } from "./identifiers";

/** The syntax version Peppol's document type identifiers end with. */
const SYNTAX_VERSION = { ubl: "2.1", cii: "D16B" } as const;

export interface PeppolEnvelope {
  /** `busdox-docid-qns` value: `<root namespace>::<root name>##<customization id>::<syntax version>`. */
  documentTypeId: string;
  /** `cenbii-procid-ubl` value. */
  processId: string;
  sender: string;
  recipient: string;
}

const participantId = (p: ParticipantId) => {
  const { scheme, id } = normalised(p);
  return `iso6523-actorid-upis::${scheme}:${id}`;
};

export function peppolEnvelope(inspection: Inspection, request: { sender: ParticipantId; recipient: ParticipantId }): PeppolEnvelope {
  if (!inspection.customizationId) throw new DomainError(400, "MISSING_CUSTOMIZATION_ID", "the document has no customization id (BT-24), which names its Peppol document type; nothing was queued or billed");
  if (!inspection.processId) {
    throw new DomainError(400, "MISSING_PROCESS_ID", `the document has no process id (BT-23: ${inspection.format === "ubl" ? "cbc:ProfileID" : "the business process parameter"}); nothing was queued or billed`);
  }
  const { namespace, localName } = inspection.root;
  return {
    documentTypeId: `${namespace}::${localName}##${inspection.customizationId}::${SYNTAX_VERSION[inspection.format]}`,
    processId: inspection.processId,
    sender: participantId(request.sender),
    recipient: participantId(request.recipient),
  };
}
