// UBL 2.1 Invoice and CreditNote as a syntax binding (binding.ts says what one is).

import { anyNamespace as path, type SyntaxBinding } from "../binding.ts";
import { readUbl, readUblWithLeftovers } from "./read.ts";
import { writeUbl } from "./write.ts";

export const UBL: SyntaxBinding = {
  id: "ubl",
  read: readUbl,
  readWithLeftovers: readUblWithLeftovers,
  // Nothing to report lost: BT-24 comes in the model, and what a UBL profile cannot carry
  // (sub-lines) generate removes before writing.
  write: (model) => ({ xml: writeUbl(model), lost: [] }),
  facts: {
    businessProcess: `/*/${path("ProfileID")}`,
    sellerCountry: `/*/${path("AccountingSupplierParty", "Party", "PostalAddress", "Country", "IdentificationCode")}`,
    amountDue: `/*/${path("LegalMonetaryTotal", "PayableAmount")}`,
    dueDate: `(/*/${path("DueDate")} | /*/${path("PaymentMeans", "PaymentDueDate")})[1]`,
    paymentTerms: `/*/${path("PaymentTerms", "Note")}`,
  },
  // A UBL credit note has nothing to point at without the invoice it credits: fail closed.
  creditNoteCitesInvoice: true,
};
