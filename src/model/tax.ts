// VAT breakdown (BG-23) and document totals (BG-22).

import type { Decimal } from "./common.ts";

/** BG-23 VAT BREAKDOWN: one entry per VAT category and rate. */
export interface VatBreakdown {
  /** BT-116: VAT category taxable amount. */
  taxableAmount: Decimal;
  /** BT-117: VAT category tax amount. */
  taxAmount: Decimal;
  /** BT-118: VAT category code (UNCL 5305: S, Z, E, AE, K, G, O, L, M). */
  categoryCode: string;
  /** BT-119: VAT category rate (absent for category O). */
  rate?: Decimal;
  /** BT-120: VAT exemption reason text. */
  exemptionReason?: string;
  /** BT-121: VAT exemption reason code (VATEX). */
  exemptionReasonCode?: string;
}

/** BG-22 DOCUMENT TOTALS. */
export interface DocumentTotals {
  /** BT-106: sum of invoice line net amounts. */
  lineNetTotal: Decimal;
  /** BT-107: sum of allowances on document level. */
  allowanceTotal?: Decimal;
  /** BT-108: sum of charges on document level. */
  chargeTotal?: Decimal;
  /** BT-109: invoice total amount without VAT. */
  taxExclusiveTotal: Decimal;
  /** BT-110: invoice total VAT amount, in the invoice currency (BT-5). */
  vatTotal?: Decimal;
  /** BT-111: invoice total VAT amount in accounting currency (BT-6), a second tax total. */
  vatTotalInAccountingCurrency?: Decimal;
  /** BT-112: invoice total amount with VAT. */
  taxInclusiveTotal: Decimal;
  /** BT-113: paid amount. */
  prepaidAmount?: Decimal;
  /** BT-114: rounding amount. */
  roundingAmount?: Decimal;
  /** BT-115: amount due for payment. */
  payableAmount: Decimal;
}
