// Data of the French CTC overlay (src/overlays/france-ctc.ts writes and undoes it; validation reads FRENCH_PROCESS).

import type { Note } from "../model/index.ts";

/** BT-23 when the caller names no billing framework: deposit of a mixed goods-and-services invoice. */
export const DEFAULT_FRENCH_PROCESS = "M1";

/** BT-23 values of the French billing frameworks (BR-FR-08: B1..M9). */
export const FRENCH_PROCESS = /^[SBM][1-9]$/;

/** The statutory B2B mentions (BR-FR-05), with the minimums of the Code de commerce. */
export const FRENCH_LEGAL_NOTES: readonly Required<Note>[] = [
  { subjectCode: "PMT", text: "Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement : 40 EUR." },
  { subjectCode: "PMD", text: "Pénalités de retard : trois fois le taux d'intérêt légal." },
  { subjectCode: "AAB", text: "Pas d'escompte pour paiement anticipé." },
];

/** ISO 6523 scheme of the SIREN, the French legal registration id (BR-FR-10). */
export const SIREN_SCHEME = "0002";
