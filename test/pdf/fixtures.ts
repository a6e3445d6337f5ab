// Invoices that stress the visible pages: one line, forty, three hundred with sub-lines, texts
// long enough to wrap and to break inside words, and names outside ASCII. Built on the generation
// fixtures' parties so the XML generates for every Factur-X level.

import type { InvoiceInput } from "../../src/invoice/schema.ts";
import { baseInvoice, LOCALES, type Locale } from "../../fixtures/invoices.ts";

type Line = InvoiceInput["lines"][number];

const cents = (n: number) => Math.round(n * 100);

function line(description: string, quantity: number, unitPrice: number, rate: number, extra: Partial<Line> = {}): Line {
  return { description, quantity, unitCode: "C62", unitPrice, lineTotal: cents(quantity * unitPrice) / 100, vatRate: rate, vatCategoryCode: "S", ...extra };
}

function invoice(locale: Locale, number: string, lines: Line[], extra: Partial<InvoiceInput> = {}): InvoiceInput {
  const rate = locale.rates[0];
  const net = lines.reduce((s, l) => s + cents(l.lineTotal), 0);
  const tax = Math.round((net * rate) / 100);
  const base = baseInvoice(locale, number);
  return {
    ...base,
    paymentMeans: { ...base.paymentMeans!, bic: "COBADEFFXXX" },
    lines,
    taxSummary: [{ vatCategoryCode: "S", vatRate: rate, taxableAmount: net / 100, taxAmount: tax / 100 }],
    totalNetAmount: net / 100,
    totalTaxAmount: tax / 100,
    totalGrossAmount: (net + tax) / 100,
    ...extra,
  };
}

function numbered(locale: Locale, count: number, withSubLines: boolean): Line[] {
  const rate = locale.rates[0];
  return Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    if (withSubLines && n % 10 === 0) {
      const parts = [line(`Component A of assembly ${n}`, 1, 40, rate), line(`Component B of assembly ${n}`, 2, 15.5, rate)];
      return line(`Assembly ${n}`, 1, 71, rate, { subLines: parts });
    }
    return line(`Article ${n}: replacement part, standard grade`, (n % 7) + 1, 3.25 + n, rate, { itemId: `ART-${String(n).padStart(4, "0")}` });
  });
}

const LONG_WORD = "Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichenherstellungsbetrieb";
const LONG = `Installation, configuration and acceptance testing of the warehouse management system at the buyer's site, including data migration from the legacy system, training of twelve operators over three days, documentation in two languages and a ${LONG_WORD} clause. `;

export interface PdfCase {
  name: string;
  invoice: InvoiceInput;
}

const de = LOCALES.de;

export const PDF_CASES: PdfCase[] = [
  { name: "1 line", invoice: invoice(de, "PDF-0001", [line("Consulting services", 10, 120, de.rates[0], { unitCode: "HUR" })]) },
  { name: "40 lines", invoice: invoice(LOCALES.fr, "PDF-0040", numbered(LOCALES.fr, 40, false)) },
  { name: "300 lines with sub-lines", invoice: invoice(de, "PDF-0300", numbered(de, 300, true)) },
  {
    name: "long texts",
    invoice: invoice(LOCALES.nl, "PDF-LONG", [line(LONG.repeat(4).slice(0, 1000), 1, 4800, LOCALES.nl.rates[0]), line(LONG_WORD.repeat(3), 2, 10, LOCALES.nl.rates[0])], {
      note: `${LONG.repeat(6)}\nSecond paragraph: ${LONG_WORD}${LONG_WORD}`,
      paymentTerms: LONG.slice(0, 480),
    }),
  },
  {
    name: "non-Latin characters",
    invoice: invoice(
      { ...LOCALES.ro, seller: { ...LOCALES.ro.seller, name: "Fabrica de Ciocolată Ștefan & Čapek SRL" }, buyer: { ...LOCALES.ro.buyer, name: "Łódź Großhandel – Őrség Kft." } },
      "PDF-ȘČ-01",
      [line("Ciocolată amăruie, ţară: România – Čokoláda, Straße, café, Łódź, Győr", 3, 12.5, LOCALES.ro.rates[0]), line("Ελληνικό μέλι / Русский чай", 1, 20, LOCALES.ro.rates[0])],
      { note: "Mulțumim! Dziękujemy! Köszönjük! Děkujeme! Danke schön!" },
    ),
  },
];
