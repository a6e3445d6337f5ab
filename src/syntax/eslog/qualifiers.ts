// The EDIFACT D01B code values e-SLOG 2.0 writes, one table per code list. Each value was checked
// against the two corpus documents (media24si-eslog2 `inv.xml`, a Slovenian issuer's invoice, and
// media24si-eslog2-reader's BT-annotated sample); the XSD itself types them only as short strings.

/** UNTDID 2005 date qualifiers (S_DTM D_2005). */
export const DATE = {
  /** BT-2 issue date. */
  issue: "137",
  /** BT-72 actual delivery date (the Slovenian "datum opravljene storitve"). */
  delivery: "35",
  /** BT-9 payment due date, inside G_SG8. */
  due: "13",
  /** BT-26 preceding invoice issue date, inside G_SG1 OI. */
  precedingIssue: "384",
} as const;

/** UNTDID 1153 reference qualifiers (S_RFF D_1153). */
export const REFERENCE = {
  /** BT-13 purchase order. */
  order: "ON",
  /** BT-25 preceding invoice. */
  precedingInvoice: "OI",
  /** BT-83 remittance information (payment reference). */
  payment: "PQ",
  /** BT-10 buyer reference, in the buyer's G_SG3 as the annotated sample places it. */
  buyer: "CR",
  /** BT-31 / BT-48 VAT identifier. */
  vat: "VA",
  /** BT-32 tax registration (the Slovenian davčna številka). */
  taxRegistration: "AHP",
  /** BT-30 / BT-47 legal registration when the request names no scheme; both samples use it for the matična številka. */
  legalRegistration: "0199",
} as const;

/** UNTDID 3035 party qualifiers (S_NAD, S_FII D_3035). */
export const PARTY = {
  seller: "SE",
  buyer: "BY",
  /** S_FII: the seller's account the buyer pays into (BG-17). */
  payeeAccount: "RB",
  /** S_FII: the buyer's account a direct debit draws on (BT-91). */
  debitedAccount: "BI",
} as const;

/** UNTDID 3139 contact function (S_CTA D_3139): the party's information contact (BG-6, BG-9). */
export const CONTACT = "IC";

/** UNTDID 3155 communication channels (S_COM D_3155). */
export const CHANNEL = {
  /** BT-43 / BT-58 e-mail. */
  email: "EM",
  /** BT-42 / BT-57 telephone. */
  telephone: "TE",
} as const;

/** UNTDID 5025 amount qualifiers (S_MOA D_5025). */
export const AMOUNT = {
  /** BT-131 line net amount. */
  lineNet: "203",
  /** Line amount with VAT (no BT; both samples write it). */
  lineGross: "38",
  /** BT-116 / line taxable amount. */
  taxable: "125",
  /** BT-117 / line VAT amount. */
  tax: "124",
  /** BT-106 sum of line net amounts. */
  lineTotal: "79",
  /** BT-107 sum of document allowances. */
  allowanceTotal: "260",
  /** BT-108 sum of document charges. */
  chargeTotal: "259",
  /** BT-109 total without VAT. */
  taxExclusive: "389",
  /** BT-110 total VAT. */
  taxTotal: "176",
  /** BT-112 total with VAT. */
  taxInclusive: "388",
  /** BT-113 paid amount. */
  prepaid: "113",
  /** BT-114 rounding amount. */
  rounding: "366",
  /** BT-115 amount due for payment. */
  payable: "9",
} as const;

/** UNTDID 4451 free-text subjects (S_FTX D_4451). */
export const TEXT = {
  /** BT-22 invoice note. */
  note: "GEN",
  /** BT-20 payment terms. */
  paymentTerms: "AAB",
  /** BT-24 / BT-23 process control. */
  process: "DOC",
  /** BT-120 / BT-121 VAT exemption reason. */
  exemption: "AGM",
} as const;

/** Fixed values of segments that carry no business term. */
export const FIXED = {
  /** S_UNH C_S009: message type INVOIC, directory D.01B, agency UN. */
  messageType: { type: "INVOIC", version: "D", release: "01B", agency: "UN" },
  /** S_UNH D_0062 when the invoice number is longer than the 14 characters it holds. */
  messageReference: "1",
  /** S_CUX D_6347 2: the reference currency, the one the invoice's amounts are in (BT-5). */
  invoiceCurrency: "2",
  /** S_PAT D_4279 1: basic payment terms. */
  paymentTerms: "1",
  /** S_QTY D_6063 47: invoiced quantity. */
  invoicedQuantity: "47",
  /** S_IMD D_7077 F: free-form item name (BT-153). */
  itemName: "F",
  /** S_PIA D_4347 5: product identification of the item itself. */
  itemIdentification: "5",
  /** S_PRI D_5125 AAA: the net price (BT-146). */
  netPrice: "AAA",
  /** S_TAX D_5283 7 with D_5153 VAT: the tax is VAT. */
  taxFunction: "7",
  taxType: "VAT",
} as const;

/** UNTDID 7143 item id types (S_PIA C_C212 D_7143). */
export const ITEM_ID = {
  /** BT-155 seller's item id. */
  seller: "SA",
  /** BT-156 buyer's item id. */
  buyer: "IN",
} as const;
