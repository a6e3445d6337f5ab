// Where UBL 2.1 keeps each business term (CEN/TS 16931-3-2), for naming what a read left over
// (leftovers.ts). Keys are value paths below the root without positions, in Invoice names: a credit
// note's names and XRechnung sub-lines map onto them (keyOf). A place several terms share, told
// apart by a code, names all of them.

import { AMOUNT_CURRENCY, endingIn, notATerm, type TermPlaces } from "../leftovers.ts";
import { ADDRESS_TERMS, ALLOWANCE_TERMS, CONTACT_TERMS, type AddressTerms, type AllowanceTerms, type ContactTerms } from "../terms.ts";
import { KINDS, NS, PREFIXES } from "./vocabulary.ts";

const SELLER = "cac:AccountingSupplierParty/cac:Party";
const BUYER = "cac:AccountingCustomerParty/cac:Party";
const LINE = KINDS.invoice.line;

/** Keys below `at`. */
const under = (at: string, terms: Record<string, string>) => Object.fromEntries(Object.entries(terms).map(([k, v]) => [`${at}/${k}`, v]));

const address = (at: string, [line1, line2, line3, city, postCode, subdivision, country]: AddressTerms) =>
  under(at, {
    "cbc:StreetName": line1,
    "cbc:AdditionalStreetName": line2,
    "cac:AddressLine/cbc:Line": line3,
    "cbc:CityName": city,
    "cbc:PostalZone": postCode,
    "cbc:CountrySubentity": subdivision,
    "cac:Country/cbc:IdentificationCode": country,
  });

const contact = (at: string, [name, telephone, email]: ContactTerms) =>
  under(at, { "cbc:Name": name, "cbc:Telephone": telephone, "cbc:ElectronicMail": email });

/** An allowance and a charge share `cac:AllowanceCharge`; `cbc:ChargeIndicator` tells them apart. */
const allowanceCharge = (at: string, groups: string, allowance: AllowanceTerms, charge: AllowanceTerms) => {
  const both = (i: number) => `${allowance[i]} or ${charge[i]}`;
  return under(at, {
    "cbc:ChargeIndicator": `${groups} (indicator)`,
    "cbc:Amount": both(0),
    "cbc:BaseAmount": both(1),
    "cbc:MultiplierFactorNumeric": both(2),
    "cbc:AllowanceChargeReason": both(3),
    "cbc:AllowanceChargeReasonCode": both(4),
    ...(allowance[5] && { "cac:TaxCategory/cbc:ID": both(5), "cac:TaxCategory/cbc:Percent": both(6) }),
  });
};

