import { ParseOption, XmlDocument } from "libxml2-wasm";

/**
 * The few business terms the pipeline itself needs (France CTC context, the BR-CO-25 advisory),
 * read with namespace-agnostic XPath so UBL Invoice, UBL CreditNote and CII share one table.
 */
export interface DocumentFacts {
  /** BT-23 business process type. */
  businessProcess?: string;
  /** BT-40 seller country. */
  sellerCountry?: string;
  /** BT-115 amount due for payment, as written. */
  amountDue?: string;
  /** BT-9 payment due date. */
  dueDate?: string;
  /** BT-20 payment terms. */
  paymentTerms?: string;
}

const ln = (name: string) => `*[local-name()='${name}']`;
const path = (...names: string[]) => names.map(ln).join("/");

const UBL: Record<keyof DocumentFacts, string> = {
  businessProcess: `/*/${ln("ProfileID")}`,
  sellerCountry: `/*/${path("AccountingSupplierParty", "Party", "PostalAddress", "Country", "IdentificationCode")}`,
  amountDue: `/*/${path("LegalMonetaryTotal", "PayableAmount")}`,
  dueDate: `(/*/${ln("DueDate")} | /*/${path("PaymentMeans", "PaymentDueDate")})[1]`,
  paymentTerms: `/*/${path("PaymentTerms", "Note")}`,
};

const CII: Record<keyof DocumentFacts, string> = {
  businessProcess: `/*/${path("ExchangedDocumentContext", "BusinessProcessSpecifiedDocumentContextParameter", "ID")}`,
  sellerCountry: `//${path("SellerTradeParty", "PostalTradeAddress", "CountryID")}`,
  amountDue: `//${path("SpecifiedTradeSettlementHeaderMonetarySummation", "DuePayableAmount")}`,
  dueDate: `//${path("SpecifiedTradePaymentTerms", "DueDateDateTime")}`,
  paymentTerms: `//${path("SpecifiedTradePaymentTerms", "Description")}`,
};

export function readFacts(xml: Uint8Array, format: "ubl" | "cii"): DocumentFacts {
  // Same hardening as the XSD layer: no network, no entity expansion; DOCTYPEs never get here.
  const doc = XmlDocument.fromBuffer(xml, { option: ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE });
  try {
    const facts: DocumentFacts = {};
    for (const [name, xpath] of Object.entries(format === "ubl" ? UBL : CII) as [keyof DocumentFacts, string][]) {
      const value = String(doc.eval(`normalize-space(string((${xpath})[1]))`));
      if (value) facts[name] = value;
    }
    return facts;
  } finally {
    doc.dispose();
  }
}
