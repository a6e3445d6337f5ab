// The EN 16931 model -> the API's JSON invoice, the mirror of to-model.ts, so that parse answers
// with the field names generate takes. Optional fields absent from the source are omitted (never
// null). A plain field mapping, as to-model.ts is: what generate's overlays add on top (the
// electronic address, the Dutch legal entity id, the French notes and framework) is theirs to give
// back or drop on parse (src/overlays/).

import type { Address, Buyer, Identifier, Invoice, InvoiceLine, LineSeller, Note, Seller, VatBreakdown } from "../model/index.ts";
import type { InvoiceInput, InvoiceLineShape } from "./schema.ts";
import { numberOf, present, SUB_INVOICE_SCHEME } from "./to-model.ts";

type ApiParty = InvoiceInput["seller"];

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

function partyFromModel(party: Seller | Buyer, taxId?: string): ApiParty {
  return present({
    name: party.name,
    vatId: party.vatId,
    taxId,
    registrationId: party.legalRegistrationId?.value,
    email: party.contact?.email,
    phone: party.contact?.telephone,
    address: addressFromModel(party.address),
    contactName: party.contact?.name,
  });
}

/**
 * A sub-line may omit what the API requires of it (XRechnung's grouping sub-lines carry no
 * quantity or price); it is mapped without those values, and the generate schema check that
 * follows on parse (generate-ready.ts) leaves the sub-lines out with a warning instead of refusing
 * the document. An invoice line without them stays a refusal.
 */
const subLineNumber = (value: string) => optionalNumber(value) as number;

const sameIdentifier = (a: Identifier | undefined, b: Identifier | undefined) => a?.value === b?.value && a?.scheme === b?.scheme;
const sameSeller = (a: LineSeller | undefined, b: LineSeller | undefined) =>
  a?.name === b?.name && a?.countryCode === b?.countryCode && sameIdentifier(a?.legalRegistrationId, b?.legalRegistrationId);

/** A sub-line's sub-invoice number and seller equal to its parent's are the parent's, as to-model.ts reads them. */
function lineFromModel(l: InvoiceLine, parent?: InvoiceLine): InvoiceLineShape {
  const number = parent === undefined ? numberOf : subLineNumber;
  const objectId = parent && sameIdentifier(l.objectId, parent.objectId) ? undefined : l.objectId;
  const seller = parent && sameSeller(l.seller, parent.seller) ? undefined : l.seller;
  return present({
    description: l.item.name,
    quantity: number(l.quantity),
    unitCode: l.unitCode,
    unitPrice: number(l.price.netPrice),
    lineTotal: numberOf(l.netAmount),
    vatRate: optionalNumber(l.vat.rate) ?? 0,
    vatCategoryCode: l.vat.categoryCode,
    itemId: l.item.sellerId,
    buyerItemId: l.item.buyerId,
    subInvoiceNumber: objectId?.scheme === SUB_INVOICE_SCHEME ? objectId.value : undefined,
    seller: seller && { name: seller.name, registrationId: seller.legalRegistrationId.value, countryCode: seller.countryCode },
    taxTotal: optionalNumber(l.vatTotal),
    taxTotalInAccountingCurrency: optionalNumber(l.vatTotalInAccountingCurrency),
    subLines: l.subLines?.length ? l.subLines.map((sub) => lineFromModel(sub, l)) : undefined,
  });
}

function taxSummaryFromModel(v: VatBreakdown): NonNullable<InvoiceInput["taxSummary"]>[number] {
  return present({
    vatCategoryCode: v.categoryCode,
    vatRate: optionalNumber(v.rate) ?? 0,
    taxableAmount: numberOf(v.taxableAmount),
    taxAmount: numberOf(v.taxAmount),
    exemptionReasonText: v.exemptionReason,
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
    bankName: transfer?.accountName,
    paymentReference: p.remittanceInformation,
  });
}

/** The API's one `note`: the document's notes with text, one per line. */
export function noteOf(notes: readonly Note[]): string | undefined {
  const texts = notes.filter((n) => n.text !== "").map((n) => n.text);
  return texts.length ? texts.join("\n") : undefined;
}

export function fromModel(invoice: Invoice): InvoiceInput {
  const d = invoice.delivery;
  const preceding = invoice.precedingInvoices[0];
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
    note: noteOf(invoice.notes),
    seller: partyFromModel(invoice.seller, invoice.seller.taxRegistrationId),
    buyer: partyFromModel(invoice.buyer),
    lines: invoice.lines.map((line) => lineFromModel(line)),
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
  });
}