const TERMS: Record<string, string> = {
  "cbc:CustomizationID": "BT-24",
  "cbc:ProfileID": "BT-23",
  "cbc:ID": "BT-1",
  "cbc:IssueDate": "BT-2",
  "cbc:DueDate": "BT-9",
  [KINDS.invoice.typeCode]: "BT-3",
  "cbc:Note": "BT-22 (BT-21 as its #code# prefix)",
  "cbc:TaxPointDate": "BT-7",
  "cbc:DocumentCurrencyCode": "BT-5",
  "cbc:TaxCurrencyCode": "BT-6",
  "cbc:AccountingCost": "BT-19",
  "cbc:BuyerReference": "BT-10",
  "cac:InvoicePeriod/cbc:StartDate": "BT-73",
  "cac:InvoicePeriod/cbc:EndDate": "BT-74",
  "cac:InvoicePeriod/cbc:DescriptionCode": "BT-8",
  "cac:OrderReference/cbc:ID": "BT-13",
  "cac:OrderReference/cbc:SalesOrderID": "BT-14",
  "cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID": "BT-25",
  "cac:BillingReference/cac:InvoiceDocumentReference/cbc:IssueDate": "BT-26",
  "cac:DespatchDocumentReference/cbc:ID": "BT-16",
  "cac:ReceiptDocumentReference/cbc:ID": "BT-15",
  "cac:OriginatorDocumentReference/cbc:ID": "BT-17",
  "cac:ContractDocumentReference/cbc:ID": "BT-12",
  "cac:ProjectReference/cbc:ID": "BT-11",
  "cac:AdditionalDocumentReference/cbc:ID": "BT-122, BT-18 (type code 130) or BT-11 (credit note, type code 50)",
  "cac:AdditionalDocumentReference/cbc:ID/@schemeID": "BT-18-1",
  "cac:AdditionalDocumentReference/cbc:DocumentTypeCode": "BT-18 or BT-11 (type code)",
  "cac:AdditionalDocumentReference/cbc:DocumentDescription": "BT-123",
  "cac:AdditionalDocumentReference/cac:Attachment/cbc:EmbeddedDocumentBinaryObject": "BT-125",
  "cac:AdditionalDocumentReference/cac:Attachment/cbc:EmbeddedDocumentBinaryObject/@mimeCode": "BT-125-1",
  "cac:AdditionalDocumentReference/cac:Attachment/cbc:EmbeddedDocumentBinaryObject/@filename": "BT-125-2",
  "cac:AdditionalDocumentReference/cac:Attachment/cac:ExternalReference/cbc:URI": "BT-124",

  ...under(SELLER, {
    "cbc:EndpointID": "BT-34",
    "cbc:EndpointID/@schemeID": "BT-34-1",
    "cac:PartyIdentification/cbc:ID": "BT-29 (BT-90 with scheme SEPA)",
    "cac:PartyIdentification/cbc:ID/@schemeID": "BT-29-1",
    "cac:PartyName/cbc:Name": "BT-28",
    "cac:PartyTaxScheme/cbc:CompanyID": "BT-31 (tax scheme VAT) or BT-32",
    "cac:PartyTaxScheme/cac:TaxScheme/cbc:ID": "BT-31 or BT-32 (tax scheme)",
    "cac:PartyLegalEntity/cbc:RegistrationName": "BT-27",
    "cac:PartyLegalEntity/cbc:CompanyID": "BT-30",
    "cac:PartyLegalEntity/cbc:CompanyID/@schemeID": "BT-30-1",
    "cac:PartyLegalEntity/cbc:CompanyLegalForm": "BT-33",
  }),
  ...address(`${SELLER}/cac:PostalAddress`, ADDRESS_TERMS.seller),
  ...contact(`${SELLER}/cac:Contact`, CONTACT_TERMS.seller),

  ...under(BUYER, {
    "cbc:EndpointID": "BT-49",
    "cbc:EndpointID/@schemeID": "BT-49-1",
    "cac:PartyIdentification/cbc:ID": "BT-46",
    "cac:PartyIdentification/cbc:ID/@schemeID": "BT-46-1",
    "cac:PartyName/cbc:Name": "BT-45",
    "cac:PartyTaxScheme/cbc:CompanyID": "BT-48 (tax scheme VAT) or the buyer's tax registration",
    "cac:PartyTaxScheme/cac:TaxScheme/cbc:ID": "BT-48 or the buyer's tax registration (tax scheme)",
    "cac:PartyLegalEntity/cbc:RegistrationName": "BT-44",
    "cac:PartyLegalEntity/cbc:CompanyID": "BT-47",
    "cac:PartyLegalEntity/cbc:CompanyID/@schemeID": "BT-47-1",
  }),
  ...address(`${BUYER}/cac:PostalAddress`, ADDRESS_TERMS.buyer),
  ...contact(`${BUYER}/cac:Contact`, CONTACT_TERMS.buyer),

  ...under("cac:PayeeParty", {
    "cac:PartyIdentification/cbc:ID": "BT-60 (BT-90 with scheme SEPA)",
    "cac:PartyIdentification/cbc:ID/@schemeID": "BT-60-1",
    "cac:PartyName/cbc:Name": "BT-59",
    "cac:PartyLegalEntity/cbc:CompanyID": "BT-61",
    "cac:PartyLegalEntity/cbc:CompanyID/@schemeID": "BT-61-1",
  }),

  "cac:TaxRepresentativeParty/cac:PartyName/cbc:Name": "BT-62",
  "cac:TaxRepresentativeParty/cac:PartyTaxScheme/cbc:CompanyID": "BT-63",
  "cac:TaxRepresentativeParty/cac:PartyTaxScheme/cac:TaxScheme/cbc:ID": "BT-63 (tax scheme)",
  ...address("cac:TaxRepresentativeParty/cac:PostalAddress", ADDRESS_TERMS.taxRepresentative),

  ...under("cac:Delivery", {
    "cbc:ActualDeliveryDate": "BT-72",
    "cac:DeliveryLocation/cbc:ID": "BT-71",
    "cac:DeliveryLocation/cbc:ID/@schemeID": "BT-71-1",
    "cac:DeliveryParty/cac:PartyName/cbc:Name": "BT-70",
  }),
  ...address("cac:Delivery/cac:DeliveryLocation/cac:Address", ADDRESS_TERMS.deliverTo),

  ...under("cac:PaymentMeans", {
    "cbc:PaymentMeansCode": "BT-81",
    "cbc:PaymentMeansCode/@name": "BT-82",
    "cbc:PaymentID": "BT-83",
    "cbc:PaymentDueDate": "BT-9 (credit note)",
    "cac:CardAccount/cbc:PrimaryAccountNumberID": "BT-87",
    "cac:CardAccount/cbc:HolderName": "BT-88",
    "cac:PayeeFinancialAccount/cbc:ID": "BT-84",
    "cac:PayeeFinancialAccount/cbc:Name": "BT-85",
    "cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID": "BT-86",
    "cac:PaymentMandate/cbc:ID": "BT-89",
    "cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID": "BT-91",
  }),
  "cac:PaymentTerms/cbc:Note": "BT-20",
  ...allowanceCharge("cac:AllowanceCharge", "BG-20 or BG-21", ALLOWANCE_TERMS.documentAllowance, ALLOWANCE_TERMS.documentCharge),

  "cac:TaxTotal/cbc:TaxAmount": "BT-110 or BT-111",
  ...under("cac:TaxTotal/cac:TaxSubtotal", {
    "cbc:TaxableAmount": "BT-116",
    "cbc:TaxAmount": "BT-117",
    "cac:TaxCategory/cbc:ID": "BT-118",
    "cac:TaxCategory/cbc:Percent": "BT-119",
    "cac:TaxCategory/cbc:TaxExemptionReason": "BT-120",
    "cac:TaxCategory/cbc:TaxExemptionReasonCode": "BT-121",
  }),
  ...under("cac:LegalMonetaryTotal", {
    "cbc:LineExtensionAmount": "BT-106",
    "cbc:TaxExclusiveAmount": "BT-109",
    "cbc:TaxInclusiveAmount": "BT-112",
    "cbc:AllowanceTotalAmount": "BT-107",
    "cbc:ChargeTotalAmount": "BT-108",
    "cbc:PrepaidAmount": "BT-113",
    "cbc:PayableRoundingAmount": "BT-114",
    "cbc:PayableAmount": "BT-115",
  }),

  ...under(LINE, {
    "cbc:ID": "BT-126",
    "cbc:Note": "BT-127",
    [KINDS.invoice.quantity]: "BT-129",
    [`${KINDS.invoice.quantity}/@unitCode`]: "BT-130",
    "cbc:LineExtensionAmount": "BT-131",
    "cbc:AccountingCost": "BT-133",
    "cac:InvoicePeriod/cbc:StartDate": "BT-134",
    "cac:InvoicePeriod/cbc:EndDate": "BT-135",
    "cac:OrderLineReference/cbc:LineID": "BT-132",
    "cac:DocumentReference/cbc:ID": "BT-128",
    "cac:DocumentReference/cbc:ID/@schemeID": "BT-128-1",
    "cac:DocumentReference/cbc:DocumentTypeCode": "BT-128 (type code)",
    "cac:Item/cbc:Description": "BT-154",
    "cac:Item/cbc:Name": "BT-153",
    "cac:Item/cac:BuyersItemIdentification/cbc:ID": "BT-156",
    "cac:Item/cac:SellersItemIdentification/cbc:ID": "BT-155",
    "cac:Item/cac:StandardItemIdentification/cbc:ID": "BT-157",
    "cac:Item/cac:StandardItemIdentification/cbc:ID/@schemeID": "BT-157-1",
    "cac:Item/cac:OriginCountry/cbc:IdentificationCode": "BT-159",
    "cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode": "BT-158",
    "cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode/@listID": "BT-158-1",
    "cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode/@listVersionID": "BT-158-2",
    "cac:Item/cac:ClassifiedTaxCategory/cbc:ID": "BT-151",
    "cac:Item/cac:ClassifiedTaxCategory/cbc:Percent": "BT-152",
    "cac:Item/cac:AdditionalItemProperty/cbc:Name": "BT-160",
    "cac:Item/cac:AdditionalItemProperty/cbc:Value": "BT-161",
    "cac:Price/cbc:PriceAmount": "BT-146",
    "cac:Price/cbc:BaseQuantity": "BT-149",
    "cac:Price/cbc:BaseQuantity/@unitCode": "BT-150",
    "cac:Price/cac:AllowanceCharge/cbc:ChargeIndicator": "BT-147 (indicator)",
    "cac:Price/cac:AllowanceCharge/cbc:Amount": "BT-147",
    "cac:Price/cac:AllowanceCharge/cbc:BaseAmount": "BT-148",
  }),
  ...allowanceCharge(`${LINE}/cac:AllowanceCharge`, "BG-27 or BG-28", ALLOWANCE_TERMS.lineAllowance, ALLOWANCE_TERMS.lineCharge),
};

