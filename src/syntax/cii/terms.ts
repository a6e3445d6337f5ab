// Where CII keeps each business term (CEN/TS 16931-3-3), for naming what a read left over
// (leftovers.ts). Keys are value paths below the root without positions. A place several terms
// share, told apart by a code, names all of them. What the EN 16931 Factur-X schema leaves out and
// the EXTENDED one declares is named as that extension.

import { AMOUNT_CURRENCY, endingIn, notATerm, type TermPlaces } from "../leftovers.ts";
import { PROJECT_NAME } from "./references.ts";
import { ciiTaxPointCode } from "./tax.ts";
import { ADDRESS_TERMS, ALLOWANCE_TERMS, CONTACT_TERMS, type AddressTerms, type AllowanceTerms, type ContactTerms } from "../terms.ts";
import type { SchemaTable } from "./schemas.gen.ts";
import { SCHEMAS } from "./schemas.ts";
import { NAMESPACES } from "./vocabulary.ts";

const CONTEXT = "rsm:ExchangedDocumentContext";
const DOCUMENT = "rsm:ExchangedDocument";
const TRANSACTION = "rsm:SupplyChainTradeTransaction";
const LINE = `${TRANSACTION}/ram:IncludedSupplyChainTradeLineItem`;
const AGREEMENT = `${TRANSACTION}/ram:ApplicableHeaderTradeAgreement`;
const DELIVERY = `${TRANSACTION}/ram:ApplicableHeaderTradeDelivery`;
const SETTLEMENT = `${TRANSACTION}/ram:ApplicableHeaderTradeSettlement`;
const DATE = "udt:DateTimeString";

/** Keys below `at`. */
const under = (at: string, terms: Record<string, string>) => Object.fromEntries(Object.entries(terms).map(([k, v]) => [`${at}/${k}`, v]));

const address = (party: string, [line1, line2, line3, city, postCode, subdivision, country]: AddressTerms) =>
  under(`${party}/ram:PostalTradeAddress`, {
    "ram:PostcodeCode": postCode,
    "ram:LineOne": line1,
    "ram:LineTwo": line2,
    "ram:LineThree": line3,
    "ram:CityName": city,
    "ram:CountryID": country,
    "ram:CountrySubDivisionName": subdivision,
  });

/** A party's identifiers: `ram:ID` without a scheme, `ram:GlobalID` with one. */
const partyIds = (party: string, term: string) =>
  under(party, { "ram:ID": term, "ram:GlobalID": term, "ram:GlobalID/@schemeID": `${term}-1` });

const contact = (party: string, [name, telephone, email]: ContactTerms) =>
  under(`${party}/ram:DefinedTradeContact`, {
    "ram:PersonName": name,
    "ram:DepartmentName": name,
    "ram:TelephoneUniversalCommunication/ram:CompleteNumber": telephone,
    "ram:EmailURIUniversalCommunication/ram:URIID": email,
  });

/** An allowance and a charge share `ram:SpecifiedTradeAllowanceCharge`; the charge indicator tells them apart. */
const allowanceCharge = (at: string, groups: string, allowance: AllowanceTerms, charge: AllowanceTerms) => {
  const both = (i: number) => `${allowance[i]} or ${charge[i]}`;
  return under(`${at}/ram:SpecifiedTradeAllowanceCharge`, {
    "ram:ChargeIndicator/udt:Indicator": `${groups} (indicator)`,
    "ram:ActualAmount": both(0),
    "ram:BasisAmount": both(1),
    "ram:CalculationPercent": both(2),
    "ram:Reason": both(3),
    "ram:ReasonCode": both(4),
    ...(allowance[5] && { "ram:CategoryTradeTax/ram:CategoryCode": both(5), "ram:CategoryTradeTax/ram:RateApplicablePercent": both(6) }),
  });
};

const SELLER = `${AGREEMENT}/ram:SellerTradeParty`;
const BUYER = `${AGREEMENT}/ram:BuyerTradeParty`;
const PAYEE = `${SETTLEMENT}/ram:PayeeTradeParty`;
const SHIP_TO = `${DELIVERY}/ram:ShipToTradeParty`;
const REPRESENTATIVE = `${AGREEMENT}/ram:SellerTaxRepresentativeTradeParty`;

