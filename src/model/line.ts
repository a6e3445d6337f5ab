// The invoice line (BG-25) with its period, allowances, charges, price, VAT and item (BG-26..BG-32).

import type { LineAllowanceCharge } from "./allowances.ts";
import type { Decimal, Identifier } from "./common.ts";
import type { Period } from "./delivery.ts";

/** BG-29 PRICE DETAILS. */
export interface PriceDetails {
  /** BT-146: item net price (after the price discount, before line allowances). */
  netPrice: Decimal;
  /** BT-147: item price discount (gross price minus net price). */
  discount?: Decimal;
  /** BT-148: item gross price. */
  grossPrice?: Decimal;
  /** BT-149: item price base quantity (the price is per this many units). */
  baseQuantity?: Decimal;
  /** BT-150: item price base quantity unit of measure code. */
  baseQuantityUnitCode?: string;
}

/** BG-30 LINE VAT INFORMATION. */
export interface LineVat {
  /** BT-151: invoiced item VAT category code. */
  categoryCode: string;
  /** BT-152: invoiced item VAT rate (absent for category O). */
  rate?: Decimal;
  /** EXT-FR-FE-178 (French CTC extension): line VAT exemption reason text. */
  exemptionReason?: string;
}

/** BT-158 item classification identifier, with its scheme (BT-158-1) and scheme version (BT-158-2). */
export interface ItemClassification {
  code: string;
  /** BT-158-1: the classification scheme (UNTDID 7143, e.g. `STI`). */
  listId: string;
  /** BT-158-2: the version of that scheme. */
  listVersionId?: string;
}

/** BG-32 ITEM ATTRIBUTES. */
export interface ItemAttribute {
  /** BT-160: item attribute name. */
  name: string;
  /** BT-161: item attribute value. */
  value: string;
}

/** BG-31 ITEM INFORMATION. */
export interface Item {
  /** BT-153: item name. */
  name: string;
  /** BT-154: item description. */
  description?: string;
  /** BT-155: item seller's identifier. */
  sellerId?: string;
  /** BT-156: item buyer's identifier. */
  buyerId?: string;
  /** BT-157 (0..1): item standard identifier, scheme (BT-157-1) mandatory (e.g. GTIN `0160`). */
  standardId?: Identifier;
  /** BT-158 (0..n): item classification identifiers. */
  classifications: ItemClassification[];
  /** BT-159: item country of origin (ISO 3166-1 alpha-2). */
  originCountry?: string;
  /** BG-32 (0..n): item attributes. */
  attributes: ItemAttribute[];
}

/**
 * The seller of one line (French CTC extension, EXT-FR-FE-164..177): in a multi-vendor invoice
 * (billing frameworks S8, B8, M8) each group of lines is another vendor's sub-invoice.
 */
export interface LineSeller {
  /** EXT-FR-FE-164: name. */
  name: string;
  /** EXT-FR-FE-167: legal registration identifier. */
  legalRegistrationId: Identifier;
  /** EXT-FR-FE-177: country code (ISO 3166-1 alpha-2). */
  countryCode: string;
}

/** BG-25 INVOICE LINE. */
export interface InvoiceLine {
  /** BT-126: invoice line identifier. */
  id: string;
  /** BT-127: invoice line note. */
  note?: string;
  /** BT-128 (0..1): invoice line object identifier, with scheme (BT-128-1). */
  objectId?: Identifier;
  /** BT-129: invoiced quantity. */
  quantity: Decimal;
  /** BT-130: invoiced quantity unit of measure code (UN/ECE Rec 20/21). */
  unitCode: string;
  /** BT-131: invoice line net amount. */
  netAmount: Decimal;
  /** BT-132: referenced purchase order line reference. */
  orderLineReference?: string;
  /** BT-133: invoice line buyer accounting reference. */
  buyerAccountingReference?: string;
  /** BG-26 (0..1): invoice line period. */
  period?: Period;
  /** BG-27 (0..n): invoice line allowances. */
  allowances: LineAllowanceCharge[];
  /** BG-28 (0..n): invoice line charges. */
  charges: LineAllowanceCharge[];
  /** BG-29 (1..1): price details. */
  price: PriceDetails;
  /** BG-30 (1..1): line VAT information. */
  vat: LineVat;
  /** BG-31 (1..1): item information. */
  item: Item;
  /** EXT-FR-FE-164..177 (French CTC extension): the seller of this line. */
  seller?: LineSeller;
  /** EXT-FR-FE-181 (French CTC extension): the line's VAT total in the invoice currency. */
  vatTotal?: Decimal;
  /** EXT-FR-FE-182 (French CTC extension): the line's VAT total in the VAT accounting currency (BT-6). */
  vatTotalInAccountingCurrency?: Decimal;
  /**
   * Sub-invoice lines (XRechnung extension, BG-DEX-01; UBL `cac:SubInvoiceLine`): a line broken
   * down into parts, recursively. Absent outside the extension.
   */
  subLines?: InvoiceLine[];
}
