// The API's JSON invoice -> the EN 16931 model. A pure field mapping: what a standard adds on top
// (identifiers, electronic addresses, overlays) is the business of src/generate, which receives
// this model and completes it. Every number becomes an exact decimal string (decimalOf, amountOf).

import { decimal, type Address, type Buyer, type Contact, type Decimal, type Invoice, type InvoiceLine, type PaymentInstructions, type Seller, type VatBreakdown } from "../model/index.ts";
import type { InvoiceInput, InvoiceLineShape } from "./schema.ts";

type ApiInvoice = InvoiceInput;
type ApiParty = ApiInvoice["seller"];
type ApiAddress = ApiParty["address"];
type ApiTaxSummary = NonNullable<ApiInvoice["taxSummary"]>[number];
type ApiPaymentMeans = NonNullable<ApiInvoice["paymentMeans"]>;

// JSON numbers -> the model's exact decimal strings. A JSON number reaches us as a binary double.
// Read back at 15 significant digits (every decimal of up to 15 digits survives a double exactly)
// it is what the caller meant, so a client's float noise (0.1 + 0.2 sent as 0.30000000000000004)
// reads as 0.3. Amounts are then rounded to two decimals on the decimal string itself (half-up);
// no binary float is ever computed with.

/** The number as a plain decimal literal, without exponent ("1e-7" -> "0.0000001") or float noise. */
export function decimalOf(n: number): Decimal {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  // Near the largest double, reading 15 digits back rounds up to Infinity; the shortest form is exact there.
  const shortest = Number(n.toPrecision(15));
  const text = Number.isFinite(shortest) ? String(shortest) : String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, whole, fraction = "", exp] = m;
  const digits = whole! + fraction;
  const point = whole!.length + Number(exp);
  const body =
    point <= 0 ? `0.${"0".repeat(-point)}${digits}` : point >= digits.length ? digits + "0".repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return decimal.normalize(`${sign}${body}`);
}

/** A monetary amount: two decimals, rounded half-up (what BR-DEC-* allow and every profile accepts). */
export function amountOf(n: number): Decimal {
  return decimal.toFixed(decimalOf(n), 2);
}

/**
 * Back to a JSON number. A document's decimal may be longer than a double holds: past I-JSON's
 * exact range it is refused (RangeError), never answered as a rounded or infinite number.
 */
export function numberOf(value: Decimal): number {
  const n = Number(decimal.normalize(value));
  if (!Number.isFinite(n) || Math.abs(n) > Number.MAX_SAFE_INTEGER) throw new RangeError(`${JSON.stringify(value)} is beyond the range a JSON number carries exactly (2^53 - 1)`);
  return n;
}

// Default VAT exemption reasons (BT-120 text, BT-121 VATEX code) for the categories whose breakdown
// the rules require to carry one (BR-AE-10, BR-IC-10, BR-G-10, BR-O-10, BR-E-10), used when the
// caller's taxSummary entry gives neither. The codes are the generic VATEX-EU codes of each regime.
// Exempt (E) has no single generic code (each exemption is its own article), so it gets a text only.
const DEFAULT_EXEMPTIONS: Readonly<Record<string, { reason: string; code?: string }>> = {
  AE: { reason: "Reverse charge", code: "VATEX-EU-AE" },
  K: { reason: "Intra-Community supply", code: "VATEX-EU-IC" },
  G: { reason: "Export outside the EU", code: "VATEX-EU-G" },
  O: { reason: "Not subject to VAT", code: "VATEX-EU-O" },
  E: { reason: "Exempt from VAT" },
};

/**
 * A line of category O carries no rate (BR-O-05). Its VAT breakdown does: no EN 16931 rule forbids
 * BT-119 there, and XRechnung requires it on every breakdown (BR-DE-14).
 */
const RATELESS_CATEGORIES: ReadonlySet<string> = new Set(["O"]);

/** UNTDID 1153 scheme of BT-128 that makes the line object identifier a sub-invoice number (French CTC multi-vendor). */
export const SUB_INVOICE_SCHEME = "AFL";

/** UNTDID 1001: commercial invoice and credit note. */
const TYPE_CODES = { invoice: "380", creditnote: "381" } as const;

/** UNTDID 4461 codes of direct debits: the IBAN is the debited account (BT-91), not the payee's (BT-84). */
const DIRECT_DEBIT_CODES: ReadonlySet<string> = new Set(["49", "59"]);

/** The object without its undefined properties: optional fields absent, never `undefined` (from-model.ts too). */
export const present = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

function addressToModel(a: ApiAddress): Address {
  // `state`, `region` and `province` feed the national formats (FatturaPA, Facturae); EN 16931 has
  // one subdivision term, BT-39, which is `countrySubentity`.
  return present({
    line1: a.street,
    line2: a.additionalStreet,
    city: a.city,
    postCode: a.postalCode,
    countrySubdivision: a.countrySubentity,
    countryCode: a.countryCode,
  });
}

function contactToModel(p: ApiParty): Contact | undefined {
  if (p.contactName === undefined && p.phone === undefined && p.email === undefined) return undefined;
  return present({ name: p.contactName, telephone: p.phone, email: p.email });
}

function sellerToModel(p: ApiParty): Seller {
  return present({
    name: p.name,
    identifiers: [],
    legalRegistrationId: p.registrationId === undefined ? undefined : { value: p.registrationId },
    vatId: p.vatId,
    taxRegistrationId: p.taxId,
    address: addressToModel(p.address),
    contact: contactToModel(p),
  });
}