const TERMS: Record<string, string> = {
  [`${CONTEXT}/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID`]: "BT-23",
  [`${CONTEXT}/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID`]: "BT-24",
  ...under(DOCUMENT, {
    "ram:ID": "BT-1",
    "ram:TypeCode": "BT-3",
    [`ram:IssueDateTime/${DATE}`]: "BT-2",
    "ram:IncludedNote/ram:Content": "BT-22",
    "ram:IncludedNote/ram:SubjectCode": "BT-21",
  }),

  ...under(AGREEMENT, {
    "ram:BuyerReference": "BT-10",
    "ram:SellerOrderReferencedDocument/ram:IssuerAssignedID": "BT-14",
    "ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID": "BT-13",
    "ram:ContractReferencedDocument/ram:IssuerAssignedID": "BT-12",
    "ram:AdditionalReferencedDocument/ram:IssuerAssignedID": "BT-122 (type code 916), BT-17 (50) or BT-18 (130)",
    "ram:AdditionalReferencedDocument/ram:TypeCode": "BT-122, BT-17 or BT-18 (type code)",
    "ram:AdditionalReferencedDocument/ram:URIID": "BT-124",
    "ram:AdditionalReferencedDocument/ram:Name": "BT-123",
    "ram:AdditionalReferencedDocument/ram:AttachmentBinaryObject": "BT-125",
    "ram:AdditionalReferencedDocument/ram:AttachmentBinaryObject/@mimeCode": "BT-125-1",
    "ram:AdditionalReferencedDocument/ram:AttachmentBinaryObject/@filename": "BT-125-2",
    "ram:AdditionalReferencedDocument/ram:ReferenceTypeCode": "BT-18-1",
    "ram:SpecifiedProcuringProject/ram:ID": "BT-11",
    "ram:SpecifiedProcuringProject/ram:Name": "BT-11 (project name)",
  }),

  ...partyIds(SELLER, "BT-29"),
  ...under(SELLER, {
    "ram:Name": "BT-27",
    "ram:Description": "BT-33",
    "ram:SpecifiedLegalOrganization/ram:ID": "BT-30",
    "ram:SpecifiedLegalOrganization/ram:ID/@schemeID": "BT-30-1",
    "ram:SpecifiedLegalOrganization/ram:TradingBusinessName": "BT-28",
    "ram:URIUniversalCommunication/ram:URIID": "BT-34",
    "ram:URIUniversalCommunication/ram:URIID/@schemeID": "BT-34-1",
    "ram:SpecifiedTaxRegistration/ram:ID": "BT-31 (scheme VA) or BT-32 (FC)",
  }),
  ...contact(SELLER, CONTACT_TERMS.seller),
  ...address(SELLER, ADDRESS_TERMS.seller),

  ...partyIds(BUYER, "BT-46"),
  ...under(BUYER, {
    "ram:Name": "BT-44",
    "ram:SpecifiedLegalOrganization/ram:ID": "BT-47",
    "ram:SpecifiedLegalOrganization/ram:ID/@schemeID": "BT-47-1",
    "ram:SpecifiedLegalOrganization/ram:TradingBusinessName": "BT-45",
    "ram:URIUniversalCommunication/ram:URIID": "BT-49",
    "ram:URIUniversalCommunication/ram:URIID/@schemeID": "BT-49-1",
    "ram:SpecifiedTaxRegistration/ram:ID": "BT-48 (scheme VA) or the buyer's tax registration (FC)",
  }),
  ...contact(BUYER, CONTACT_TERMS.buyer),
  ...address(BUYER, ADDRESS_TERMS.buyer),

  [`${REPRESENTATIVE}/ram:Name`]: "BT-62",
  [`${REPRESENTATIVE}/ram:SpecifiedTaxRegistration/ram:ID`]: "BT-63",
  ...address(REPRESENTATIVE, ADDRESS_TERMS.taxRepresentative),

  ...partyIds(PAYEE, "BT-60"),
  [`${PAYEE}/ram:Name`]: "BT-59",
  [`${PAYEE}/ram:SpecifiedLegalOrganization/ram:ID`]: "BT-61",
  [`${PAYEE}/ram:SpecifiedLegalOrganization/ram:ID/@schemeID`]: "BT-61-1",

  ...partyIds(SHIP_TO, "BT-71"),
  [`${SHIP_TO}/ram:Name`]: "BT-70",
  ...address(SHIP_TO, ADDRESS_TERMS.deliverTo),
  ...under(DELIVERY, {
    [`ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime/${DATE}`]: "BT-72",
    "ram:DespatchAdviceReferencedDocument/ram:IssuerAssignedID": "BT-16",
    "ram:ReceivingAdviceReferencedDocument/ram:IssuerAssignedID": "BT-15",
  }),

  ...under(SETTLEMENT, {
    "ram:CreditorReferenceID": "BT-90",
    "ram:PaymentReference": "BT-83",
    "ram:TaxCurrencyCode": "BT-6",
    "ram:InvoiceCurrencyCode": "BT-5",
    "ram:SpecifiedTradeSettlementPaymentMeans/ram:TypeCode": "BT-81",
    "ram:SpecifiedTradeSettlementPaymentMeans/ram:Information": "BT-82",
    "ram:SpecifiedTradeSettlementPaymentMeans/ram:ApplicableTradeSettlementFinancialCard/ram:ID": "BT-87",
    "ram:SpecifiedTradeSettlementPaymentMeans/ram:ApplicableTradeSettlementFinancialCard/ram:CardholderName": "BT-88",
    "ram:SpecifiedTradeSettlementPaymentMeans/ram:PayerPartyDebtorFinancialAccount/ram:IBANID": "BT-91",
    "ram:SpecifiedTradeSettlementPaymentMeans/ram:PayeePartyCreditorFinancialAccount/ram:IBANID": "BT-84",
    "ram:SpecifiedTradeSettlementPaymentMeans/ram:PayeePartyCreditorFinancialAccount/ram:ProprietaryID": "BT-84",
    "ram:SpecifiedTradeSettlementPaymentMeans/ram:PayeePartyCreditorFinancialAccount/ram:AccountName": "BT-85",
    "ram:SpecifiedTradeSettlementPaymentMeans/ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID": "BT-86",
    "ram:ApplicableTradeTax/ram:CalculatedAmount": "BT-117",
    "ram:ApplicableTradeTax/ram:ExemptionReason": "BT-120",
    "ram:ApplicableTradeTax/ram:BasisAmount": "BT-116",
    "ram:ApplicableTradeTax/ram:CategoryCode": "BT-118",
    "ram:ApplicableTradeTax/ram:ExemptionReasonCode": "BT-121",
    "ram:ApplicableTradeTax/ram:TaxPointDate/udt:DateString": "BT-7",
    "ram:ApplicableTradeTax/ram:DueDateTypeCode": "BT-8",
    "ram:ApplicableTradeTax/ram:RateApplicablePercent": "BT-119",
    [`ram:BillingSpecifiedPeriod/ram:StartDateTime/${DATE}`]: "BT-73",
    [`ram:BillingSpecifiedPeriod/ram:EndDateTime/${DATE}`]: "BT-74",
    "ram:SpecifiedTradePaymentTerms/ram:Description": "BT-20",
    [`ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/${DATE}`]: "BT-9",
    "ram:SpecifiedTradePaymentTerms/ram:DirectDebitMandateID": "BT-89",
    "ram:InvoiceReferencedDocument/ram:IssuerAssignedID": "BT-25",
    "ram:InvoiceReferencedDocument/ram:FormattedIssueDateTime/qdt:DateTimeString": "BT-26",
    "ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID": "BT-19",
  }),
  ...allowanceCharge(SETTLEMENT, "BG-20 or BG-21", ALLOWANCE_TERMS.documentAllowance, ALLOWANCE_TERMS.documentCharge),
  ...under(`${SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation`, {
    "ram:LineTotalAmount": "BT-106",
    "ram:ChargeTotalAmount": "BT-108",
    "ram:AllowanceTotalAmount": "BT-107",
    "ram:TaxBasisTotalAmount": "BT-109",
    "ram:TaxTotalAmount": "BT-110 or BT-111",
    "ram:RoundingAmount": "BT-114",
    "ram:GrandTotalAmount": "BT-112",
    "ram:TotalPrepaidAmount": "BT-113",
    "ram:DuePayableAmount": "BT-115",
  }),

  ...under(LINE, {
    "ram:AssociatedDocumentLineDocument/ram:LineID": "BT-126",
    "ram:AssociatedDocumentLineDocument/ram:ParentLineID": "BG-DEX-01",
    "ram:AssociatedDocumentLineDocument/ram:IncludedNote/ram:Content": "BT-127",
    "ram:SpecifiedTradeProduct/ram:GlobalID": "BT-157",
    "ram:SpecifiedTradeProduct/ram:GlobalID/@schemeID": "BT-157-1",
    "ram:SpecifiedTradeProduct/ram:SellerAssignedID": "BT-155",
    "ram:SpecifiedTradeProduct/ram:BuyerAssignedID": "BT-156",
    "ram:SpecifiedTradeProduct/ram:Name": "BT-153",
    "ram:SpecifiedTradeProduct/ram:Description": "BT-154",
    "ram:SpecifiedTradeProduct/ram:ApplicableProductCharacteristic/ram:Description": "BT-160",
    "ram:SpecifiedTradeProduct/ram:ApplicableProductCharacteristic/ram:Value": "BT-161",
    "ram:SpecifiedTradeProduct/ram:DesignatedProductClassification/ram:ClassCode": "BT-158",
    "ram:SpecifiedTradeProduct/ram:DesignatedProductClassification/ram:ClassCode/@listID": "BT-158-1",
    "ram:SpecifiedTradeProduct/ram:DesignatedProductClassification/ram:ClassCode/@listVersionID": "BT-158-2",
    "ram:SpecifiedTradeProduct/ram:OriginTradeCountry/ram:ID": "BT-159",
    "ram:SpecifiedLineTradeAgreement/ram:BuyerOrderReferencedDocument/ram:LineID": "BT-132",
    "ram:SpecifiedLineTradeAgreement/ram:GrossPriceProductTradePrice/ram:ChargeAmount": "BT-148",
    "ram:SpecifiedLineTradeAgreement/ram:GrossPriceProductTradePrice/ram:BasisQuantity": "BT-149",
    "ram:SpecifiedLineTradeAgreement/ram:GrossPriceProductTradePrice/ram:BasisQuantity/@unitCode": "BT-150",
    "ram:SpecifiedLineTradeAgreement/ram:GrossPriceProductTradePrice/ram:AppliedTradeAllowanceCharge/ram:ChargeIndicator/udt:Indicator": "BT-147 (indicator)",
    "ram:SpecifiedLineTradeAgreement/ram:GrossPriceProductTradePrice/ram:AppliedTradeAllowanceCharge/ram:ActualAmount": "BT-147",
    "ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount": "BT-146",
    "ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:BasisQuantity": "BT-149",
    "ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:BasisQuantity/@unitCode": "BT-150",
    "ram:SpecifiedLineTradeDelivery/ram:BilledQuantity": "BT-129",
    "ram:SpecifiedLineTradeDelivery/ram:BilledQuantity/@unitCode": "BT-130",
    "ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:CategoryCode": "BT-151",
    "ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:RateApplicablePercent": "BT-152",
    [`ram:SpecifiedLineTradeSettlement/ram:BillingSpecifiedPeriod/ram:StartDateTime/${DATE}`]: "BT-134",
    [`ram:SpecifiedLineTradeSettlement/ram:BillingSpecifiedPeriod/ram:EndDateTime/${DATE}`]: "BT-135",
    "ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount": "BT-131",
    "ram:SpecifiedLineTradeSettlement/ram:AdditionalReferencedDocument/ram:IssuerAssignedID": "BT-128",
    "ram:SpecifiedLineTradeSettlement/ram:AdditionalReferencedDocument/ram:TypeCode": "BT-128 (type code)",
    "ram:SpecifiedLineTradeSettlement/ram:AdditionalReferencedDocument/ram:ReferenceTypeCode": "BT-128-1",
    "ram:SpecifiedLineTradeSettlement/ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID": "BT-133",
  }),
  ...allowanceCharge(`${LINE}/ram:SpecifiedLineTradeSettlement`, "BG-27 or BG-28", ALLOWANCE_TERMS.lineAllowance, ALLOWANCE_TERMS.lineCharge),
};

