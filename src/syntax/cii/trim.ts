// Terms a Factur-X level's rules forbid although its XSD admits them. The CII writer fits a tree to
// the level's XSD, type by type; MINIMUM shares one TradePartyType between seller and buyer, so the
// buyer's postal address and VAT id pass the XSD and then fail the MINIMUM Schematron ("marked as
// not used in the given context"). MINIMUM also carries no VAT accounting currency, and its rules
// refuse a second tax total whose currency is then unexplained. Removed here, reported lost.

import type { Invoice } from "../../model/index.ts";
import type { LostField } from "../binding.ts";

const BUYER = "/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty";
const SUMMATION = "/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement";

/** The model without those terms (the caller's model is left as it is). */
export function trimForMinimum(model: Invoice): { model: Invoice; lost: LostField[] } {
  const lost: LostField[] = [];
  const { address, vatId, ...buyer } = model.buyer;
  if (address) lost.push({ bt: "BG-8", xpath: `${BUYER}/ram:PostalTradeAddress` });
  if (vatId !== undefined) lost.push({ bt: "BT-48", xpath: `${BUYER}/ram:SpecifiedTaxRegistration` });
  const { taxCurrencyCode, ...rest } = model;
  const { vatTotalInAccountingCurrency, ...totals } = model.totals;
  if (taxCurrencyCode !== undefined) lost.push({ bt: "BT-6", xpath: `${SUMMATION}/ram:TaxCurrencyCode` });
  if (vatTotalInAccountingCurrency !== undefined) {
    lost.push({ bt: "BT-111", xpath: `${SUMMATION}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:TaxTotalAmount` });
  }
  // The model requires a buyer address; the writer omits an absent one, which MINIMUM needs.
  return { model: { ...rest, buyer: buyer as Invoice["buyer"], totals }, lost };
}
