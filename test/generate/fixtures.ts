// Realistic invoices for the generation matrix. Each scenario is written once against a "locale"
// (the seller and buyer of one market), so the same business case runs through every standard
// with parties that market's rules accept.

import type { InvoiceInput } from "../../src/invoice/schema.ts";

type Party = InvoiceInput["seller"];
type Line = InvoiceInput["lines"][number];
type Tax = NonNullable<InvoiceInput["taxSummary"]>[number];

export interface Locale {
  seller: Party;
  buyer: Party;
  /** A buyer in another EU country (reverse charge, intra-community supply). */
  euBuyer: Party;
  /** A buyer outside the EU (export). */
  foreignBuyer: Party;
  currency: string;
  rates: [standard: number, reduced: number];
  iban: string;
}

const contact = (name: string, email: string, phone: string) => ({ contactName: name, email, phone });

export const LOCALES = {
  de: {
    seller: {
      name: "Lieferant GmbH",
      vatId: "DE123456789",
      taxId: "201/113/40209",
      registrationId: "HRB 12345",
      address: { street: "Lieferantenstraße 20", city: "München", postalCode: "80333", countryCode: "DE" },
      ...contact("Hans Muster", "rechnung@lieferant.example", "+49 89 123456"),
    },
    buyer: {
      name: "Kunde AG",
      vatId: "DE987654321",
      taxId: "30/123/45678",
      address: { street: "Kundenweg 5", additionalStreet: "Gebäude B", city: "Berlin", postalCode: "10115", countryCode: "DE" },
      ...contact("Erika Beispiel", "einkauf@kunde.example", "+49 30 654321"),
    },
    euBuyer: { name: "Wiener Handel GmbH", vatId: "ATU12345678", address: { street: "Ringstraße 1", city: "Wien", postalCode: "1010", countryCode: "AT" }, email: "ap@wiener.example" },
    foreignBuyer: { name: "Zurich Trading AG", address: { street: "Bahnhofstrasse 10", city: "Zürich", postalCode: "8001", countryCode: "CH" }, peppol: { schemeId: "0088", id: "7640000000001" } },
    currency: "EUR",
    rates: [19, 7],
    iban: "DE02120300000000202051",
  },
  fr: {
    seller: {
      name: "Fournisseur SAS",
      vatId: "FR32123456789",
      registrationId: "123456789",
      address: { street: "12 rue de la Paix", city: "Paris", postalCode: "75002", countryCode: "FR" },
      ...contact("Marie Dupont", "factures@fournisseur.example", "+33 1 23 45 67 89"),
    },
    buyer: {
      name: "Client SARL",
      vatId: "FR45987654321",
      registrationId: "987654321",
      address: { street: "5 avenue Foch", city: "Lyon", postalCode: "69006", countryCode: "FR" },
      ...contact("Paul Martin", "compta@client.example", "+33 4 72 00 00 00"),
    },
    euBuyer: { name: "Berliner Einkauf GmbH", vatId: "DE811234567", address: { street: "Unter den Linden 1", city: "Berlin", postalCode: "10117", countryCode: "DE" } },
    foreignBuyer: { name: "Geneva Imports SA", address: { street: "Rue du Rhône 1", city: "Genève", postalCode: "1204", countryCode: "CH" } },
    currency: "EUR",
    rates: [20, 5.5],
    iban: "FR7630006000011234567890189",
  },
  be: {
    seller: {
      name: "Leverancier BV",
      vatId: "BE0123456749",
      address: { street: "Kerkstraat 1", city: "Brussel", postalCode: "1000", countryCode: "BE" },
      ...contact("Jan Peeters", "facturen@leverancier.example", "+32 2 123 45 67"),
    },
    buyer: {
      name: "Afnemer NV",
      vatId: "BE0987654312",
      address: { street: "Meir 10", city: "Antwerpen", postalCode: "2000", countryCode: "BE" },
    },
    euBuyer: { name: "Handel GmbH", vatId: "DE123456788", address: { street: "Hauptstraße 2", city: "Köln", postalCode: "50667", countryCode: "DE" } },
    foreignBuyer: { name: "Oslo Import AS", address: { street: "Karl Johans gate 1", city: "Oslo", postalCode: "0154", countryCode: "NO" }, peppol: { schemeId: "0192", id: "987654325" } },
    currency: "EUR",
    rates: [21, 6],
    iban: "BE68539007547034",
  },
  nl: {
    seller: {
      name: "Leverancier Nederland BV",
      vatId: "NL123456789B01",
      address: { street: "Damrak 1", city: "Amsterdam", postalCode: "1012 LG", countryCode: "NL" },
      peppol: { schemeId: "0106", id: "12345678" },
      ...contact("Sanne de Vries", "facturen@leverancier.example", "+31 20 123 4567"),
    },
    buyer: {
      name: "Afnemer Nederland BV",
      vatId: "NL987654321B01",
      address: { street: "Coolsingel 40", city: "Rotterdam", postalCode: "3011 AD", countryCode: "NL" },
      peppol: { schemeId: "0190", id: "00000001003214345000" },
    },
    euBuyer: { name: "Afnemer België NV", vatId: "BE0987654312", address: { street: "Meir 10", city: "Antwerpen", postalCode: "2000", countryCode: "BE" } },
    foreignBuyer: { name: "London Imports Ltd", address: { street: "1 High Street", city: "London", postalCode: "EC1A 1AA", countryCode: "GB" }, peppol: { schemeId: "0088", id: "5012345678900" } },
    currency: "EUR",
    rates: [21, 9],
    iban: "NL91ABNA0417164300",
  },
  ro: {
    seller: {
      name: "Furnizor SRL",
      vatId: "RO1234567897",
      registrationId: "J40/1234/2020",
      address: { street: "Strada Lipscani 10", city: "SECTOR3", postalCode: "030031", countryCode: "RO", countrySubentity: "RO-B" },
      ...contact("Ion Popescu", "facturi@furnizor.example", "+40 21 123 4567"),
    },
    buyer: {
      name: "Client SA",
      vatId: "RO9876543218",
      address: { street: "Bulevardul Eroilor 5", city: "Cluj-Napoca", postalCode: "400129", countryCode: "RO", countrySubentity: "RO-CJ" },
    },
    euBuyer: { name: "Budapest Kft", vatId: "HU12345678", address: { street: "Andrássy út 1", city: "Budapest", postalCode: "1061", countryCode: "HU", countrySubentity: "HU-BU" } },
    foreignBuyer: { name: "Chisinau SRL", registrationId: "1003600000000", address: { street: "Stefan cel Mare 1", city: "Chisinau", postalCode: "2001", countryCode: "MD" }, peppol: { schemeId: "0088", id: "4840000000008" } },
    currency: "RON",
    rates: [19, 9],
    iban: "RO49AAAA1B31007593840000",
  },
} satisfies Record<string, Locale>;

