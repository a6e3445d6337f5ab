import { Type, type Static, type TSchema } from "@sinclair/typebox";

/**
 * The API's JSON invoice, exactly as the interface specification's Resources tables: this one
 * definition validates generate requests, types the code and documents the OpenAPI schema.
 * Choices where the specification is silent are written into the descriptions.
 */
/** A calendar date: the `date` format (RFC 3339 full-date) also refuses 2024-02-30, which a pattern would let through to the XML. */
const date = (description: string) => Type.String({ format: "date", description: `${description}, YYYY-MM-DD` });
const text = (max: number, description: string, min = 0) => Type.String({ ...(min ? { minLength: min } : {}), maxLength: max, description });
const closed = <T extends Record<string, TSchema>>(properties: T, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });
/**
 * Numbers stay within I-JSON's exact range (RFC 7493: beyond 2^53 - 1 a JSON number is not read
 * the same everywhere), so what the caller sent is what the document says.
 */
const EXACT = { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
/** Amounts are JSON numbers; the service computes with them as exact decimals (never binary floats). */
const amount = (description: string) => Type.Number({ ...EXACT, description: `${description}; at most 2^53 - 1 in magnitude` });

export const Address = closed(
  {
    street: Type.Optional(text(500, "BT-35 / BT-50 address line 1")),
    additionalStreet: Type.Optional(text(500, "BT-36 / BT-51 address line 2")),
    city: text(200, "BT-37 / BT-52 city"),
    postalCode: text(20, "BT-38 / BT-53 post code"),
    countryCode: Type.String({ minLength: 2, maxLength: 2, description: "BT-40 / BT-55 ISO 3166-1 alpha-2 country code" }),
    state: Type.Optional(text(200, "state or region name")),
    region: Type.Optional(Type.String({ minLength: 2, maxLength: 3, description: "Italian province code (FatturaPA)" })),
    province: Type.Optional(Type.String({ minLength: 2, maxLength: 3, description: "province code" })),
    countrySubentity: Type.Optional(text(10, "BT-39 / BT-54 country subdivision; Romania: ISO 3166-2:RO code (Bucharest uses a sector code as city)")),
  },
  "postal address",
);

const PeppolAddress = closed(
  {
    schemeId: Type.String({ minLength: 4, maxLength: 4, description: "EAS scheme of the electronic address, e.g. 0088, 0192, 9930, 0106, 0190, 9947" }),
    id: text(200, "the electronic address within the scheme", 1),
  },
  "BT-34 / BT-49 electronic address (Peppol participant id)",
);

export const Party = closed(
  {
    name: text(200, "BT-27 / BT-44 name", 1),
    vatId: Type.Optional(Type.String({ maxLength: 20, pattern: "^[A-Z]{2}[A-Za-z0-9]{2,18}$", description: "BT-31 / BT-48 VAT identifier with country prefix" })),
    taxId: Type.Optional(text(30, "BT-32 tax registration identifier")),
    registrationId: Type.Optional(text(50, "BT-30 / BT-47 legal registration identifier")),
    email: Type.Optional(Type.String({ maxLength: 254, format: "email", description: "contact e-mail (BT-43 / BT-58); also an XRechnung electronic address" })),
    phone: Type.Optional(text(30, "BT-42 / BT-57 contact phone")),
    address: Address,
    contactName: Type.Optional(text(200, "BT-41 / BT-56 contact point")),
    peppol: Type.Optional(PeppolAddress),
  },
  "seller (BG-4) or buyer (BG-7)",
);

export interface InvoiceLineShape {
  description: string;
  quantity: number;
  unitCode: string;
  unitPrice: number;
  lineTotal: number;
  vatRate: number;
  vatCategoryCode: string;
  itemId?: string;
  buyerItemId?: string;
  subInvoiceNumber?: string;
  seller?: LineSellerInput;
  taxTotal?: number;
  taxTotalInAccountingCurrency?: number;
  subLines?: InvoiceLineShape[];
}

/**
 * French CTC multi-vendor invoices (BT-23 S8, B8, M8): each top-level line with sub-lines is one
 * vendor's sub-invoice, and the pinned BR-FR-MV rules want its vendor, number and VAT on the line.
 */
const LineSeller = closed(
  {
    name: text(200, "EXT-FR-FE-164 name of the line's seller", 1),
    registrationId: text(50, "EXT-FR-FE-167 legal registration identifier (SIREN) of the line's seller", 1),
    countryCode: Type.String({ minLength: 2, maxLength: 2, description: "EXT-FR-FE-177 ISO 3166-1 alpha-2 country code of the line's seller" }),
  },
  "the vendor of this line's sub-invoice (France CTC multi-vendor, BR-FR-MV-03, BR-FR-MV-06); sub-lines inherit it",
);
type LineSellerInput = Static<typeof LineSeller>;

const lineFields = {
  description: text(1000, "BT-153 item name", 1),
  quantity: Type.Number({ exclusiveMinimum: 0, maximum: EXACT.maximum, description: "BT-129 invoiced quantity; at most 2^53 - 1" }),
  unitCode: Type.String({ minLength: 1, maxLength: 10, description: "BT-130 UN/ECE Rec 20 unit code, e.g. C62, HUR" }),
  unitPrice: Type.Number({ minimum: 0, maximum: EXACT.maximum, description: "BT-146 item net price; at most 2^53 - 1" }),
  lineTotal: amount("BT-131 line net amount"),
  vatRate: Type.Number({ minimum: 0, maximum: 100, description: "BT-152 VAT rate in percent" }),
  vatCategoryCode: Type.String({ minLength: 1, maxLength: 10, description: "BT-151 VAT category code (UNCL 5305: S, Z, E, AE, K, G, O, L, M)" }),
  itemId: Type.Optional(text(50, "BT-155 seller's item identifier")),
  buyerItemId: Type.Optional(text(50, "BT-156 buyer's item identifier")),
  subInvoiceNumber: Type.Optional(
    text(200, "BT-128 invoice line object identifier with scheme AFL: the number of the sub-invoice this line belongs to (France CTC multi-vendor, BR-FR-MV-07); sub-lines inherit it", 1),
  ),
  seller: Type.Optional(LineSeller),
  taxTotal: Type.Optional(amount("EXT-FR-FE-181 VAT total of the line's sub-invoice in the invoice currency (France CTC multi-vendor, BR-FR-MV-03, BR-FR-MV-09)")),
  taxTotalInAccountingCurrency: Type.Optional(
    amount("EXT-FR-FE-182 VAT total of the line's sub-invoice in the VAT accounting currency, taxCurrencyCode (France CTC multi-vendor, BR-FR-MV-03); written only with taxCurrencyCode"),
  ),
};

/** Sub-lines recurse: each may carry up to 200 sub-lines of its own. */
export const InvoiceLine = Type.Recursive(
  (Self) => closed({ ...lineFields, subLines: Type.Optional(Type.Array(Self, { maxItems: 200, description: "sub-invoice lines (XRechnung extension); at most 200 per line" })) }),
  { $id: "InvoiceLine", title: "InvoiceLine" },
);

const TaxSummary = closed(
  {
    vatCategoryCode: Type.String({ minLength: 1, maxLength: 10, description: "BT-118 VAT category code" }),
    vatRate: Type.Number({ minimum: 0, maximum: 100, description: "BT-119 VAT rate in percent" }),
    taxableAmount: amount("BT-116 VAT category taxable amount"),
    taxAmount: amount("BT-117 VAT category tax amount"),
    exemptionReasonText: Type.Optional(text(1000, "BT-120 VAT exemption reason text (required by the rules for E, AE, K, G, O)")),
    exemptionReasonCode: Type.Optional(text(100, "BT-121 VAT exemption reason code (VATEX)")),
  },
  "one VAT breakdown entry (BG-23) per category and rate used on the lines",
);

export const PaymentMeans = closed(
  {
    typeCode: Type.String({ minLength: 1, maxLength: 10, description: "BT-81 UNCL 4461 code, e.g. 58 SEPA credit transfer, 30 credit transfer, 59 SEPA direct debit" }),
    // Named after SEPA, but BT-84 and BT-86 are any account and provider ids: a local credit transfer
    // (30) names a national account (a Swedish Plusgiro `47668033`, provider `SE:PLUSGIRO`).
    iban: Type.Optional(Type.String({ minLength: 1, maxLength: 34, pattern: "^[!-~]+$", description: "BT-84 payment account identifier: an IBAN for SEPA payments, a national account number for a local transfer; no spaces" })),
    bic: Type.Optional(Type.String({ minLength: 1, maxLength: 11, pattern: "^[!-~]+$", description: "BT-86 payment service provider identifier: a BIC, or a national provider id; no spaces" })),
    bankName: Type.Optional(text(200, "BT-85 payment account name")),
    paymentReference: Type.Optional(text(200, "BT-83 remittance information (payment reference)")),
  },
  "payment instructions (BG-16)",
);

export const Delivery = closed(
  {
    date: Type.Optional(date("BT-72 actual delivery date")),
    partyName: Type.Optional(text(200, "BT-70 deliver to party name")),
    address: Type.Optional(Address),
  },
  "delivery information (BG-13)",
);

export const PrecedingInvoiceReference = closed(
  { id: text(200, "BT-25 preceding invoice number", 1), issueDate: Type.Optional(date("BT-26 preceding invoice issue date")) },
  "preceding invoice reference (BG-3); recommended on every credit note",
);

export const Italy = closed(
  {
    codiceDestinatario: Type.Optional(
      Type.String({
        pattern: "^[A-Za-z0-9]{7}$",
        description:
          "SDI routing code of a private recipient (FPR12): exactly 7 letters or digits. A 6-character code addresses a public administration, which takes FPA12, a format generate does not write",
      }),
    ),
    regimeFiscale: Type.Optional(Type.String({ pattern: "^RF[0-9]{2}$", description: "seller fiscal regime code" })),
    progressivoInvio: Type.Optional(Type.String({ minLength: 1, maxLength: 10, pattern: "^[A-Za-z0-9]+$", description: "transmission progressive id" })),
    idTrasmittente: Type.Optional(closed({ country: Type.String({ minLength: 2, maxLength: 2 }), id: Type.String({ minLength: 1, maxLength: 28 }) })),
    tipoDocumento: Type.Optional(Type.String({ pattern: "^TD[0-9]{2}$", description: "document type code" })),
    condizioniPagamento: Type.Optional(Type.Union([Type.Literal("TP01"), Type.Literal("TP02")], { description: "payment terms code" })),
    modalitaPagamento: Type.Optional(Type.String({ pattern: "^MP[0-9]{2}$", description: "payment means code" })),
    esigibilitaIVA: Type.Optional(Type.Union([Type.Literal("I"), Type.Literal("D"), Type.Literal("S")], { description: "VAT chargeability" })),
    causale: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 50, description: "reason lines" })),
  },
  "FatturaPA fields, used when standard is fatturapa",
);

