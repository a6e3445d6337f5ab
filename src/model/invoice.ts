// The invoice as a whole: EN 16931 BG-0, the root every other group hangs from.

import type { DocumentAllowanceCharge } from "./allowances.ts";
import type { Identifier, IsoDate } from "./common.ts";
import type { Delivery, Period } from "./delivery.ts";
import type { InvoiceLine } from "./line.ts";
import type { Buyer, Payee, Seller, TaxRepresentative } from "./party.ts";
import type { PaymentInstructions, ThirdPartyPayment } from "./payment.ts";
import type { Note, PrecedingInvoiceReference, ProcessControl, SupportingDocument } from "./references.ts";
import type { DocumentTotals, VatBreakdown } from "./tax.ts";

/**
 * Invoice or credit note. The type code (BT-3) says which in EN 16931; the syntaxes that have two
 * document kinds (UBL `Invoice` / `CreditNote`) need it said explicitly, since a UBL `Invoice` may
 * carry a correcting code and the choice of root must survive a round trip.
 */
export type DocumentKind = "invoice" | "creditNote";

/** BG-0 INVOICE: the EN 16931 semantic model of one invoice or credit note. */
export interface Invoice {
  /** Which document the syntax writes: `invoice` or `creditNote`. */
  kind: DocumentKind;
  /** BT-1: invoice number. */
  invoiceNumber: string;
  /** BT-2: invoice issue date. */
  issueDate: IsoDate;
  /** BT-3: invoice type code (UNTDID 1001: 380 invoice, 381 credit note, 384 corrected, ...). */
  typeCode: string;
  /** BT-5: invoice currency code (ISO 4217). */
  currencyCode: string;
  /** BT-6: VAT accounting currency code, when VAT is accounted in another currency. */
  taxCurrencyCode?: string;
  /** BT-7: value added tax point date. */
  taxPointDate?: IsoDate;
  /** BT-8: value added tax point date code (UNTDID 2005: 3, 35, 432). */
  taxPointDateCode?: string;
  /** BT-9: payment due date. */
  dueDate?: IsoDate;
  /** BT-10: buyer reference (the Leitweg-ID in XRechnung). */
  buyerReference?: string;
  /** BT-11: project reference. */
  projectReference?: string;
  /** BT-12: contract reference. */
  contractReference?: string;
  /** BT-13: purchase order reference. */
  purchaseOrderReference?: string;
  /** BT-14: sales order reference. */
  salesOrderReference?: string;
  /** BT-15: receiving advice reference. */
  receivingAdviceReference?: string;
  /** BT-16: despatch advice reference. */
  despatchAdviceReference?: string;
  /** BT-17: tender or lot reference. */
  tenderOrLotReference?: string;
  /** BT-18 (0..1): invoiced object identifier, with scheme (BT-18-1). */
  invoicedObjectId?: Identifier;
  /** BT-19: buyer accounting reference. */
  buyerAccountingReference?: string;
  /** BT-20: payment terms. */
  paymentTerms?: string;
  /** BG-1 (0..n): invoice notes. */
  notes: Note[];
  /** BG-2 (1..1): process control. */
  processControl: ProcessControl;
  /** BG-3 (0..n): preceding invoice references. */
  precedingInvoices: PrecedingInvoiceReference[];
  /** BG-4 (1..1): seller. */
  seller: Seller;
  /** BG-7 (1..1): buyer. */
  buyer: Buyer;
  /** BG-10 (0..1): payee. */
  payee?: Payee;
  /** BG-11 (0..1): seller tax representative party. */
  taxRepresentative?: TaxRepresentative;
  /** BG-13 (0..1): delivery information. */
  delivery?: Delivery;
  /** BG-14 (0..1): invoicing period. */
  invoicingPeriod?: Period;
  /** BG-16 (0..1): payment instructions. */
  paymentInstructions?: PaymentInstructions;
  /** BG-DEX-09 (0..n, XRechnung extension): third party payments. Absent outside the extension. */
  thirdPartyPayments?: ThirdPartyPayment[];
  /** BG-20 (0..n): document level allowances. */
  allowances: DocumentAllowanceCharge[];
  /** BG-21 (0..n): document level charges. */
  charges: DocumentAllowanceCharge[];
  /** BG-22 (1..1): document totals. */
  totals: DocumentTotals;
  /** BG-23 (1..n): VAT breakdown. */
  vatBreakdown: VatBreakdown[];
  /** BG-24 (0..n): additional supporting documents. */
  supportingDocuments: SupportingDocument[];
  /** BG-25 (1..n): invoice lines. */
  lines: InvoiceLine[];
}
