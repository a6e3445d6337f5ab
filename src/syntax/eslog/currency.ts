// G_SG7: the invoice currency (BT-5). The VAT accounting currency (BT-6) is not written: the API
// ignores it for e-SLOG (interface, taxCurrencyCode), and lost.ts reports it.

import type { Invoice } from "../../model/index.ts";
import { always, leaf, type XmlNode } from "../xml-writer.ts";
import { FIXED } from "./qualifiers.ts";

export function currency(model: Invoice): XmlNode {
  return always("G_SG7", always("S_CUX", always("C_C504", leaf("D_6347", FIXED.invoiceCurrency), leaf("D_6345", model.currencyCode))));
}