/** Places without a term that sources fill, named for what they hold: CII has them, UBL and the model do not. */
const NOT_TERMS: Record<string, string> = {
  [`${SELLER}/ram:DefinedTradeContact/ram:FaxUniversalCommunication/ram:CompleteNumber`]: notATerm("the seller contact's fax number (Factur-X EXTENDED)"),
  [`${BUYER}/ram:DefinedTradeContact/ram:FaxUniversalCommunication/ram:CompleteNumber`]: notATerm("the buyer contact's fax number (Factur-X EXTENDED)"),
  ...under(`${LINE}/ram:SpecifiedLineTradeAgreement/ram:GrossPriceProductTradePrice/ram:AppliedTradeAllowanceCharge`, {
    "ram:CalculationPercent": notATerm("the percentage of a price discount, which EN 16931 gives as an amount (BT-147) only"),
    "ram:BasisAmount": notATerm("the base of a price discount, which EN 16931 gives as an amount (BT-147) only"),
  }),
};

const ROOT_TYPE = "rsm:CrossIndustryInvoiceType";

/** Whether a schema table declares a value path below the root; inside a data type every step is its own. */
function declares(table: SchemaTable, key: string): boolean {
  let type = ROOT_TYPE;
  for (const step of key.split("/")) {
    if (step.startsWith("@")) return (table.attributes[type] ?? []).includes(step.slice(1));
    const rules = table.sequences[type];
    if (!rules) return true;
    const local = step.slice(step.indexOf(":") + 1);
    const rule = rules.find((spec) => spec.startsWith(`${local}:`));
    if (!rule) return false;
    type = rule.slice(local.length + 1).replace(/[!*\d]+$/, "");
  }
  return true;
}

