// Payment instructions (BG-16..BG-19), payment terms (BT-20) and due date (BT-9). CII spreads them:
// means and accounts in `ram:SpecifiedTradeSettlementPaymentMeans` (one per credit transfer
// account), remittance and creditor id on the settlement, mandate and due date in the payment terms.

import type { CreditTransfer, PaymentInstructions } from "../../model/index.ts";
import { firstRead } from "../values.ts";
import { contentOf } from "../xml-reader.ts";
import { group, type XmlNode } from "../xml-writer.ts";
import type { Contribution, Header } from "./context.ts";
import { readDate, term, writeDate } from "./values.ts";
import { cii, type Element } from "./vocabulary.ts";

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
  const account = cii.one(means, "ram:PayeePartyCreditorFinancialAccount");
  if (!account) return undefined;
  return {
    accountId: cii.text(account, "ram:IBANID") ?? cii.text(account, "ram:ProprietaryID") ?? "",
    accountName: cii.text(account, "ram:AccountName"),
    serviceProviderId: cii.text(means, "ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID"),
  };
}

export function readPayment(h: Header): PaymentTerms {
  const means = cii.all(h.settlement, "ram:SpecifiedTradeSettlementPaymentMeans");
  const terms = cii.all(h.settlement, "ram:SpecifiedTradePaymentTerms");
  const firstOf = (path: string) => firstRead(means, (m) => cii.text(m, path));
  const card = means.map((m) => cii.one(m, "ram:ApplicableTradeSettlementFinancialCard")).find((c) => c);
  const mandate = firstRead(terms, (t) => cii.text(t, "ram:DirectDebitMandateID"));
  const creditorId = cii.text(h.settlement, "ram:CreditorReferenceID");
  const debitedAccount = firstOf("ram:PayerPartyDebtorFinancialAccount/ram:IBANID");
  const remittance = cii.text(h.settlement, "ram:PaymentReference");
  const directDebit =
    mandate ?? creditorId ?? debitedAccount ? { mandateReference: mandate, creditorId, debitedAccountId: debitedAccount } : undefined;
  // Kept untrimmed, as the UBL binding keeps cbc:Note: XRechnung's structured discount lines
  // (#SKONTO#...#) must each end with a line break (BR-DE-18), the last one included.
  const descriptions = terms.flatMap((t) => contentOf(cii.one(t, "ram:Description")) ?? []);
  return {
    paymentInstructions:
      means.length > 0 || directDebit || remittance
        ? {
            meansTypeCode: cii.text(means[0], "ram:TypeCode") ?? "",
            meansText: cii.text(means[0], "ram:Information"),
            remittanceInformation: remittance,
            creditTransfers: means.map(readCreditTransfer).filter((c) => c !== undefined),
            card: card && { primaryAccountNumber: cii.text(card, "ram:ID") ?? "", holderName: cii.text(card, "ram:CardholderName") },
            directDebit,
          }
        : undefined,
    // Several terms blocks (D16B allows them) become one text, line by line.
    paymentTerms: descriptions.length > 0 ? descriptions.join("\n") : undefined,
    dueDate: firstRead(terms, (t) => readDate(t, "ram:DueDateDateTime")),
  };
}

function writeMeans(p: PaymentInstructions, transfer: CreditTransfer | undefined, isFirst: boolean): XmlNode | undefined {
  const accountElement = transfer && IBAN.test(transfer.accountId.replaceAll(" ", "")) ? "ram:IBANID" : "ram:ProprietaryID";
  return group(
    "ram:SpecifiedTradeSettlementPaymentMeans",
    term("ram:TypeCode", p.meansTypeCode, "BT-81"),
    term("ram:Information", p.meansText, "BT-82"),
    isFirst &&
      p.card &&
      group("ram:ApplicableTradeSettlementFinancialCard", term("ram:ID", p.card.primaryAccountNumber, "BT-87"), term("ram:CardholderName", p.card.holderName, "BT-88")),
    isFirst && group("ram:PayerPartyDebtorFinancialAccount", term("ram:IBANID", p.directDebit?.debitedAccountId, "BT-91")),
    transfer &&
      group(
        "ram:PayeePartyCreditorFinancialAccount",
        term(accountElement, transfer.accountId, "BT-84"),
        term("ram:AccountName", transfer.accountName, "BT-85"),
      ),
    transfer && group("ram:PayeeSpecifiedCreditorFinancialInstitution", term("ram:BICID", transfer.serviceProviderId, "BT-86")),
  );
}

export function writePayment(t: PaymentTerms): Contribution {
  const p = t.paymentInstructions;
  const transfers: (CreditTransfer | undefined)[] = p && p.creditTransfers.length > 0 ? p.creditTransfers : [undefined];
  return {
    settlement: [
      term("ram:CreditorReferenceID", p?.directDebit?.creditorId, "BT-90"),
      term("ram:PaymentReference", p?.remittanceInformation, "BT-83"),
      ...(p && p.meansTypeCode !== "" ? transfers.map((transfer, i) => writeMeans(p, transfer, i === 0)) : []),
      group(
        "ram:SpecifiedTradePaymentTerms",
        term("ram:Description", t.paymentTerms, "BT-20"),
        writeDate("ram:DueDateDateTime", t.dueDate, "BT-9"),
        term("ram:DirectDebitMandateID", p?.directDebit?.mandateReference, "BT-89"),
      ),
    ],
  };
}
