// The French CTC overlay (e-invoicing reform, EXTENDED-CTC-FR and the BR-FR "Flux 2" rules), for
// what the API's generic fields cannot say on their own:
// - BT-23, the billing framework: `businessProcessId` when given; otherwise M1 (deposit of an
//   invoice for goods and services), the one framework that is true of any plain invoice.
// - The three legal mentions every French B2B invoice carries (BR-FR-05), as notes with their
//   subject codes, worded with the statutory minimums of the Code de commerce (L441-10, D441-5):
//   the flat EUR 40 recovery indemnity, late-payment penalties at three times the legal interest
//   rate, no discount for early payment. A seller with other terms says so in `note` / `paymentTerms`.
// - A French party's `registrationId` is its SIREN (scheme 0002, BR-FR-10).
// - In a multi-vendor invoice (S8, B8, M8: every framework `businessProcessId` can name), each
//   sub-line's VAT exemption reason starts with its sub-invoice number between hashes (BR-FR-MV-08),
//   which ties it to the VAT breakdown of that sub-invoice (the caller's `exemptionReasonText`).
// Parse removes those notes (they are not the caller's `note`) and answers a French framework in
// BT-23 as `franceCtc: true`, with `businessProcessId` where the API can send that framework.

import type { Invoice, InvoiceLine } from "../model/index.ts";
import { noteOf } from "../invoice/from-model.ts";
import { SUB_INVOICE_SCHEME } from "../invoice/to-model.ts";
import { Invoice as InvoiceSchema, type InvoiceInput } from "../invoice/schema.ts";
import { DEFAULT_FRENCH_PROCESS, FRENCH_LEGAL_NOTES, FRENCH_PROCESS, SIREN_SCHEME } from "../standards/france-ctc.ts";
import type { Overlay } from "./overlay.ts";

type ApiProcess = NonNullable<InvoiceInput["businessProcessId"]>;

/** The French billing frameworks the API can send as `businessProcessId` (its schema's enum); the others mean `franceCtc` alone. */
const API_PROCESSES: ReadonlySet<string> = new Set(InvoiceSchema.properties.businessProcessId.anyOf.map((literal) => literal.const));

const isLegalNote = (n: Invoice["notes"][number]) => FRENCH_LEGAL_NOTES.some((f) => f.subjectCode === n.subjectCode && f.text === n.text);

/** BR-FR-MV-08: `#number#` opens the VAT exemption reason of every line below a sub-invoice's group line. */
function markSubInvoice(lines: readonly InvoiceLine[]): void {
  for (const line of lines) {
    const number = line.objectId?.scheme === SUB_INVOICE_SCHEME ? line.objectId.value : undefined;
    if (number !== undefined && line.vat.exemptionReason === undefined) line.vat.exemptionReason = `#${number}#`;
    markSubInvoice(line.subLines ?? []);
  }
}

export const franceCtc: Overlay = {
  apply(model, { invoice }) {
    model.processControl.businessProcessType = invoice.businessProcessId ?? DEFAULT_FRENCH_PROCESS;
    if (invoice.businessProcessId !== undefined) for (const line of model.lines) markSubInvoice(line.subLines ?? []);
    const present = new Set(model.notes.map((n) => n.subjectCode));
    model.notes.push(...FRENCH_LEGAL_NOTES.filter((n) => !present.has(n.subjectCode)));
    for (const party of [model.seller, model.buyer]) {
      const legal = party.legalRegistrationId;
      if (party.address.countryCode === "FR" && legal && legal.scheme === undefined) party.legalRegistrationId = { ...legal, scheme: SIREN_SCHEME };
    }
  },
  undo(model, invoice) {
    const note = noteOf(model.notes.filter((n) => !isLegalNote(n)));
    if (note === undefined) delete invoice.note;
    else invoice.note = note;
    const process = model.processControl.businessProcessType;
    if (process === undefined || !FRENCH_PROCESS.test(process)) return;
    invoice.franceCtc = true;
    if (API_PROCESSES.has(process)) invoice.businessProcessId = process as ApiProcess;
  },
};
