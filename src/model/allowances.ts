// Allowances and charges at document level (BG-20, BG-21) and line level (BG-27, BG-28).

import type { Decimal } from "./common.ts";

/** The terms shared by every allowance or charge, document or line level. */
export interface AllowanceChargeTerms {
  /** BT-92 / BT-99 / BT-136 / BT-141: the amount, without VAT. */
  amount: Decimal;
  /** BT-93 / BT-100 / BT-137 / BT-142: base amount the percentage applies to. */
  baseAmount?: Decimal;
  /** BT-94 / BT-101 / BT-138 / BT-143: percentage. */
  percentage?: Decimal;
  /** BT-97 / BT-104 / BT-139 / BT-144: reason text. */
  reason?: string;
  /** BT-98 / BT-105 / BT-140 / BT-145: reason code (UNTDID 5189 allowances, 7161 charges). */
  reasonCode?: string;
}

/** BG-20 DOCUMENT LEVEL ALLOWANCES and BG-21 DOCUMENT LEVEL CHARGES. */
export interface DocumentAllowanceCharge extends AllowanceChargeTerms {
  /** BT-95 / BT-102 (1..1): VAT category code of the allowance or charge. */
  vatCategoryCode: string;
  /** BT-96 / BT-103: VAT rate of the allowance or charge. */
  vatRate?: Decimal;
  /**
   * Charges only: the charge was a logistics service fee (Factur-X EXTENDED BT-X-271..273,
   * `ram:SpecifiedLogisticsServiceCharge`), which EN 16931 knows as a document level charge and
   * which Factur-X counts in BT-108 and BT-109. Targets other than Factur-X EXTENDED write it as
   * the plain charge it is; absent everywhere else.
   */
  logisticsService?: boolean;
}

/** BG-27 INVOICE LINE ALLOWANCES and BG-28 INVOICE LINE CHARGES. */
export type LineAllowanceCharge = AllowanceChargeTerms;
