// Everything language-dependent on the visible page, as data: labels, number and date style per
// language. The seller's country picks the language (the seller issues the document); countries
// without a row get English. A stored template may name the language instead.

import type { TemplateLanguage } from "./design.ts";

export interface NumberStyle {
  decimal: string;
  group: string;
}

export interface Labels {
  invoice: string;
  creditNote: string;
  seller: string;
  buyer: string;
  number: string;
  issueDate: string;
  dueDate: string;
  deliveryDate: string;
  deliverTo: string;
  period: string;
  buyerReference: string;
  orderReference: string;
  contractReference: string;
  projectReference: string;
  precedingInvoice: string;
  currency: string;
  vatId: string;
  taxId: string;
  registration: string;
  contact: string;
  position: string;
  description: string;
  quantity: string;
  unit: string;
  unitPrice: string;
  vatRate: string;
  amount: string;
  vatBreakdown: string;
  vatCategory: string;
  taxableAmount: string;
  vatAmount: string;
  lineNetTotal: string;
  allowances: string;
  charges: string;
  taxExclusiveTotal: string;
  vatTotal: string;
  taxInclusiveTotal: string;
  prepaid: string;
  rounding: string;
  payable: string;
  payment: string;
  paymentTerms: string;
  accountHolder: string;
  paymentReference: string;
  mandate: string;
  notes: string;
  page: string;
  of: string;
}

export interface Language {
  code: string;
  labels: Labels;
  numbers: NumberStyle;
  /** Date pattern with YYYY, MM, DD. */
  date: string;
}

const EN: Labels = {
  invoice: "Invoice",
  creditNote: "Credit note",
  seller: "Seller",
  buyer: "Bill to",
  number: "Invoice number",
  issueDate: "Issue date",
  dueDate: "Due date",
  deliveryDate: "Delivery date",
  deliverTo: "Deliver to",
  period: "Invoicing period",
  buyerReference: "Buyer reference",
  orderReference: "Order reference",
  contractReference: "Contract",
  projectReference: "Project",
  precedingInvoice: "Preceding invoice",
  currency: "Currency",
  vatId: "VAT ID",
  taxId: "Tax number",
  registration: "Registration",
  contact: "Contact",
  position: "Pos.",
  description: "Description",
  quantity: "Qty",
  unit: "Unit",
  unitPrice: "Unit price",
  vatRate: "VAT %",
  amount: "Amount",
  vatBreakdown: "VAT breakdown",
  vatCategory: "Category",
  taxableAmount: "Taxable amount",
  vatAmount: "VAT",
  lineNetTotal: "Sum of lines",
  allowances: "Allowances",
  charges: "Charges",
  taxExclusiveTotal: "Total without VAT",
  vatTotal: "Total VAT",
  taxInclusiveTotal: "Total with VAT",
  prepaid: "Paid amount",
  rounding: "Rounding",
  payable: "Amount due",
  payment: "Payment",
  paymentTerms: "Payment terms",
  accountHolder: "Account holder",
  paymentReference: "Reference",
  mandate: "Mandate",
  notes: "Notes",
  page: "Page",
  of: "of",
};

const DE: Labels = {
  invoice: "Rechnung",
  creditNote: "Gutschrift",
  seller: "Verkäufer",
  buyer: "Rechnungsempfänger",
  number: "Rechnungsnummer",
  issueDate: "Rechnungsdatum",
  dueDate: "Fällig am",
  deliveryDate: "Lieferdatum",
  deliverTo: "Lieferanschrift",
  period: "Leistungszeitraum",
  buyerReference: "Käuferreferenz",
  orderReference: "Bestellnummer",
  contractReference: "Vertrag",
  projectReference: "Projekt",
  precedingInvoice: "Bezug auf Rechnung",
  currency: "Währung",
  vatId: "USt-IdNr.",
  taxId: "Steuernummer",
  registration: "Handelsregister",
  contact: "Kontakt",
  position: "Pos.",
  description: "Bezeichnung",
  quantity: "Menge",
  unit: "Einheit",
  unitPrice: "Einzelpreis",
  vatRate: "USt. %",
  amount: "Betrag",
  vatBreakdown: "Umsatzsteuer",
  vatCategory: "Kategorie",
  taxableAmount: "Nettobetrag",
  vatAmount: "USt.",
  lineNetTotal: "Summe Positionen",
  allowances: "Nachlässe",
  charges: "Zuschläge",
  taxExclusiveTotal: "Gesamt netto",
  vatTotal: "Umsatzsteuer gesamt",
  taxInclusiveTotal: "Gesamt brutto",
  prepaid: "Bereits gezahlt",
  rounding: "Rundung",
  payable: "Zahlbetrag",
  payment: "Zahlung",
  paymentTerms: "Zahlungsbedingungen",
  accountHolder: "Kontoinhaber",
  paymentReference: "Verwendungszweck",
  mandate: "Mandat",
  notes: "Hinweise",
  page: "Seite",
  of: "von",
};

