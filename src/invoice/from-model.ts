// The EN 16931 model -> the API's JSON invoice, the mirror of to-model.ts, so that parse answers
// with the field names generate takes. Optional fields absent from the source are omitted (never
// null). What generate derives on its own is not reported back as if the caller had sent it: an
// electronic address equal to the one generate would derive from `vatId` or `email`, a legal
// registration id that only repeats the electronic address (the Dutch 0106 / 0190 routing), and
// the French statutory notes.

import type { Address, Buyer, Identifier, Invoice, InvoiceLine, Seller, VatBreakdown } from "../model/index.ts";
import type { InvoiceInput, InvoiceLineShape } from "./schema.ts";
import { numberOf } from "./to-model.ts";
import { EMAIL_EAS, VAT_EAS_BY_COUNTRY } from "../standards/eas.ts";
import { FRENCH_LEGAL_NOTES, FRENCH_PROCESS } from "../standards/france-ctc.ts";

type ApiParty = InvoiceInput["seller"];

const present = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
const optionalNumber = (value: string | undefined) => (value === undefined || value === "" ? undefined : numberOf(value));

function addressFromModel(a: Address): ApiParty["address"] {
  return present({
    street: a.line1,
    additionalStreet: a.line2,
    city: a.city ?? "",
    postalCode: a.postCode ?? "",
    countryCode: a.countryCode,
    countrySubentity: a.countrySubdivision,
  });
}

const sameId = (a: Identifier | undefined, b: Identifier | undefined) => !!a && !!b && a.value === b.value && a.scheme === b.scheme;

/** True when generate would have derived this address itself from the party's e-mail or VAT id. */
function derivedAddress(party: Seller | Buyer): boolean {
  const address = party.electronicAddress;
  if (!address) return false;
  if (address.scheme === EMAIL_EAS) return address.value === party.contact?.email;
  return address.value === party.vatId && address.scheme === VAT_EAS_BY_COUNTRY[party.address.countryCode];
}

function partyFromModel(party: Seller | Buyer, taxId?: string): ApiParty {
  const legal = party.legalRegistrationId;
  const address = party.electronicAddress;
  return present({
    name: party.name,
    vatId: party.vatId,
    taxId,
    registrationId: legal && !sameId(legal, address) ? legal.value : undefined,
    email: party.contact?.email,
    phone: party.contact?.telephone,
    address: addressFromModel(party.address),
    contactName: party.contact?.name,
    peppol: address && !derivedAddress(party) ? { schemeId: address.scheme ?? "", id: address.value } : undefined,
  });
}

function lineFromModel(l: InvoiceLine): InvoiceLineShape {
  return present({
    description: l.item.name,
    quantity: numberOf(l.quantity),
    unitCode: l.unitCode,
    unitPrice: numberOf(l.price.netPrice),
    lineTotal: numberOf(l.netAmount),
    vatRate: optionalNumber(l.vat.rate) ?? 0,
    vatCategoryCode: l.vat.categoryCode,
    itemId: l.item.sellerId,
    buyerItemId: l.item.buyerId,
    subLines: l.subLines?.length ? l.subLines.map(lineFromModel) : undefined,
  });
}

function taxSummaryFromModel(v: VatBreakdown): NonNullable<InvoiceInput["taxSummary"]>[number] {
  return present({
    vatCategoryCode: v.categoryCode,
    vatRate: optionalNumber(v.rate) ?? 0,
    taxableAmount: numberOf(v.taxableAmount),
    taxAmount: numberOf(v.taxAmount),
    exemptionReason: v.exemptionReason,
    exemptionReasonCode: v.exemptionReasonCode,
  });
}

function paymentMeansFromModel(invoice: Invoice): InvoiceInput["paymentMeans"] {
  const p = invoice.paymentInstructions;
  if (!p) return undefined;
  const transfer = p.creditTransfers[0];
  return present({
    typeCode: p.meansTypeCode,
    iban: transfer?.accountId ?? p.directDebit?.debitedAccountId,
    bic: transfer?.serviceProviderId,
    accountName: transfer?.accountName,
    remittanceInformation: p.remittanceInformation,
  });
}

/** The French billing frameworks the API can send as `businessProcessId`; the others mean `franceCtc` alone. */
const API_PROCESSES: ReadonlySet<string> = new Set(["S8", "B8", "M8"]);

/** The statutory mentions generate adds under the French CTC overlay are not the caller's note. */
const isFrenchLegalNote = (n: Invoice["notes"][number]) => FRENCH_LEGAL_NOTES.some((f) => f.subjectCode === n.subjectCode && f.text === n.text);

export function fromModel(invoice: Invoice): InvoiceInput {
  const d = invoice.delivery;
  const preceding = invoice.precedingInvoices[0];
  const notes = invoice.notes.filter((n) => n.text !== "" && !isFrenchLegalNote(n)).map((n) => n.text);
  const process = invoice.processControl.businessProcessType;
  const france = process !== undefined && FRENCH_PROCESS.test(process);
  const t = invoice.totals;
  return present({
    number: invoice.invoiceNumber,
    issueDate: invoice.issueDate,
    dueDate: invoice.dueDate,
    currencyCode: invoice.currencyCode,
    taxCurrencyCode: invoice.taxCurrencyCode,
    taxTotalInAccountingCurrency: optionalNumber(t.vatTotalInAccountingCurrency),
    documentType: invoice.kind === "creditNote" ? ("creditnote" as const) : undefined,
    precedingInvoiceReference: preceding && present({ id: preceding.number, issueDate: preceding.issueDate }),
    buyerReference: invoice.buyerReference,
    orderReference: invoice.purchaseOrderReference,
    note: notes.length ? notes.join("\n") : undefined,
    seller: partyFromModel(invoice.seller, invoice.seller.taxRegistrationId),
    buyer: partyFromModel(invoice.buyer),
    lines: invoice.lines.map(lineFromModel),
    taxSummary: invoice.vatBreakdown.length ? invoice.vatBreakdown.map(taxSummaryFromModel) : undefined,
    delivery:
      d && (d.actualDeliveryDate || d.partyName || d.address)
        ? present({ date: d.actualDeliveryDate, partyName: d.partyName, address: d.address && addressFromModel(d.address) })
        : undefined,
    paymentMeans: paymentMeansFromModel(invoice),
    paymentTerms: invoice.paymentTerms,
    totalNetAmount: numberOf(t.lineNetTotal || t.taxExclusiveTotal),
    totalTaxAmount: optionalNumber(t.vatTotal) ?? 0,
    totalGrossAmount: numberOf(t.taxInclusiveTotal || t.payableAmount),
    franceCtc: france ? true : undefined,
    businessProcessId: france && API_PROCESSES.has(process) ? (process as "S8" | "B8" | "M8") : undefined,
  });
}
