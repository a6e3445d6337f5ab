// Payment instructions (BG-16..BG-19) <-> cac:PaymentMeans, payment terms (BT-20) <->
// cac:PaymentTerms.
//
// EN 16931 has one BG-16 with any number of credit transfers; UBL has one account per
// cac:PaymentMeans. So a document with several accounts is read as one instruction (the code,
// text and remittance information of the first means) with every account, and written back as
// one cac:PaymentMeans per account, each repeating the code, as Peppol BIS does.
// A credit note has no cbc:DueDate; its due date (BT-9) goes in cac:PaymentMeans/cbc:PaymentDueDate.

import type { CreditTransfer, DirectDebit, DocumentKind, Invoice, PaymentCard, PaymentInstructions, ThirdPartyPayment } from "../../model/index.ts";
import { always, group, leaf, type XmlNode } from "../xml-writer.ts";
import { firstRead } from "../values.ts";
import { contentOf, textOf } from "../xml-reader.ts";
import { SEPA_SCHEME } from "./party.ts";
import { writeAmount } from "./values.ts";
import { ubl, type Element } from "./vocabulary.ts";

function readCreditTransfer(means: Element): CreditTransfer | undefined {
  const account = ubl.one(means, "cac:PayeeFinancialAccount");
  if (!account) return undefined;
  return {
    accountId: ubl.text(account, "cbc:ID") ?? "",
    accountName: ubl.text(account, "cbc:Name"),
    serviceProviderId: ubl.text(account, "cac:FinancialInstitutionBranch/cbc:ID"),
  };
}

const NA_NETWORK = "NA";

function readCard(means: Element): PaymentCard | undefined {
  const card = ubl.one(means, "cac:CardAccount");
  if (!card) return undefined;
  return {
    primaryAccountNumber: ubl.text(card, "cbc:PrimaryAccountNumberID") ?? "",
    holderName: ubl.text(card, "cbc:HolderName"),
    networkId: knownNetwork(ubl.text(card, "cbc:NetworkID")),
  };
}

/**
 * NetworkID is mandatory in UBL and no EN 16931 term, so a document converted from CII fills it
 * with a word for "unknown": ours (`NA`), or KoSIT's converter's (`mapped-from-cii`). Such a filler
 * names no network; read as absent, it is written back as the filler.
 */
const NO_NETWORK: ReadonlySet<string> = new Set([NA_NETWORK, "mapped-from-cii"]);
const knownNetwork = (id: string | undefined) => (id === undefined || NO_NETWORK.has(id) ? undefined : id);

/** The SEPA creditor id (BT-90) of a party aggregate, if it carries one. */
function sepaIdOf(party: Element | undefined): string | undefined {
  const ids = party ? ubl.all(party, "cac:PartyIdentification/cbc:ID") : [];
  return textOf(ids.find((id) => ubl.matches(id, "@schemeID", (scheme) => scheme === SEPA_SCHEME)));
}

function readDirectDebit(allMeans: Element[], root: Element): DirectDebit | undefined {
  const mandate = allMeans.map((m) => ubl.one(m, "cac:PaymentMandate")).find((m) => m);
  const creditorId = sepaIdOf(ubl.one(root, "cac:PayeeParty")) ?? sepaIdOf(ubl.one(root, "cac:AccountingSupplierParty/cac:Party"));
  if (!mandate && creditorId === undefined) return undefined;
  return {
    mandateReference: mandate && ubl.text(mandate, "cbc:ID"),
    creditorId,
    debitedAccountId: mandate && ubl.text(mandate, "cac:PayerFinancialAccount/cbc:ID"),
  };
}

export function readPaymentInstructions(root: Element): PaymentInstructions | undefined {
  const allMeans = ubl.all(root, "cac:PaymentMeans");
  const first = allMeans[0];
  if (!first) return undefined;
  return {
    meansTypeCode: ubl.text(first, "cbc:PaymentMeansCode") ?? "",
    meansText: ubl.attr(first, "cbc:PaymentMeansCode", "name"),
    remittanceInformation: ubl.text(first, "cbc:PaymentID"),
    creditTransfers: allMeans.flatMap((m) => readCreditTransfer(m) ?? []),
    card: firstRead(allMeans, readCard),
    directDebit: readDirectDebit(allMeans, root),
  };
}

