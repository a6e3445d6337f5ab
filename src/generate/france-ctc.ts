// The French CTC overlay (e-invoicing reform, EXTENDED-CTC-FR and the BR-FR "Flux 2" rules), for
// what the API's generic fields cannot say on their own:
// - BT-23, the billing framework: `businessProcessId` when given; otherwise M1 (deposit of an
//   invoice for goods and services), the one framework that is true of any plain invoice.
// - The three legal mentions every French B2B invoice carries (BR-FR-05), as notes with their
//   subject codes, worded with the statutory minimums of the Code de commerce (L441-10, D441-5):
//   the flat EUR 40 recovery indemnity, late-payment penalties at three times the legal interest
//   rate, no discount for early payment. A seller with other terms says so in `note` / `paymentTerms`.
// - A French party's `registrationId` is its SIREN (scheme 0002, BR-FR-10).

import type { Invoice } from "../model/index.ts";
import { DEFAULT_FRENCH_PROCESS, FRENCH_LEGAL_NOTES, SIREN_SCHEME } from "../standards/france-ctc.ts";

export function applyFranceCtc(model: Invoice, businessProcessId: string | undefined): void {
  model.processControl.businessProcessType = businessProcessId ?? DEFAULT_FRENCH_PROCESS;
  const present = new Set(model.notes.map((n) => n.subjectCode));
  model.notes.push(...FRENCH_LEGAL_NOTES.filter((n) => !present.has(n.subjectCode)));
  for (const party of [model.seller, model.buyer]) {
    const legal = party.legalRegistrationId;
    if (party.address.countryCode === "FR" && legal && legal.scheme === undefined) party.legalRegistrationId = { ...legal, scheme: SIREN_SCHEME };
  }
}
