// CII as a syntax binding (binding.ts says what one is): D16B, or a Factur-X level's D22B as the
// record's writing facts say, MINIMUM trimmed to what its rules accept.

import { anyNamespace as path, type SyntaxBinding } from "../binding.ts";
import { writtenTarget } from "./profiles.ts";
import { readCii, readCiiWithLeftovers } from "./read.ts";
import { trimForMinimum } from "./trim.ts";
import { writeCii } from "./write.ts";

export const CII: SyntaxBinding = {
  id: "cii",
  read: readCii,
  readWithLeftovers: readCiiWithLeftovers,
  write(model, writing) {
    const trimmed = writing.trim === "minimum" ? trimForMinimum(model) : { model, lost: [] };
    const written = writeCii(trimmed.model, writtenTarget(writing.cii));
    return { xml: written.xml, lost: [...trimmed.lost, ...written.lost] };
  },
  facts: {
    businessProcess: `/*/${path("ExchangedDocumentContext", "BusinessProcessSpecifiedDocumentContextParameter", "ID")}`,
    sellerCountry: `//${path("SellerTradeParty", "PostalTradeAddress", "CountryID")}`,
    amountDue: `//${path("SpecifiedTradeSettlementHeaderMonetarySummation", "DuePayableAmount")}`,
    dueDate: `//${path("SpecifiedTradePaymentTerms", "DueDateDateTime")}`,
    paymentTerms: `//${path("SpecifiedTradePaymentTerms", "Description")}`,
  },
  creditNoteCitesInvoice: false,
};
