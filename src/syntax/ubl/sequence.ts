// The element sequences of the two UBL 2.1 document roots, copied from UBL-Invoice-2.1.xsd and
// UBL-CreditNote-2.1.xsd, and of their lines (UBL-CommonAggregateComponents-2.1.xsd). The concept
// writers produce elements in any order; the document and line writers sort children by these
// tables, so the XSD order lives here only.

import type { DocumentKind } from "../../model/index.ts";

const INVOICE = [
  "ext:UBLExtensions", "cbc:UBLVersionID", "cbc:CustomizationID", "cbc:ProfileID", "cbc:ProfileExecutionID",
  "cbc:ID", "cbc:CopyIndicator", "cbc:UUID", "cbc:IssueDate", "cbc:IssueTime", "cbc:DueDate",
  "cbc:InvoiceTypeCode", "cbc:Note", "cbc:TaxPointDate", "cbc:DocumentCurrencyCode", "cbc:TaxCurrencyCode",
  "cbc:PricingCurrencyCode", "cbc:PaymentCurrencyCode", "cbc:PaymentAlternativeCurrencyCode",
  "cbc:AccountingCostCode", "cbc:AccountingCost", "cbc:LineCountNumeric", "cbc:BuyerReference",
  "cac:InvoicePeriod", "cac:OrderReference", "cac:BillingReference", "cac:DespatchDocumentReference",
  "cac:ReceiptDocumentReference", "cac:StatementDocumentReference", "cac:OriginatorDocumentReference",
  "cac:ContractDocumentReference", "cac:AdditionalDocumentReference", "cac:ProjectReference", "cac:Signature",
  "cac:AccountingSupplierParty", "cac:AccountingCustomerParty", "cac:PayeeParty", "cac:BuyerCustomerParty",
  "cac:SellerSupplierParty", "cac:TaxRepresentativeParty", "cac:Delivery", "cac:DeliveryTerms",
  "cac:PaymentMeans", "cac:PaymentTerms", "cac:PrepaidPayment", "cac:AllowanceCharge", "cac:TaxExchangeRate",
  "cac:PricingExchangeRate", "cac:PaymentExchangeRate", "cac:PaymentAlternativeExchangeRate", "cac:TaxTotal",
  "cac:WithholdingTaxTotal", "cac:LegalMonetaryTotal", "cac:InvoiceLine",
];

const CREDIT_NOTE = [
  "ext:UBLExtensions", "cbc:UBLVersionID", "cbc:CustomizationID", "cbc:ProfileID", "cbc:ProfileExecutionID",
  "cbc:ID", "cbc:CopyIndicator", "cbc:UUID", "cbc:IssueDate", "cbc:IssueTime", "cbc:TaxPointDate",
  "cbc:CreditNoteTypeCode", "cbc:Note", "cbc:DocumentCurrencyCode", "cbc:TaxCurrencyCode",
  "cbc:PricingCurrencyCode", "cbc:PaymentCurrencyCode", "cbc:PaymentAlternativeCurrencyCode",
  "cbc:AccountingCostCode", "cbc:AccountingCost", "cbc:LineCountNumeric", "cbc:BuyerReference",
  "cac:InvoicePeriod", "cac:DiscrepancyResponse", "cac:OrderReference", "cac:BillingReference",
  "cac:DespatchDocumentReference", "cac:ReceiptDocumentReference", "cac:ContractDocumentReference",
  "cac:AdditionalDocumentReference", "cac:StatementDocumentReference", "cac:OriginatorDocumentReference",
  "cac:Signature", "cac:AccountingSupplierParty", "cac:AccountingCustomerParty", "cac:PayeeParty",
  "cac:BuyerCustomerParty", "cac:SellerSupplierParty", "cac:TaxRepresentativeParty", "cac:Delivery",
  "cac:DeliveryTerms", "cac:PaymentMeans", "cac:PaymentTerms", "cac:TaxExchangeRate", "cac:PricingExchangeRate",
  "cac:PaymentExchangeRate", "cac:PaymentAlternativeExchangeRate", "cac:AllowanceCharge", "cac:TaxTotal",
  "cac:LegalMonetaryTotal", "cac:CreditNoteLine",
];

export const ROOT_SEQUENCE: Record<DocumentKind, readonly string[]> = { invoice: INVOICE, creditNote: CREDIT_NOTE };

// The two line types differ around cac:TaxTotal (after cac:AllowanceCharge on an invoice line, before it on a credit note line).
const INVOICE_LINE = [
  "cbc:ID", "cbc:UUID", "cbc:Note", "cbc:InvoicedQuantity", "cbc:LineExtensionAmount", "cbc:TaxPointDate",
  "cbc:AccountingCostCode", "cbc:AccountingCost", "cbc:PaymentPurposeCode", "cbc:FreeOfChargeIndicator",
  "cac:InvoicePeriod", "cac:OrderLineReference", "cac:DespatchLineReference", "cac:ReceiptLineReference",
  "cac:BillingReference", "cac:DocumentReference", "cac:PricingReference", "cac:OriginatorParty", "cac:Delivery",
  "cac:PaymentTerms", "cac:AllowanceCharge", "cac:TaxTotal", "cac:WithholdingTaxTotal", "cac:Item", "cac:Price",
  "cac:DeliveryTerms", "cac:SubInvoiceLine", "cac:ItemPriceExtension",
];

const CREDIT_NOTE_LINE = [
  "cbc:ID", "cbc:UUID", "cbc:Note", "cbc:CreditedQuantity", "cbc:LineExtensionAmount", "cbc:TaxPointDate",
  "cbc:AccountingCostCode", "cbc:AccountingCost", "cbc:PaymentPurposeCode", "cbc:FreeOfChargeIndicator",
  "cac:InvoicePeriod", "cac:OrderLineReference", "cac:DiscrepancyResponse", "cac:DespatchLineReference",
  "cac:ReceiptLineReference", "cac:BillingReference", "cac:DocumentReference", "cac:PricingReference",
  "cac:OriginatorParty", "cac:Delivery", "cac:PaymentTerms", "cac:TaxTotal", "cac:AllowanceCharge", "cac:Item",
  "cac:Price", "cac:DeliveryTerms", "cac:SubCreditNoteLine", "cac:ItemPriceExtension",
];

export const LINE_SEQUENCE: Record<DocumentKind, readonly string[]> = { invoice: INVOICE_LINE, creditNote: CREDIT_NOTE_LINE };
