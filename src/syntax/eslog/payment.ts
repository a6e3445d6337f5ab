// G_SG8: payment terms with the due date (BT-9) and the payment means code (BT-81). The accounts
// (BG-17, BT-91) are the parties' S_FII (parties.ts), the payment reference (BT-83) a G_SG1 RFF PQ.

import type { Invoice } from "../../model/index.ts";
import { always, leaf, type XmlNode } from "../xml-writer.ts";
import { DATE, FIXED } from "./qualifiers.ts";
import { dtm } from "./segments.ts";

/** Absent when the invoice states neither a due date nor a means of payment. */
export function payment(model: Invoice): XmlNode | undefined {
  const means = model.paymentInstructions?.meansTypeCode;
  if (model.dueDate === undefined && means === undefined) return undefined;
  return always(
    "G_SG8",
    always("S_PAT", leaf("D_4279", FIXED.paymentTerms)),
    dtm(DATE.due, model.dueDate),
    means ? always("S_PAI", always("C_C534", leaf("D_4461", means))) : undefined,
  );
}
