// The document header (BT-1..BT-10, BT-19, BT-23, BT-24, BG-14) and the assembly of every
// concept into one model or one root element.

import type { DocumentKind, Invoice } from "../../model/index.ts";
import { always, inSequence, leaf, type XmlNode } from "../xml-writer.ts";
import { readDocumentAllowanceCharges, writeDocumentAllowanceCharges } from "./allowances.ts";
import { readDelivery, readPeriod, writeDelivery, writePeriod } from "./delivery.ts";
import { readLine, writeLine } from "./lines.ts";
import {
  readBuyer,
  readPayee,
  readSeller,
  readTaxRepresentative,
  writeBuyer,
  writePayee,
  writeSeller,
  writeTaxRepresentative,
} from "./party.ts";
import {
  readCreditNoteDueDate,
  readPaymentInstructions,
  readPaymentTerms,
  readThirdPartyPayments,
  writePaymentInstructions,
  writePaymentTerms,
  writeThirdPartyPayments,
} from "./payment.ts";
import { readNotes, readReferences, writeNotes, writeReferences } from "./references.ts";
import { ROOT_SEQUENCE } from "./sequence.ts";
import { readTaxTotals, writeTaxTotals } from "./tax.ts";
import { readMonetaryTotals, writeMonetaryTotals } from "./totals.ts";
import { KINDS, NS, ubl, type Element } from "./vocabulary.ts";

export function readDocument(root: Element, kind: DocumentKind): Invoice {
  const names = KINDS[kind];
  const currencyCode = ubl.text(root, "cbc:DocumentCurrencyCode") ?? "";
  const taxCurrencyCode = ubl.text(root, "cbc:TaxCurrencyCode");
  const paymentInstructions = readPaymentInstructions(root);
  // With payment instructions the SEPA creditor id is read into the direct debit, not the parties.
  const creditorIdElsewhere = paymentInstructions !== undefined;
  const period = ubl.one(root, "cac:InvoicePeriod");
  const taxTotals = readTaxTotals(root, currencyCode, taxCurrencyCode);
  return {
    kind,
    invoiceNumber: ubl.text(root, "cbc:ID") ?? "",
    issueDate: ubl.text(root, "cbc:IssueDate") ?? "",
    typeCode: ubl.text(root, names.typeCode) ?? "",
    currencyCode,
    taxCurrencyCode,
    taxPointDate: ubl.text(root, "cbc:TaxPointDate"),
    taxPointDateCode: period && ubl.text(period, "cbc:DescriptionCode"),
    dueDate: kind === "invoice" ? ubl.text(root, "cbc:DueDate") : readCreditNoteDueDate(root),
    buyerReference: ubl.text(root, "cbc:BuyerReference"),
    ...readReferences(root, kind),
    buyerAccountingReference: ubl.text(root, "cbc:AccountingCost"),
    paymentTerms: readPaymentTerms(root),
    notes: readNotes(root),
    processControl: {
      businessProcessType: ubl.text(root, "cbc:ProfileID"),
      specificationIdentifier: ubl.text(root, "cbc:CustomizationID") ?? "",
    },
    seller: readSeller(ubl.one(root, "cac:AccountingSupplierParty"), creditorIdElsewhere),
    buyer: readBuyer(ubl.one(root, "cac:AccountingCustomerParty")),
    payee: readPayee(ubl.one(root, "cac:PayeeParty"), creditorIdElsewhere),
    taxRepresentative: readTaxRepresentative(ubl.one(root, "cac:TaxRepresentativeParty")),
    delivery: readDelivery(root),
    invoicingPeriod: readPeriod(period),
    paymentInstructions,
    thirdPartyPayments: kind === "invoice" ? readThirdPartyPayments(root) : undefined,
    ...readDocumentAllowanceCharges(root),
    totals: {
      ...readMonetaryTotals(root),
      vatTotal: taxTotals.vatTotal,
      vatTotalInAccountingCurrency: taxTotals.vatTotalInAccountingCurrency,
    },
    vatBreakdown: taxTotals.vatBreakdown,
    lines: ubl.all(root, names.line).map((line) => readLine(line, names, { invoice: currencyCode, tax: taxCurrencyCode })),
  };
}

export function writeDocument(invoice: Invoice): XmlNode {
  const { kind, currencyCode } = invoice;
  const names = KINDS[kind];
  const creditorId = invoice.paymentInstructions?.directDebit?.creditorId;
  const children = [
    leaf("cbc:CustomizationID", invoice.processControl.specificationIdentifier),
    leaf("cbc:ProfileID", invoice.processControl.businessProcessType),
    leaf("cbc:ID", invoice.invoiceNumber),
    leaf("cbc:IssueDate", invoice.issueDate),
    kind === "invoice" && leaf("cbc:DueDate", invoice.dueDate),
    leaf(names.typeCode, invoice.typeCode),
    ...writeNotes(invoice.notes),
    leaf("cbc:TaxPointDate", invoice.taxPointDate),
    leaf("cbc:DocumentCurrencyCode", currencyCode),
    leaf("cbc:TaxCurrencyCode", invoice.taxCurrencyCode),
    leaf("cbc:AccountingCost", invoice.buyerAccountingReference),
    leaf("cbc:BuyerReference", invoice.buyerReference),
    writePeriod(invoice.invoicingPeriod, invoice.taxPointDateCode),
    ...writeReferences(invoice),
    writeSeller(invoice.seller, invoice.payee ? undefined : creditorId),
    writeBuyer(invoice.buyer),
    writePayee(invoice.payee, creditorId),
    writeTaxRepresentative(invoice.taxRepresentative),
    writeDelivery(invoice.delivery),
    ...writePaymentInstructions(invoice, kind),
    writePaymentTerms(invoice.paymentTerms),
    // A UBL credit note has no cac:PrepaidPayment: third party payments are lost there.
    ...(kind === "invoice" ? writeThirdPartyPayments(invoice.thirdPartyPayments, currencyCode) : []),
    ...writeDocumentAllowanceCharges(invoice, currencyCode),
    ...writeTaxTotals(invoice),
    writeMonetaryTotals(invoice.totals, currencyCode),
    ...invoice.lines.map((line) => writeLine(line, kind, { invoice: currencyCode, tax: invoice.taxCurrencyCode })),
  ].filter((c): c is XmlNode => !!c);
  const root = always(names.root, inSequence(children, ROOT_SEQUENCE[kind]));
  return { ...root, attributes: { xmlns: names.namespace, "xmlns:cac": NS.cac, "xmlns:cbc": NS.cbc } };
}