export type LocaleName = keyof typeof LOCALES;

const line = (description: string, quantity: number, unitPrice: number, vatCategoryCode: string, vatRate: number, extra: Partial<Line> = {}): Line => ({
  description,
  quantity,
  unitCode: "C62",
  unitPrice,
  lineTotal: Math.round(quantity * unitPrice * 100) / 100,
  vatRate,
  vatCategoryCode,
  ...extra,
});

/** Cents arithmetic, so the fixtures' own totals are exact. */
const cents = (n: number) => Math.round(n * 100);
const fromCents = (c: number) => c / 100;

function totals(lines: Line[], taxes: Omit<Tax, "taxableAmount" | "taxAmount">[]): Pick<InvoiceInput, "taxSummary" | "totalNetAmount" | "totalTaxAmount" | "totalGrossAmount"> {
  const taxSummary = taxes.map((t) => {
    const base = lines.filter((l) => l.vatCategoryCode === t.vatCategoryCode && l.vatRate === t.vatRate).reduce((s, l) => s + cents(l.lineTotal), 0);
    return { ...t, taxableAmount: fromCents(base), taxAmount: fromCents(Math.round((base * t.vatRate) / 100)) };
  });
  const net = lines.reduce((s, l) => s + cents(l.lineTotal), 0);
  const tax = taxSummary.reduce((s, t) => s + cents(t.taxAmount), 0);
  return { taxSummary, totalNetAmount: fromCents(net), totalTaxAmount: fromCents(tax), totalGrossAmount: fromCents(net + tax) };
}

/** The parts every fixture invoice shares: parties, dates, references, payment. */
export function baseInvoice(locale: Locale, number: string): Omit<InvoiceInput, "lines" | "totalNetAmount" | "totalTaxAmount" | "totalGrossAmount"> {
  return {
    number,
    issueDate: "2025-03-14",
    dueDate: "2025-04-13",
    currencyCode: locale.currency,
    buyerReference: "04011000-12345-34",
    orderReference: "PO-2025-0042",
    note: "Thank you for your order.",
    seller: locale.seller,
    buyer: locale.buyer,
    paymentMeans: { typeCode: "58", iban: locale.iban, accountName: locale.seller.name, remittanceInformation: number },
    paymentTerms: "Payable within 30 days",
    delivery: { date: "2025-03-10" },
  };
}

export interface Scenario {
  name: string;
  build(locale: Locale): InvoiceInput;
}

