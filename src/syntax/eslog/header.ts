// The message header: S_UNH, S_BGM (BT-1, BT-3), the document dates (BT-2, BT-72), free texts
// (BT-22, BT-20, BT-23/BT-24, BT-120/BT-121) and the document references of G_SG1 (BT-13, BT-25/26, BT-83).

import type { Invoice } from "../../model/index.ts";
import { always, leaf, type XmlNode } from "../xml-writer.ts";
import type { Breakdown } from "./amounts.ts";
import { DATE, FIXED, REFERENCE, TEXT } from "./qualifiers.ts";
import { charLength, dtm, ftx, rff } from "./segments.ts";

/** D_0062 holds 14 characters; the message reference carries no business term (BT-1 is whole in S_BGM). */
const MESSAGE_REFERENCE_LENGTH = 14;

function unh(model: Invoice): XmlNode {
  const { type, version, release, agency } = FIXED.messageType;
  const reference = charLength(model.invoiceNumber) <= MESSAGE_REFERENCE_LENGTH ? model.invoiceNumber : FIXED.messageReference;
  return always("S_UNH", leaf("D_0062", reference), always("C_S009", leaf("D_0065", type), leaf("D_0052", version), leaf("D_0054", release), leaf("D_0051", agency)));
}

function bgm(model: Invoice): XmlNode {
  return always("S_BGM", always("C_C002", leaf("D_1001", model.typeCode)), always("C_C106", leaf("D_1004", model.invoiceNumber)));
}

function texts(model: Invoice, breakdowns: readonly Breakdown[]): (XmlNode | undefined)[] {
  const { businessProcessType, specificationIdentifier } = model.processControl;
  return [
    ...model.notes.map((n) => ftx(TEXT.note, n.text || undefined)),
    ftx(TEXT.paymentTerms, model.paymentTerms || undefined),
    ftx(TEXT.process, specificationIdentifier || undefined, businessProcessType || undefined),
    ...breakdowns.map((b) => ftx(TEXT.exemption, b.exemptionReason || undefined, b.exemptionReasonCode || undefined)),
  ];
}

function references(model: Invoice): (XmlNode | undefined)[] {
  const sg1 = (...children: (XmlNode | undefined)[]) => (children[0] ? always("G_SG1", children) : undefined);
  return [
    sg1(rff(REFERENCE.order, model.purchaseOrderReference || undefined)),
    ...model.precedingInvoices.map((p) => sg1(rff(REFERENCE.precedingInvoice, p.number), dtm(DATE.precedingIssue, p.issueDate))),
    sg1(rff(REFERENCE.payment, model.paymentInstructions?.remittanceInformation || undefined)),
  ];
}

/** Header segments, S_UNH to G_SG1, in the XSD's order. */
export function header(model: Invoice, breakdowns: readonly Breakdown[]): (XmlNode | undefined)[] {
  return [unh(model), bgm(model), dtm(DATE.issue, model.issueDate), dtm(DATE.delivery, model.delivery?.actualDeliveryDate), ...texts(model, breakdowns), ...references(model)];
}