const FR: Labels = {
  invoice: "Facture",
  creditNote: "Avoir",
  seller: "Vendeur",
  buyer: "Facturé à",
  number: "Numéro de facture",
  issueDate: "Date de facture",
  dueDate: "Date d'échéance",
  deliveryDate: "Date de livraison",
  deliverTo: "Adresse de livraison",
  period: "Période de facturation",
  buyerReference: "Référence acheteur",
  orderReference: "Bon de commande",
  contractReference: "Contrat",
  projectReference: "Projet",
  precedingInvoice: "Facture d'origine",
  currency: "Devise",
  vatId: "N° TVA",
  taxId: "N° fiscal",
  registration: "SIREN",
  contact: "Contact",
  position: "N°",
  description: "Désignation",
  quantity: "Qté",
  unit: "Unité",
  unitPrice: "Prix unitaire",
  vatRate: "TVA %",
  amount: "Montant HT",
  vatBreakdown: "Détail de la TVA",
  vatCategory: "Catégorie",
  taxableAmount: "Base HT",
  vatAmount: "TVA",
  lineNetTotal: "Total des lignes",
  allowances: "Remises",
  charges: "Frais",
  taxExclusiveTotal: "Total HT",
  vatTotal: "Total TVA",
  taxInclusiveTotal: "Total TTC",
  prepaid: "Acompte versé",
  rounding: "Arrondi",
  payable: "Net à payer",
  payment: "Paiement",
  paymentTerms: "Conditions de paiement",
  accountHolder: "Titulaire",
  paymentReference: "Référence",
  mandate: "Mandat",
  notes: "Notes",
  page: "Page",
  of: "sur",
};

const IT: Labels = {
  invoice: "Fattura",
  creditNote: "Nota di credito",
  seller: "Cedente",
  buyer: "Cessionario",
  number: "Numero fattura",
  issueDate: "Data fattura",
  dueDate: "Scadenza",
  deliveryDate: "Data di consegna",
  deliverTo: "Luogo di consegna",
  period: "Periodo di fatturazione",
  buyerReference: "Riferimento acquirente",
  orderReference: "Ordine d'acquisto",
  contractReference: "Contratto",
  projectReference: "Progetto",
  precedingInvoice: "Fattura di riferimento",
  currency: "Valuta",
  vatId: "Partita IVA",
  taxId: "Codice fiscale",
  registration: "Registro imprese",
  contact: "Contatto",
  position: "N.",
  description: "Descrizione",
  quantity: "Quantità",
  unit: "Unità",
  unitPrice: "Prezzo unitario",
  vatRate: "IVA %",
  amount: "Importo",
  vatBreakdown: "Riepilogo IVA",
  vatCategory: "Natura",
  taxableAmount: "Imponibile",
  vatAmount: "Imposta",
  lineNetTotal: "Totale righe",
  allowances: "Sconti",
  charges: "Maggiorazioni",
  taxExclusiveTotal: "Totale imponibile",
  vatTotal: "Totale IVA",
  taxInclusiveTotal: "Totale documento",
  prepaid: "Già pagato",
  rounding: "Arrotondamento",
  payable: "Netto a pagare",
  payment: "Pagamento",
  paymentTerms: "Condizioni di pagamento",
  accountHolder: "Intestatario",
  paymentReference: "Causale",
  mandate: "Mandato",
  notes: "Note",
  page: "Pagina",
  of: "di",
};