/** Places without a term that sources fill, named for what they hold: UBL has them, CII and the model do not. */
const NOT_TERMS: Record<string, string> = {
  "cbc:UBLVersionID": notATerm("the UBL version (only 2.1 is implied)"),
  [`${SELLER}/cac:Contact/cbc:Telefax`]: notATerm("the seller contact's fax number"),
  [`${BUYER}/cac:Contact/cbc:Telefax`]: notATerm("the buyer contact's fax number"),
  "cac:PaymentMeans/cbc:ID": notATerm("an id of the payment means, for payment terms to point to"),
  "cac:PaymentMeans/cbc:InstructionNote": notATerm("a payment instruction note"),
  "cac:PaymentTerms/cbc:PaymentMeansID": notATerm("the payment means of one payment terms instalment"),
  "cac:PaymentTerms/cbc:Amount": notATerm("the amount of one payment terms instalment"),
  "cac:PaymentTerms/cbc:PaymentDueDate": notATerm("the due date of one payment terms instalment"),
  ...under(`${LINE}/cac:TaxTotal/cac:TaxSubtotal`, {
    "cbc:TaxableAmount": notATerm("a line's own VAT breakdown (UBL-CR-561)"),
    "cbc:TaxAmount": notATerm("a line's own VAT breakdown (UBL-CR-561)"),
    "cac:TaxCategory/cbc:ID": notATerm("a line's own VAT breakdown (UBL-CR-561)"),
    "cac:TaxCategory/cbc:Percent": notATerm("a line's own VAT breakdown (UBL-CR-561)"),
  }),
};

