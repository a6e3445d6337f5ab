// The element sequences of the two UBL 2.1 document roots, copied from UBL-Invoice-2.1.xsd and
// UBL-CreditNote-2.1.xsd. The concept writers produce elements in any order; the document writer
// sorts the root's children by this table, so the XSD order lives here only.

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