const ES: Labels = {
  invoice: "Factura",
  creditNote: "Factura rectificativa",
  seller: "Emisor",
  buyer: "Cliente",
  number: "Número de factura",
  issueDate: "Fecha de factura",
  dueDate: "Vencimiento",
  deliveryDate: "Fecha de entrega",
  deliverTo: "Dirección de entrega",
  period: "Periodo de facturación",
  buyerReference: "Referencia del comprador",
  orderReference: "Pedido",
  contractReference: "Contrato",
  projectReference: "Proyecto",
  precedingInvoice: "Factura rectificada",
  currency: "Moneda",
  vatId: "NIF-IVA",
  taxId: "NIF",
  registration: "Registro mercantil",
  contact: "Contacto",
  position: "N.º",
  description: "Descripción",
  quantity: "Cantidad",
  unit: "Unidad",
  unitPrice: "Precio unitario",
  vatRate: "IVA %",
  amount: "Importe",
  vatBreakdown: "Desglose del IVA",
  vatCategory: "Categoría",
  taxableAmount: "Base imponible",
  vatAmount: "Cuota",
  lineNetTotal: "Suma de líneas",
  allowances: "Descuentos",
  charges: "Recargos",
  taxExclusiveTotal: "Total sin IVA",
  vatTotal: "Total IVA",
  taxInclusiveTotal: "Total con IVA",
  prepaid: "Importe pagado",
  rounding: "Redondeo",
  payable: "Total a pagar",
  payment: "Pago",
  paymentTerms: "Condiciones de pago",
  accountHolder: "Titular",
  paymentReference: "Concepto",
  mandate: "Mandato",
  notes: "Observaciones",
  page: "Página",
  of: "de",
};

const NL: Labels = {
  invoice: "Factuur",
  creditNote: "Creditnota",
  seller: "Leverancier",
  buyer: "Factuuradres",
  number: "Factuurnummer",
  issueDate: "Factuurdatum",
  dueDate: "Vervaldatum",
  deliveryDate: "Leverdatum",
  deliverTo: "Afleveradres",
  period: "Factuurperiode",
  buyerReference: "Referentie koper",
  orderReference: "Ordernummer",
  contractReference: "Contract",
  projectReference: "Project",
  precedingInvoice: "Oorspronkelijke factuur",
  currency: "Valuta",
  vatId: "Btw-nummer",
  taxId: "Fiscaal nummer",
  registration: "KvK-nummer",
  contact: "Contact",
  position: "Nr.",
  description: "Omschrijving",
  quantity: "Aantal",
  unit: "Eenheid",
  unitPrice: "Prijs per eenheid",
  vatRate: "Btw %",
  amount: "Bedrag",
  vatBreakdown: "Btw-specificatie",
  vatCategory: "Categorie",
  taxableAmount: "Grondslag",
  vatAmount: "Btw",
  lineNetTotal: "Totaal regels",
  allowances: "Kortingen",
  charges: "Toeslagen",
  taxExclusiveTotal: "Totaal excl. btw",
  vatTotal: "Totaal btw",
  taxInclusiveTotal: "Totaal incl. btw",
  prepaid: "Reeds betaald",
  rounding: "Afronding",
  payable: "Te betalen",
  payment: "Betaling",
  paymentTerms: "Betalingsvoorwaarden",
  accountHolder: "Rekeninghouder",
  paymentReference: "Betalingskenmerk",
  mandate: "Machtiging",
  notes: "Opmerkingen",
  page: "Pagina",
  of: "van",
};

const RO: Labels = {
  invoice: "Factură",
  creditNote: "Factură de stornare",
  seller: "Furnizor",
  buyer: "Cumpărător",
  number: "Număr factură",
  issueDate: "Data facturii",
  dueDate: "Data scadenței",
  deliveryDate: "Data livrării",
  deliverTo: "Adresa de livrare",
  period: "Perioada de facturare",
  buyerReference: "Referința cumpărătorului",
  orderReference: "Comandă",
  contractReference: "Contract",
  projectReference: "Proiect",
  precedingInvoice: "Factura inițială",
  currency: "Moneda",
  vatId: "Cod TVA",
  taxId: "Cod fiscal",
  registration: "Nr. Reg. Com.",
  contact: "Contact",
  position: "Nr.",
  description: "Denumire",
  quantity: "Cant.",
  unit: "U.M.",
  unitPrice: "Preț unitar",
  vatRate: "TVA %",
  amount: "Valoare",
  vatBreakdown: "Detalii TVA",
  vatCategory: "Categorie",
  taxableAmount: "Bază impozabilă",
  vatAmount: "TVA",
  lineNetTotal: "Total linii",
  allowances: "Reduceri",
  charges: "Taxe suplimentare",
  taxExclusiveTotal: "Total fără TVA",
  vatTotal: "Total TVA",
  taxInclusiveTotal: "Total cu TVA",
  prepaid: "Sumă plătită",
  rounding: "Rotunjire",
  payable: "Total de plată",
  payment: "Plată",
  paymentTerms: "Termeni de plată",
  accountHolder: "Titular cont",
  paymentReference: "Referință plată",
  mandate: "Mandat",
  notes: "Note",
  page: "Pagina",
  of: "din",
};