/** The buyer has no tax registration term in EN 16931: `taxId` of a buyer is not written. */
function buyerToModel(p: ApiParty): Buyer {
  return present({
    name: p.name,
    legalRegistrationId: p.registrationId === undefined ? undefined : { value: p.registrationId },
    vatId: p.vatId,
    address: addressToModel(p.address),
    contact: contactToModel(p),
  });
}

/** A sub-line belongs to its parent's sub-invoice: it takes the parent's number and seller unless it names its own. */
function lineToModel(l: InvoiceLineShape, id: string, parent?: InvoiceLine): InvoiceLine {
  const line: InvoiceLine = present({
    id,
    quantity: decimalOf(l.quantity),
    unitCode: l.unitCode,
    netAmount: amountOf(l.lineTotal),
    allowances: [],
    charges: [],
    price: { netPrice: decimalOf(l.unitPrice) },
    vat: present({ categoryCode: l.vatCategoryCode, rate: RATELESS_CATEGORIES.has(l.vatCategoryCode) ? undefined : decimalOf(l.vatRate) }),
    item: present({ name: l.description, sellerId: l.itemId, buyerId: l.buyerItemId, classifications: [], attributes: [] }),
    objectId: l.subInvoiceNumber === undefined ? parent?.objectId : { value: l.subInvoiceNumber, scheme: SUB_INVOICE_SCHEME },
    seller: l.seller ? { name: l.seller.name, legalRegistrationId: { value: l.seller.registrationId }, countryCode: l.seller.countryCode } : parent?.seller,
    vatTotal: l.taxTotal === undefined ? undefined : amountOf(l.taxTotal),
    vatTotalInAccountingCurrency: l.taxTotalInAccountingCurrency === undefined ? undefined : amountOf(l.taxTotalInAccountingCurrency),
  });
  const subLines = l.subLines?.map((s, i) => lineToModel(s, `${id}.${i + 1}`, line));
  return subLines?.length ? { ...line, subLines } : line;
}

function breakdownToModel(t: ApiTaxSummary): VatBreakdown {
  const fallback = t.exemptionReasonText === undefined && t.exemptionReasonCode === undefined ? DEFAULT_EXEMPTIONS[t.vatCategoryCode] : undefined;
  return present({
    taxableAmount: amountOf(t.taxableAmount),
    taxAmount: amountOf(t.taxAmount),
    categoryCode: t.vatCategoryCode,
    rate: decimalOf(t.vatRate),
    exemptionReason: t.exemptionReasonText ?? fallback?.reason,
    exemptionReasonCode: t.exemptionReasonCode ?? fallback?.code,
  });
}

function paymentToModel(p: ApiPaymentMeans | undefined): PaymentInstructions | undefined {
  if (!p) return undefined;
  const debit = DIRECT_DEBIT_CODES.has(p.typeCode);
  return present({
    meansTypeCode: p.typeCode,
    remittanceInformation: p.paymentReference,
    creditTransfers: !debit && p.iban !== undefined ? [present({ accountId: p.iban, accountName: p.bankName, serviceProviderId: p.bic })] : [],
    directDebit: debit && p.iban !== undefined ? { debitedAccountId: p.iban } : undefined,
  });
}

/** The model of `invoice`, declaring `specificationIdentifier` (BT-24) and `businessProcessType` (BT-23). */
export function toModel(invoice: ApiInvoice, processControl: Invoice["processControl"]): Invoice {
  const kind = invoice.documentType === "creditnote" ? "creditNote" : "invoice";
  const d = invoice.delivery;
  const ref = invoice.precedingInvoiceReference;
  const net = amountOf(invoice.totalNetAmount);
  const gross = amountOf(invoice.totalGrossAmount);
  return present({
    kind,
    invoiceNumber: invoice.number,
    issueDate: invoice.issueDate,
    typeCode: TYPE_CODES[invoice.documentType ?? "invoice"],
    currencyCode: invoice.currencyCode,
    taxCurrencyCode: invoice.taxCurrencyCode,
    dueDate: invoice.dueDate,
    buyerReference: invoice.buyerReference,
    purchaseOrderReference: invoice.orderReference,
    paymentTerms: invoice.paymentTerms,
    notes: invoice.note === undefined ? [] : [{ text: invoice.note }],
    processControl: present(processControl),
    precedingInvoices: ref ? [present({ number: ref.id, issueDate: ref.issueDate })] : [],
    seller: sellerToModel(invoice.seller),
    buyer: buyerToModel(invoice.buyer),
    delivery: d && present({ actualDeliveryDate: d.date, partyName: d.partyName, address: d.address && addressToModel(d.address) }),
    paymentInstructions: paymentToModel(invoice.paymentMeans),
    allowances: [],
    charges: [],
    totals: present({
      lineNetTotal: net,
      taxExclusiveTotal: net,
      vatTotal: amountOf(invoice.totalTaxAmount),
      vatTotalInAccountingCurrency: invoice.taxTotalInAccountingCurrency === undefined ? undefined : amountOf(invoice.taxTotalInAccountingCurrency),
      taxInclusiveTotal: gross,
      payableAmount: gross,
    }),
    vatBreakdown: (invoice.taxSummary ?? []).map(breakdownToModel),
    supportingDocuments: [],
    lines: invoice.lines.map((l, i) => lineToModel(l, String(i + 1))),
  });
}
