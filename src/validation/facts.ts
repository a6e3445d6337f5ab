import type { XDocument } from "../native/xpath/document";
import { compileXPath } from "../native/xpath/compile";
import { Scope, type Evaluate } from "../native/xpath/context";
import { CompileSession } from "../native/xpath/session";
import { itemString } from "../native/xpath/values";

/**
 * The few business terms the pipeline itself needs (France CTC context, the BR-CO-25 advisory),
 * read with namespace-agnostic XPath so UBL Invoice, UBL CreditNote and CII share one table. They
 * are read from the tree the native rule engine judges, so the document is parsed once.
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

type Readers = [keyof DocumentFacts, Evaluate][];
const readers: Partial<Record<"ubl" | "cii", Readers>> = {};

function readersOf(format: "ubl" | "cii"): Readers {
  return (readers[format] ??= (Object.entries(format === "ubl" ? UBL : CII) as [keyof DocumentFacts, string][]).map(([name, xpath]) => [
    name,
    compileXPath(`normalize-space(string((${xpath})[1]))`, new Scope(new CompileSession(), new Map(), new Map())),
  ]));
}

export function readFacts(document: XDocument, format: "ubl" | "cii"): DocumentFacts {
  const facts: DocumentFacts = {};
  // A fresh frame per document: the evaluator caches context-free values per run frame.
  const runtime = { document, globals: [], locals: [] };
  for (const [name, read] of readersOf(format)) {
    const value = read({ item: document.node, position: 1, size: 1 }, runtime).map(itemString).join("");
    if (value) facts[name] = value;
  }
  return facts;
}
