// What a national-format writer (FatturaPA, Facturae, e-SLOG) is given and gives back. Unlike the
// EN 16931 bindings they write from the generate request's invoice as well as its model: the
// national objects (`italy`, `spain`) have no place in the EN 16931 model, and a value too long
// for a national field is refused naming the request's JSON pointer.

import type { Decimal, Invoice } from "../model/index.ts";
import type { InvoiceInput } from "../invoice/schema.ts";
import type { LostField } from "./binding.ts";

export interface NationalInput {
  /** The request's invoice, as the generate schema accepted it. */
  invoice: InvoiceInput;
  /** The same invoice in the EN 16931 model (src/invoice/to-model.ts toModel). */
  model: Invoice;
}

export interface NationalWritten {
  xml: string;
  /** Terms of the request the format cannot carry, dropped (reported like generate's other targets). */
  lost: LostField[];
  /**
   * The document totals the file states, as the format's rounding rule computed them from the lines;
   * generate holds them to the request's (BT-109, BT-110, BT-112) so no total changes unseen.
   */
  stated: { taxExclusive?: Decimal; tax?: Decimal; taxInclusive?: Decimal };
}