/** BT-9 of a credit note. */
export function readCreditNoteDueDate(root: Element): string | undefined {
  return ubl.text(root, "cac:PaymentMeans/cbc:PaymentDueDate");
}

function writeCreditTransfer(transfer: CreditTransfer | undefined): XmlNode | undefined {
  return (
    transfer &&
    always(
      "cac:PayeeFinancialAccount",
      leaf("cbc:ID", transfer.accountId),
      leaf("cbc:Name", transfer.accountName),
      group("cac:FinancialInstitutionBranch", leaf("cbc:ID", transfer.serviceProviderId)),
    )
  );
}

function writeCard(card: PaymentCard | undefined): XmlNode | undefined {
  return (
    card &&
    always(
      "cac:CardAccount",
      leaf("cbc:PrimaryAccountNumberID", card.primaryAccountNumber),
      leaf("cbc:NetworkID", card.networkId ?? NA_NETWORK),
      leaf("cbc:HolderName", card.holderName),
    )
  );
}

function writeMandate(debit: DirectDebit | undefined): XmlNode | undefined {
  return (
    debit &&
    group(
      "cac:PaymentMandate",
      leaf("cbc:ID", debit.mandateReference),
      group("cac:PayerFinancialAccount", leaf("cbc:ID", debit.debitedAccountId)),
    )
  );
}

export function writePaymentInstructions(invoice: Invoice, kind: DocumentKind): XmlNode[] {
  const pi = invoice.paymentInstructions;
  if (!pi) return [];
  const transfers: (CreditTransfer | undefined)[] = pi.creditTransfers.length > 0 ? pi.creditTransfers : [undefined];
  return transfers.map((transfer, i) =>
    always(
      "cac:PaymentMeans",
      // UBL-SR-46: the payment means text may appear once in the document.
      leaf("cbc:PaymentMeansCode", pi.meansTypeCode, { name: i === 0 ? pi.meansText : undefined }),
      i === 0 && kind === "creditNote" && leaf("cbc:PaymentDueDate", invoice.dueDate),
      leaf("cbc:PaymentID", pi.remittanceInformation),
      i === 0 && writeCard(pi.card),
      writeCreditTransfer(transfer),
      i === 0 && writeMandate(pi.directDebit),
    ),
  );
}

// Kept untrimmed: XRechnung's structured discount lines (#SKONTO#...#) must end with a line
// break (BR-DE-18), and free text is the author's anyway.
export function readPaymentTerms(root: Element): string | undefined {
  const notes = ubl.all(root, "cac:PaymentTerms/cbc:Note").flatMap((n) => contentOf(n) ?? []);
  return notes.length > 0 ? notes.join("\n") : undefined;
}

export function writePaymentTerms(terms: string | undefined): XmlNode | undefined {
  return group("cac:PaymentTerms", leaf("cbc:Note", terms));
}

/** BG-DEX-09 (XRechnung extension) <-> cac:PrepaidPayment, which only the UBL Invoice has. */
export function readThirdPartyPayments(root: Element): ThirdPartyPayment[] | undefined {
  const payments = ubl.all(root, "cac:PrepaidPayment").map((p) => ({
    typeId: ubl.text(p, "cbc:ID") ?? "",
    amount: ubl.text(p, "cbc:PaidAmount") ?? "",
    description: ubl.text(p, "cbc:InstructionID") ?? "",
  }));
  return payments.length > 0 ? payments : undefined;
}

export function writeThirdPartyPayments(payments: readonly ThirdPartyPayment[] | undefined, currency: string): XmlNode[] {
  return (payments ?? []).map((p) =>
    always(
      "cac:PrepaidPayment",
      leaf("cbc:ID", p.typeId),
      writeAmount("cbc:PaidAmount", p.amount, currency),
      leaf("cbc:InstructionID", p.description),
    ),
  );
}