const SL: Labels = {
  invoice: "Račun",
  creditNote: "Dobropis",
  seller: "Prodajalec",
  buyer: "Kupec",
  number: "Številka računa",
  issueDate: "Datum izdaje",
  dueDate: "Rok plačila",
  deliveryDate: "Datum dobave",
  deliverTo: "Kraj dobave",
  period: "Obdobje obračuna",
  buyerReference: "Sklic kupca",
  orderReference: "Naročilo",
  contractReference: "Pogodba",
  projectReference: "Projekt",
  precedingInvoice: "Račun, na katerega se nanaša",
  currency: "Valuta",
  vatId: "ID za DDV",
  taxId: "Davčna številka",
  registration: "Matična številka",
  contact: "Kontakt",
  position: "Št.",
  description: "Opis",
  quantity: "Količina",
  unit: "Enota",
  unitPrice: "Cena na enoto",
  vatRate: "DDV %",
  amount: "Znesek",
  vatBreakdown: "Rekapitulacija DDV",
  vatCategory: "Kategorija",
  taxableAmount: "Osnova",
  vatAmount: "DDV",
  lineNetTotal: "Skupaj postavke",
  allowances: "Popusti",
  charges: "Stroški",
  taxExclusiveTotal: "Skupaj brez DDV",
  vatTotal: "Skupaj DDV",
  taxInclusiveTotal: "Skupaj z DDV",
  prepaid: "Že plačano",
  rounding: "Zaokrožitev",
  payable: "Za plačilo",
  payment: "Plačilo",
  paymentTerms: "Plačilni pogoji",
  accountHolder: "Imetnik računa",
  paymentReference: "Sklic",
  mandate: "Pooblastilo",
  notes: "Opombe",
  page: "Stran",
  of: "od",
};

const COMMA_DOT: NumberStyle = { decimal: ",", group: "." };

const LANGUAGES: Record<TemplateLanguage, Language> = {
  en: { code: "en", labels: EN, numbers: { decimal: ".", group: "," }, date: "YYYY-MM-DD" },
  de: { code: "de", labels: DE, numbers: COMMA_DOT, date: "DD.MM.YYYY" },
  fr: { code: "fr", labels: FR, numbers: { decimal: ",", group: " " }, date: "DD/MM/YYYY" },
  it: { code: "it", labels: IT, numbers: COMMA_DOT, date: "DD/MM/YYYY" },
  es: { code: "es", labels: ES, numbers: COMMA_DOT, date: "DD/MM/YYYY" },
  nl: { code: "nl", labels: NL, numbers: COMMA_DOT, date: "DD-MM-YYYY" },
  ro: { code: "ro", labels: RO, numbers: COMMA_DOT, date: "DD.MM.YYYY" },
  sl: { code: "sl", labels: SL, numbers: COMMA_DOT, date: "DD. MM. YYYY" },
};

/**
 * Seller country (ISO 3166-1 alpha-2) to language. Only one-language countries: for Belgium or
 * Switzerland the country alone cannot tell which language the buyer reads, so they get English.
 */
const COUNTRY_LANGUAGE: Record<string, TemplateLanguage> = {
  DE: "de",
  FR: "fr",
  IT: "it",
  ES: "es",
  NL: "nl",
  RO: "ro",
  SI: "sl",
};

/**
 * The page language: `override` (a template's choice, one of TEMPLATE_LANGUAGES) when given and not
 * "auto", otherwise the seller country's.
 */
export function languageFor(countryCode: string, override?: string): Language {
  if (override && override !== "auto" && Object.hasOwn(LANGUAGES, override)) return LANGUAGES[override as TemplateLanguage];
  return LANGUAGES[COUNTRY_LANGUAGE[countryCode.toUpperCase()] ?? "en"];
}