const SpainParty = closed({
  personTypeCode: Type.Optional(Type.Union([Type.Literal("F"), Type.Literal("J")], { description: "F person, J legal entity; derived from the tax id when absent" })),
  residenceTypeCode: Type.Optional(Type.Union([Type.Literal("R"), Type.Literal("U"), Type.Literal("E")], { description: "R resident in Spain, U in the EU, E elsewhere; derived from the country when absent" })),
});

export const Spain = closed(
  {
    modality: Type.Optional(Type.Union([Type.Literal("I"), Type.Literal("L")], { description: "I single (default); L list" })),
    invoiceIssuerType: Type.Optional(Type.Union([Type.Literal("EM"), Type.Literal("RE"), Type.Literal("TE")], { description: "default EM" })),
    invoiceDocumentType: Type.Optional(Type.Union([Type.Literal("FC"), Type.Literal("FA"), Type.Literal("AF")], { description: "default FC" })),
    invoiceClass: Type.Optional(Type.String({ pattern: "^O[ORC]$|^C[ORC]$", description: "default OO (original)" })),
    taxTypeCode: Type.Optional(Type.String({ pattern: "^[0-9]{2}$", description: "default 01 (IVA)" })),
    languageName: Type.Optional(Type.String({ pattern: "^[a-z]{2}$", description: "ISO 639-1, default es" })),
    batchIdentifier: Type.Optional(Type.String({ minLength: 1, maxLength: 70, description: "default <seller tax id>-<invoice number>" })),
    seller: Type.Optional(SpainParty),
    buyer: Type.Optional(SpainParty),
  },
  "Facturae fields, used when standard is facturae; all optional with defaults",
);

