// The EN 16931 semantic model: every business term (BT) and group (BG), one concept per file.

export type { Address, Decimal, Identifier, IsoDate } from "./common.ts";
export type { AllowanceChargeTerms, DocumentAllowanceCharge, LineAllowanceCharge } from "./allowances.ts";
export type { Delivery, Period } from "./delivery.ts";
export type { DocumentKind, Invoice } from "./invoice.ts";
export type { InvoiceLine, Item, ItemAttribute, ItemClassification, LineSeller, LineVat, PriceDetails } from "./line.ts";
export type { Buyer, Contact, Payee, Seller, TaxRepresentative } from "./party.ts";
export type { CreditTransfer, DirectDebit, PaymentCard, PaymentInstructions, ThirdPartyPayment } from "./payment.ts";
export type { Attachment, Note, PrecedingInvoiceReference, ProcessControl, SupportingDocument } from "./references.ts";
export type { DocumentTotals, VatBreakdown } from "./tax.ts";
export * as decimal from "./decimal.ts";
