// Terms a Factur-X level's rules forbid although its XSD admits them. The CII writer fits a tree to
// the level's XSD, type by type; MINIMUM shares one TradePartyType between seller and buyer, so the
// buyer's postal address and VAT id pass the XSD and then fail the MINIMUM Schematron ("marked as
// not used in the given context"). MINIMUM also carries no VAT accounting currency, and its rules
// refuse a second tax total whose currency is then unexplained. Removed here, reported lost.

import type { Invoice } from "../model/index.ts";
import type { LostField } from "../syntax/cii/write.ts";

const BUYER = "/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty";
const SUMMATION = "/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement";

export function trimForMinimum(model: Invoice): LostField[] {
  const lost: LostField[] = [];
  const buyer = model.buyer as Partial<Invoice["buyer"]>;
  if (buyer.address) lost.push({ bt: "BG-8", xpath: `${BUYER}/ram:PostalTradeAddress` });
  if (buyer.vatId !== undefined) lost.push({ bt: "BT-48", xpath: `${BUYER}/ram:SpecifiedTaxRegistration` });
  // The model requires a buyer address; the writer omits an absent one, which MINIMUM needs.
  delete buyer.address;
  delete buyer.vatId;
  if (model.taxCurrencyCode !== undefined) lost.push({ bt: "BT-6", xpath: `${SUMMATION}/ram:TaxCurrencyCode` });
  if (model.totals.vatTotalInAccountingCurrency !== undefined) {
    lost.push({ bt: "BT-111", xpath: `${SUMMATION}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:TaxTotalAmount` });
  }
  delete model.taxCurrencyCode;
  delete model.totals.vatTotalInAccountingCurrency;
  return lost;
}
