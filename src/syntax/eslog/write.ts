// e-SLOG 2.0 (urn:eslog:2.00) from a generate request: the XSD's limits are checked first (a value
// too long is refused, never cut), then the message is assembled part by part and put in the
// XSD's M_INVOIC order.

import type { NationalInput, NationalWritten } from "../national.ts";
import { always, inSequence, serialize, withAttributes } from "../xml-writer.ts";
import { totals } from "./amounts.ts";
import { currency } from "./currency.ts";
import { header } from "./header.ts";
import { checkLimits } from "./limits.ts";
import { line } from "./lines.ts";
import { lostTerms } from "./lost.ts";
import { parties } from "./parties.ts";
import { payment } from "./payment.ts";
import { MESSAGE_SEQUENCE } from "./segments.ts";
import { summary } from "./summary.ts";

const NAMESPACE = "urn:eslog:2.00";
/** The Id an enveloped or detached signature references (the XSD fixes it). */
const SIGNED_ID = "data";

export function writeEslog({ invoice, model }: NationalInput): NationalWritten {
  const t = totals(model);
  checkLimits(invoice, t.breakdowns.length);
  const parts = always(
    "M_INVOIC",
    header(model, t.breakdowns),
    parties(model, invoice),
    currency(model),
    payment(model),
    model.lines.map((l, i) => line(l, i + 1)),
    summary(t),
  ).children;
  const message = withAttributes(always("M_INVOIC", inSequence(parts, MESSAGE_SEQUENCE)), { Id: SIGNED_ID });
  const root = withAttributes(always("Invoice", message), { xmlns: NAMESPACE });
  return { xml: serialize(root), lost: lostTerms(model), stated: { taxExclusive: t.taxExclusive, tax: t.taxTotal, taxInclusive: t.taxInclusive } };
}