const belowRoot = (shape: string) => shape.replace(/^\/[^/]+\//, "");

export const CII_PLACES: TermPlaces = {
  prefixes: Object.fromEntries(Object.entries(NAMESPACES).map(([prefix, uri]) => [uri, prefix])),
  terms: { ...TERMS, ...NOT_TERMS },
  keyOf: belowRoot,
  extensionOf: (shape) => {
    const key = belowRoot(shape);
    return !declares(SCHEMAS.en16931, key) && declares(SCHEMAS.extended, key) ? "Factur-X EXTENDED" : undefined;
  },
  implied: [
    AMOUNT_CURRENCY,
    // Dates are read and written in format 102 (CCYYMMDD), the one EN 16931 allows.
    { at: endingIn("udt:DateTimeString/@format", "udt:DateString/@format", "qdt:DateTimeString/@format", "qdt:DateString/@format"), values: () => ["102"] },
    { at: endingIn("ram:ApplicableTradeTax/ram:TypeCode", "ram:CategoryTradeTax/ram:TypeCode"), values: () => ["VAT"] },
    // BT-8 repeated in every VAT breakdown entry, as CII-SR-462 allows and the writer does (tax.ts).
    { at: endingIn("ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax/ram:DueDateTypeCode"), values: (i) => [ciiTaxPointCode(i.taxPointDateCode)] },
    // The schema requires a project name; EN 16931 has none and fixes this text.
    { at: endingIn("ram:SpecifiedProcuringProject/ram:Name"), values: () => [PROJECT_NAME] },
    // One payment means per account, each repeating the code and the text (payment.ts).
    { at: endingIn("ram:SpecifiedTradeSettlementPaymentMeans/ram:TypeCode"), values: (i) => [i.paymentInstructions?.meansTypeCode] },
    { at: endingIn("ram:SpecifiedTradeSettlementPaymentMeans/ram:Information"), values: (i) => [i.paymentInstructions?.meansText] },
  ],
};
