// Which overlays a record's writing facts switch on (`electronicAddress`, `overlay`, `franceCtc`),
// and the order they run in. Parse runs every overlay's undo: a document does not say which
// overlays wrote it, so each undo looks for its own overlay's traces.

import type { InvoiceInput } from "../invoice/schema.ts";
import type { Invoice } from "../model/index.ts";
import type { Writing } from "../profiles/record.ts";
import { electronicAddress } from "./electronic-address.ts";
import { franceCtc } from "./france-ctc.ts";
import { netherlands } from "./netherlands.ts";
import { ROLES, type Generating, type Overlay } from "./overlay.ts";
import { romania } from "./romania.ts";

const NATIONAL: Record<NonNullable<Writing["overlay"]>, Overlay> = { romania, netherlands };

const franceCtcOn = (write: Writing, invoice: InvoiceInput) => write.franceCtc === "always" || (write.franceCtc === "opt-in" && invoice.franceCtc === true);

/** Every record says how its parties' electronic addresses are found (its `electronicAddress` rule). */
export function overlaysFor(write: Writing, invoice: InvoiceInput): Overlay[] {
  return [electronicAddress, ...(write.overlay ? [NATIONAL[write.overlay]] : []), ...(franceCtcOn(write, invoice) ? [franceCtc] : [])];
}

/**
 * Party by party, seller first, each overlay in turn, then the whole model: a party that misses
 * what two overlays need is told about the first one's.
 */
export function applyOverlays(overlays: readonly Overlay[], model: Invoice, request: Generating): void {
  for (const role of ROLES) for (const overlay of overlays) overlay.party?.(role, model[role], request);
  for (const overlay of overlays) overlay.apply?.(model, request);
}

/** Every overlay, in the order parse undoes them. */
const ALL: readonly Overlay[] = [electronicAddress, ...Object.values(NATIONAL), franceCtc];

export function undoOverlays(model: Invoice, invoice: InvoiceInput): void {
  for (const overlay of ALL) overlay.undo?.(model, invoice);
}
