// PaymentDetails (BG-16): one installment of the whole executable amount, due on the due date
// (BT-9) or, without one, on the issue date.

import type { Invoice } from "../../model/index.ts";
import { always, group, leaf, type XmlNode } from "../xml-writer.ts";
import type { Figures } from "./amounts.ts";
import { PAYMENT_MEANS } from "./codes.ts";
import { limitedLeaf } from "./limits.ts";

const account = (name: string, iban: string | undefined): XmlNode | undefined => iban === undefined ? undefined : always(name, limitedLeaf("IBAN", iban, "/invoice/paymentMeans/iban"));

/** Absent without payment instructions or when their means has no Facturae code (codes.ts). */
export function paymentDetails(model: Invoice, figures: Figures): XmlNode | undefined {
  const p = model.paymentInstructions;
  const means = p && PAYMENT_MEANS[p.meansTypeCode];
  if (!p || !means) return undefined;
  return group(
    "PaymentDetails",
    always(
      "Installment",
      leaf("InstallmentDueDate", model.dueDate ?? model.issueDate),
      leaf("InstallmentAmount", figures.total),
      leaf("PaymentMeans", means),
      account("AccountToBeCredited", p.creditTransfers[0]?.accountId),
      p.remittanceInformation === undefined ? undefined : limitedLeaf("PaymentReconciliationReference", p.remittanceInformation, "/invoice/paymentMeans/paymentReference"),
      account("AccountToBeDebited", p.directDebit?.debitedAccountId),
    ),
  );
}
