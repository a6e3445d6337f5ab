// Items: one InvoiceLine per model line (BG-25), with its own TaxesOutputs.

import type { Invoice } from "../../model/index.ts";
import { always, group, leaf, type XmlNode } from "../xml-writer.ts";
import type { Figures } from "./amounts.ts";
import { SPECIAL_TAXABLE_EVENT, UNIT_OF_MEASURE } from "./codes.ts";
import { limitedLeaf } from "./limits.ts";
import { taxesOutputs } from "./taxes.ts";

/** Why a line carries no VAT, in the words of its category's VAT breakdown (BT-120, else BT-121). */
function specialTaxableEvent(model: Invoice, category: string): XmlNode | undefined {
  const code = SPECIAL_TAXABLE_EVENT[category];
  const breakdown = model.vatBreakdown.find((b) => b.categoryCode === category);
  const reason = breakdown?.exemptionReason ?? breakdown?.exemptionReasonCode;
  if (code === undefined || reason === undefined) return undefined;
  return group("SpecialTaxableEvent", leaf("SpecialTaxableEventCode", code), leaf("SpecialTaxableEventReason", reason));
}

export function items(model: Invoice, figures: Figures, taxTypeCode: string): XmlNode {
  return always(
    "Items",
    model.lines.map((line, i) => {
      const f = figures.lines[i]!;
      return always(
        "InvoiceLine",
        limitedLeaf("ItemDescription", line.item.name, `/invoice/lines/${i}/description`),
        leaf("Quantity", f.quantity),
        leaf("UnitOfMeasure", UNIT_OF_MEASURE[line.unitCode]),
        leaf("UnitPriceWithoutTax", f.unitPrice),
        leaf("TotalCost", f.cost),
        leaf("GrossAmount", f.cost),
        taxesOutputs(taxTypeCode, [{ rate: f.rate, base: f.cost, tax: f.tax }]),
        specialTaxableEvent(model, line.vat.categoryCode),
      );
    }),
  );
}
