// Items: one InvoiceLine per model line (BG-25), with its own TaxesOutputs.

import type { Invoice } from "../../model/index.ts";
import { always, leaf, type XmlNode } from "../xml-writer.ts";
import type { Figures } from "./amounts.ts";
import { UNIT_OF_MEASURE } from "./codes.ts";
import { limitedLeaf } from "./limits.ts";
import { taxesOutputs } from "./taxes.ts";

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
      );
    }),
  );
}
