// The model's terms this writer does not carry, reported as generate reports any target's losses.
// A table, one row per term: what in the model holds it, and where in e-SLOG it would have gone.

import type { Invoice } from "../../model/index.ts";
import type { LostField } from "../binding.ts";

type LostRule = readonly [bt: string, xpath: string, held: (model: Invoice) => unknown];

const M = "/Invoice/M_INVOIC";

const LOST: readonly LostRule[] = [
  ["BT-6", `${M}/G_SG7/S_CUX/C_C504`, (m) => m.taxCurrencyCode],
  ["BT-111", `${M}/G_SG50/S_MOA`, (m) => m.totals.vatTotalInAccountingCurrency],
  ["BT-34", `${M}/G_SG2/S_NAD/C_C082`, (m) => m.seller.electronicAddress],
  ["BT-49", `${M}/G_SG2/S_NAD/C_C082`, (m) => m.buyer.electronicAddress],
  ["BT-70", `${M}/G_SG2/S_NAD/C_C080`, (m) => m.delivery?.partyName],
  ["BG-15", `${M}/G_SG2/S_NAD/C_C059`, (m) => m.delivery?.address],
  ["BG-DEX-01", `${M}/G_SG26`, (m) => m.lines.some((l) => l.subLines?.length) || undefined],
];

export function lostTerms(model: Invoice): LostField[] {
  return LOST.filter(([, , held]) => held(model) !== undefined).map(([bt, xpath]) => ({ bt, xpath }));
}