export const SCENARIOS: Scenario[] = [
  {
    name: "domestic, one rate",
    build: (l) => {
      const lines = [line("Consulting services", 10, 120, "S", l.rates[0], { unitCode: "HUR", itemId: "CONS-01" }), line("Travel expenses", 1, 85.5, "S", l.rates[0])];
      return { ...baseInvoice(l, "INV-2025-001"), lines, ...totals(lines, [{ vatCategoryCode: "S", vatRate: l.rates[0] }]) };
    },
  },
  {
    name: "domestic, two rates",
    build: (l) => {
      const lines = [
        line("Office chairs", 4, 249.99, "S", l.rates[0], { itemId: "CH-200", buyerItemId: "B-77" }),
        line("Technical books", 3, 39.9, "S", l.rates[1]),
        line("Desk lamp", 2, 0.1 + 0.2, "S", l.rates[0]),
      ];
      return { ...baseInvoice(l, "INV-2025-002"), lines, ...totals(lines, [{ vatCategoryCode: "S", vatRate: l.rates[0] }, { vatCategoryCode: "S", vatRate: l.rates[1] }]) };
    },
  },
  {
    name: "cross-border reverse charge (AE)",
    build: (l) => {
      const lines = [line("Software development", 40, 95, "AE", 0, { unitCode: "HUR" })];
      return {
        ...baseInvoice(l, "INV-2025-003"),
        buyer: l.euBuyer,
        lines,
        ...totals(lines, [{ vatCategoryCode: "AE", vatRate: 0, exemptionReason: "Reverse charge", exemptionReasonCode: "VATEX-EU-AE" }]),
      };
    },
  },
  {
    name: "exempt (E) with reason",
    build: (l) => {
      const lines = [line("Medical training course", 1, 1500, "E", 0)];
      return { ...baseInvoice(l, "INV-2025-004"), lines, ...totals(lines, [{ vatCategoryCode: "E", vatRate: 0, exemptionReason: "Exempt training services under Article 132 of Directive 2006/112/EC" }]) };
    },
  },
  {
    name: "zero rated (Z) and standard",
    build: (l) => {
      const lines = [line("Printed newspapers", 100, 1.2, "Z", 0), line("Advertising", 1, 300, "S", l.rates[0])];
      return { ...baseInvoice(l, "INV-2025-005"), lines, ...totals(lines, [{ vatCategoryCode: "Z", vatRate: 0 }, { vatCategoryCode: "S", vatRate: l.rates[0] }]) };
    },
  },
  {
    name: "credit note with preceding invoice",
    build: (l) => {
      const lines = [line("Returned office chair", 1, 249.99, "S", l.rates[0])];
      const { dueDate: _, ...rest } = baseInvoice(l, "CN-2025-001");
      return {
        ...rest,
        documentType: "creditnote",
        precedingInvoiceReference: { id: "INV-2025-002", issueDate: "2025-03-14" },
        lines,
        ...totals(lines, [{ vatCategoryCode: "S", vatRate: l.rates[0] }]),
      };
    },
  },
  {
    name: "foreign currency with VAT accounting currency",
    build: (l) => {
      const lines = [line("Licence fee", 1, 2000, "S", l.rates[0])];
      const t = totals(lines, [{ vatCategoryCode: "S", vatRate: l.rates[0] }]);
      return { ...baseInvoice(l, "INV-2025-006"), currencyCode: "USD", taxCurrencyCode: l.currency, taxTotalInAccountingCurrency: Math.round(t.totalTaxAmount * 92) / 100, lines, ...t };
    },
  },
  {
    name: "sub-lines",
    build: (l) => {
      const parts = [line("Laptop", 1, 900, "S", l.rates[0]), line("Docking station", 1, 150, "S", l.rates[0])];
      const lines = [line("Workstation bundle", 1, 1050, "S", l.rates[0], { subLines: parts }), line("Setup service", 2, 60, "S", l.rates[0], { unitCode: "HUR" })];
      return { ...baseInvoice(l, "INV-2025-007"), lines, ...totals(lines, [{ vatCategoryCode: "S", vatRate: l.rates[0] }]) };
    },
  },
  {
    name: "intra-community supply (K)",
    build: (l) => {
      const lines = [line("Industrial pump", 2, 1800, "K", 0)];
      return {
        ...baseInvoice(l, "INV-2025-008"),
        buyer: l.euBuyer,
        delivery: { date: "2025-03-10", address: l.euBuyer.address },
        lines,
        ...totals(lines, [{ vatCategoryCode: "K", vatRate: 0, exemptionReason: "Intra-Community supply", exemptionReasonCode: "VATEX-EU-IC" }]),
      };
    },
  },
  {
    name: "export outside the EU (G)",
    build: (l) => {
      const lines = [line("Spare parts", 50, 12.4, "G", 0)];
      return {
        ...baseInvoice(l, "INV-2025-009"),
        buyer: l.foreignBuyer,
        lines,
        ...totals(lines, [{ vatCategoryCode: "G", vatRate: 0, exemptionReason: "Export outside the EU", exemptionReasonCode: "VATEX-EU-G" }]),
      };
    },
  },
];
