// EN 16931 model -> UBL 2.1 Invoice or CreditNote XML text (the model's `kind` picks the root).
// Deterministic: the same model always gives the same bytes.

import type { Invoice } from "../../model/index.ts";
import { serialize } from "../xml-writer.ts";
import { writeDocument } from "./document.ts";

export function writeUbl(invoice: Invoice): string {
  return serialize(writeDocument(invoice));
}
