// Payment instructions (BG-16..BG-19), payment terms (BT-20) and due date (BT-9). CII spreads them:
// means and accounts in `ram:SpecifiedTradeSettlementPaymentMeans` (one per credit transfer
// account), remittance and creditor id on the settlement, mandate and due date in the payment terms.

import type { Element } from "@xmldom/xmldom";
import type { CreditTransfer, PaymentInstructions } from "../../model/index.ts";
import type { Contribution, Header } from "./context.ts";
import { all, date, first, text } from "./dom.ts";
import { date102, group, leaf, type XmlNode } from "./node.ts";

export interface PaymentTerms {
  paymentInstructions?: PaymentInstructions;
  /** BT-20. */
  paymentTerms?: string;
  /** BT-9. */
  dueDate?: string;
}

// An IBAN is two letters, two check digits and up to 30 letters or digits; anything else is a
// proprietary account id (BT-84 has one term for both CII elements).
const IBAN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/;

function readCreditTransfer(means: Element): CreditTransfer | undefined {
  const account = first(means, "ram:PayeePartyCreditorFinancialAccount");
  if (!account) return undefined;
  return {
    accountId: text(account, "ram:IBANID") ?? text(account, "ram:ProprietaryID") ?? "",
    accountName: text(account, "ram:AccountName"),
    serviceProviderId: text(means, "ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID"),
  };
}

export function readPayment(h: Header): PaymentTerms {
  const means = all(h.settlement, "ram:SpecifiedTradeSettlementPaymentMeans");
  const terms = all(h.settlement, "ram:SpecifiedTradePaymentTerms");
  const firstOf = (path: string) => means.map((m) => text(m, path)).find((v) => v !== undefined);
  const card = means.map((m) => first(m, "ram:ApplicableTradeSettlementFinancialCard")).find((c) => c);
  const mandate = terms.map((t) => text(t, "ram:DirectDebitMandateID")).find((v) => v !== undefined);
  const creditorId = text(h.settlement, "ram:CreditorReferenceID");
  const debitedAccount = firstOf("ram:PayerPartyDebtorFinancialAccount/ram:IBANID");
  const remittance = text(h.settlement, "ram:PaymentReference");
  const directDebit =
    mandate ?? creditorId ?? debitedAccount ? { mandateReference: mandate, creditorId, debitedAccountId: debitedAccount } : undefined;
  const descriptions = terms.map((t) => text(t, "ram:Description")).filter((d) => d !== undefined);
  return {
    paymentInstructions:
      means.length > 0 || directDebit || remittance
        ? {
            meansTypeCode: text(means[0], "ram:TypeCode") ?? "",
            meansText: text(means[0], "ram:Information"),
            remittanceInformation: remittance,
            creditTransfers: means.map(readCreditTransfer).filter((c) => c !== undefined),
            card: card && { primaryAccountNumber: text(card, "ram:ID") ?? "", holderName: text(card, "ram:CardholderName") },
            directDebit,
          }
        : undefined,
    // Several terms blocks (D16B allows them) become one text, line by line.
    paymentTerms: descriptions.length > 0 ? descriptions.join("\n") : undefined,
    dueDate: terms.map((t) => date(t, "ram:DueDateDateTime")).find((v) => v !== undefined),
  };
}

function writeMeans(p: PaymentInstructions, transfer: CreditTransfer | undefined, isFirst: boolean): XmlNode | undefined {
  const accountElement = transfer && IBAN.test(transfer.accountId.replaceAll(" ", "")) ? "ram:IBANID" : "ram:ProprietaryID";
  return group(
    "ram:SpecifiedTradeSettlementPaymentMeans",
    leaf("ram:TypeCode", p.meansTypeCode, "BT-81"),
    leaf("ram:Information", p.meansText, "BT-82"),
    isFirst &&
      p.card &&
      group("ram:ApplicableTradeSettlementFinancialCard", leaf("ram:ID", p.card.primaryAccountNumber, "BT-87"), leaf("ram:CardholderName", p.card.holderName, "BT-88")),
    isFirst && group("ram:PayerPartyDebtorFinancialAccount", leaf("ram:IBANID", p.directDebit?.debitedAccountId, "BT-91")),
    transfer &&
      group(
        "ram:PayeePartyCreditorFinancialAccount",
        leaf(accountElement, transfer.accountId, "BT-84"),
        leaf("ram:AccountName", transfer.accountName, "BT-85"),
      ),
    transfer && group("ram:PayeeSpecifiedCreditorFinancialInstitution", leaf("ram:BICID", transfer.serviceProviderId, "BT-86")),
  );
}

export function writePayment(t: PaymentTerms): Contribution {
  const p = t.paymentInstructions;
  const transfers: (CreditTransfer | undefined)[] = p && p.creditTransfers.length > 0 ? p.creditTransfers : [undefined];
  return {
    settlement: [
      leaf("ram:CreditorReferenceID", p?.directDebit?.creditorId, "BT-90"),
      leaf("ram:PaymentReference", p?.remittanceInformation, "BT-83"),
      ...(p && p.meansTypeCode !== "" ? transfers.map((transfer, i) => writeMeans(p, transfer, i === 0)) : []),
      group(
        "ram:SpecifiedTradePaymentTerms",
        leaf("ram:Description", t.paymentTerms, "BT-20"),
        date102("ram:DueDateDateTime", t.dueDate, "BT-9"),
        leaf("ram:DirectDebitMandateID", p?.directDebit?.mandateReference, "BT-89"),
      ),
    ],
  };
}