const empty = (description: string) => closed({}, description);

/** Named, so the OpenAPI document holds it once for generate's request and parse's answer alike. */
export const Invoice = Type.Object(
  {
    number: text(200, "BT-1 invoice number", 1),
    issueDate: date("BT-2 issue date"),
    dueDate: Type.Optional(date("BT-9 payment due date")),
    currencyCode: Type.String({ minLength: 3, maxLength: 3, description: "BT-5 ISO 4217 invoice currency" }),
    taxCurrencyCode: Type.Optional(
      Type.String({ minLength: 3, maxLength: 3, description: "BT-6 VAT accounting currency; must differ from currencyCode and come with taxTotalInAccountingCurrency" }),
    ),
    taxTotalInAccountingCurrency: Type.Optional(amount("BT-111 total VAT in the accounting currency (no conversion is done)")),
    documentType: Type.Optional(Type.Union([Type.Literal("invoice"), Type.Literal("creditnote")], { description: "BT-3: invoice (380, default) or creditnote (381)" })),
    precedingInvoiceReference: Type.Optional(PrecedingInvoiceReference),
    buyerReference: Type.Optional(text(200, "BT-10 buyer reference (Leitweg-ID for XRechnung B2G)")),
    orderReference: Type.Optional(text(200, "BT-13 purchase order reference")),
    note: Type.Optional(text(5000, "BT-22 invoice note")),
    seller: Party,
    buyer: Party,
    lines: Type.Array(InvoiceLine, { minItems: 1, description: "BG-25 invoice lines" }),
    taxSummary: Type.Optional(Type.Array(TaxSummary, { maxItems: 100, description: "BG-23 VAT breakdown; required in practice (BR-CO-18)" })),
    delivery: Type.Optional(Delivery),
    paymentMeans: Type.Optional(PaymentMeans),
    paymentTerms: Type.Optional(text(500, "BT-20 payment terms")),
    totalNetAmount: amount("BT-106 sum of line net amounts, also written as BT-109 total without VAT"),
    totalTaxAmount: amount("BT-110 total VAT"),
    totalGrossAmount: amount("BT-112 total with VAT, also written as BT-115 amount due"),
    franceCtc: Type.Optional(Type.Boolean({ description: "opt in to the French CTC overlay (Factur-X)" })),
    businessProcessId: Type.Optional(Type.Union([Type.Literal("S8"), Type.Literal("B8"), Type.Literal("M8")], { description: "BT-23; used only when franceCtc is true" })),
    italy: Type.Optional(Italy),
    spain: Type.Optional(Spain),
    slovenia: Type.Optional(empty("reserved")),
    romania: Type.Optional(empty("reserved: the Romanian overlay uses the generic fields")),
    netherlands: Type.Optional(empty("reserved: the Dutch overlay uses the generic fields")),
  },
  { additionalProperties: false, title: "Invoice" },
);

export type InvoiceInput = Static<typeof Invoice>;
