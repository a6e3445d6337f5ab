// The EN 16931 model to CII text for one target (D16B, or a Factur-X D22B profile). Concept files
// contribute elements to the header containers; fit.ts then orders them by the target's schema and
// drops what the target cannot carry, which is returned as `lost` for generate to report.
// The guideline id (BT-24) is written as the model holds it: choosing it is the caller's business.

import type { Invoice } from "../../model/index.ts";
import type { Written } from "../binding.ts";
import { always, serialize, withAttributes } from "../xml-writer.ts";
import { writeDocumentAllowanceCharges } from "./allowances.ts";
import type { Contribution, Part, Slot } from "./context.ts";
import { writeDelivery, writeInvoicingPeriod } from "./delivery.ts";
import { writeDocument } from "./document.ts";
import { fit } from "./fit.ts";
import { writeLines } from "./lines.ts";
import { writeBuyer, writePayee, writeSeller, writeTaxRepresentative } from "./party.ts";
import { writePayment } from "./payment.ts";
import { targetFacts, type CiiTarget } from "./profiles.ts";
import { writeReferences } from "./references.ts";
import { writeTax } from "./tax.ts";
import { writeTotals } from "./totals.ts";
import { NAMESPACES } from "./vocabulary.ts";

export type { CiiTarget } from "./profiles.ts";

export function writeCii(invoice: Invoice, target: CiiTarget): Written {
  const facts = targetFacts(target);
  const contributions: Contribution[] = [
    writeDocument(invoice),
    writeLines(invoice.lines, { invoice: invoice.currencyCode, tax: invoice.taxCurrencyCode }),
    writeSeller(invoice.seller),
    writeBuyer(invoice.buyer),
    writeTaxRepresentative(invoice.taxRepresentative),
    writeReferences(invoice),
    writeDelivery(invoice.delivery),
    writePayee(invoice.payee),
    writePayment(invoice),
    writeTax(invoice),
    writeInvoicingPeriod(invoice.invoicingPeriod),
    writeDocumentAllowanceCharges(invoice.allowances, invoice.charges, facts),
    writeTotals(invoice.totals, invoice.currencyCode, invoice.taxCurrencyCode),
  ];
  const slot = (name: Slot): Part[] => contributions.flatMap((c) => c[name] ?? []);
  const tree = always(
    "rsm:CrossIndustryInvoice",
    always("rsm:ExchangedDocumentContext", slot("context")),
    always("rsm:ExchangedDocument", slot("document")),
    always(
      "rsm:SupplyChainTradeTransaction",
      slot("lines"),
      always("ram:ApplicableHeaderTradeAgreement", slot("agreement")),
      always("ram:ApplicableHeaderTradeDelivery", slot("delivery")),
      always("ram:ApplicableHeaderTradeSettlement", slot("settlement")),
    ),
  );
  const { root, lost } = fit(tree, facts.schema);
  const declarations = Object.fromEntries(Object.entries(NAMESPACES).map(([prefix, uri]) => [`xmlns:${prefix}`, uri]));
  return { xml: serialize(withAttributes(root, declarations)), lost };
}