/** Credit note names as their Invoice counterparts, and sub-lines (BG-DEX-01) as lines. */
const RENAMES: [RegExp, string][] = [
  [new RegExp(`(/${KINDS.invoice.subLine}|/${KINDS.creditNote.subLine})+`, "g"), ""],
  [new RegExp(KINDS.creditNote.line, "g"), KINDS.invoice.line],
  [new RegExp(KINDS.creditNote.quantity, "g"), KINDS.invoice.quantity],
  [new RegExp(KINDS.creditNote.typeCode, "g"), KINDS.invoice.typeCode],
];

/**
 * Attributes that only name the code list EN 16931 already fixes for their element's codes: UBL
 * lets a sender label a code with its list, and CEN/TS 16931-3-2 gives the label no term. The
 * model holds the code and the term fixes its list, so such a label says nothing more and the
 * writer, which leaves labels out, loses nothing. A label naming any other list is information and
 * stays a leftover. Keys are place suffixes (endingIn).
 */
const CODE_LIST_LABELS: Record<string, readonly string[]> = {
  // UNTDID 5153 (duty, tax or fee type), the list of the tax scheme id `VAT`.
  "cac:TaxScheme/cbc:ID/@schemeID": ["UN/ECE 5153"],
  // UNTDID 5305 (duty, tax or fee category), BT-95, BT-102, BT-118, BT-151.
  "cac:TaxCategory/cbc:ID/@schemeID": ["UNCL5305", "UN/ECE 5305"],
  "cac:ClassifiedTaxCategory/cbc:ID/@schemeID": ["UNCL5305", "UN/ECE 5305"],
  // VATEX (BT-121); SI-UBL 2.0 labels the same codes with the CEN workshop agreement they come from.
  "cbc:TaxExemptionReasonCode/@listID": ["VATEX", "CWA 15577"],
  // UNTDID 1001 (document name code), BT-3.
  [`${KINDS.invoice.typeCode}/@listID`]: ["UNCL1001"],
  // ISO 3166-1 alpha-2, every country code.
  "cac:Country/cbc:IdentificationCode/@listID": ["ISO3166-1:Alpha2"],
  // UN/ECE Recommendation 20 (with 21), every unit of measure (BT-130, BT-150).
  "@unitCodeListID": ["UNECERec20"],
};

export const UBL_PLACES: TermPlaces = {
  prefixes: { ...PREFIXES, [NS.invoice]: "", [NS.creditNote]: "" },
  terms: { ...TERMS, ...NOT_TERMS },
  keyOf: (shape) => RENAMES.reduce((key, [from, to]) => key.replace(from, to), shape.replace(/^\/[^/]+\//, "")),
  extensionOf: (shape) => (shape.includes("/ext:UBLExtensions/") ? "UBL extension" : undefined),
  implied: [
    AMOUNT_CURRENCY,
    { at: endingIn("cac:TaxCategory/cac:TaxScheme/cbc:ID", "cac:ClassifiedTaxCategory/cac:TaxScheme/cbc:ID"), values: () => ["VAT"] },
    // One cac:PaymentMeans per account, each repeating the code and the remittance information (payment.ts).
    { at: endingIn("cac:PaymentMeans/cbc:PaymentMeansCode"), values: (i) => [i.paymentInstructions?.meansTypeCode] },
    { at: endingIn("cac:PaymentMeans/cbc:PaymentID"), values: (i) => [i.paymentInstructions?.remittanceInformation] },
    // The syntax's version: CEN/TS 16931-3-2 binds EN 16931 to UBL 2.1 alone, so a document it reads is 2.1 said or not.
    { at: endingIn("cbc:UBLVersionID"), values: () => ["2.1"] },
    ...Object.entries(CODE_LIST_LABELS).map(([place, labels]) => ({ at: endingIn(place), values: () => labels })),
  ],
};
