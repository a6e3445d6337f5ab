// FatturaPA writer: the request's invoice as an Italian ordinaria (FPR12) or semplificata (FSM10).
// Every text that does not fit its national field is refused together (400, details.fields).

import type { NationalInput, NationalWritten } from "../national.ts";
import { serialize } from "../xml-writer.ts";
import type { Variant } from "./header.ts";
import { FieldCheck } from "./limits.ts";
import { lostSubLines } from "./lines.ts";
import { lostTerms } from "./lost.ts";
import { ordinaria } from "./ordinaria.ts";
import { semplificata } from "./semplificata.ts";

const WRITERS = { ordinaria, semplificata };

export function writeFatturaPA(input: NationalInput, variant: Variant): NationalWritten {
  const check = new FieldCheck();
  if (input.invoice.documentType === "creditnote") check.refuse({ path: "/invoice/documentType", message: "must be invoice: FatturaPA is generated for invoices only", keyword: "enum" });
  const { root, stated } = WRITERS[variant](input, check);
  check.done();
  const lostPayment = variant === "semplificata" && input.invoice.paymentMeans ? [{ bt: "BG-16", xpath: "/FatturaElettronicaBody" }] : [];
  return { xml: serialize(root), lost: [...lostTerms(input.invoice), ...lostSubLines(input), ...lostPayment], stated };
}
