// G_SG26, one per invoice line (BG-25): S_LIN (BT-126), S_PIA item ids (BT-155, BT-156), S_IMD
// name (BT-153), S_QTY (BT-129/130), G_SG27 amounts (BT-131 and the line with VAT), G_SG29 net
// price (BT-146..150) and G_SG34 the line's VAT (BG-30) with its taxable and tax amounts.

import type { InvoiceLine } from "../../model/index.ts";
import { always, leaf, type XmlNode } from "../xml-writer.ts";
import { lineAmounts } from "./amounts.ts";
import { AMOUNT, FIXED, ITEM_ID } from "./qualifiers.ts";
import { moa, vat } from "./segments.ts";

const pia = (type: string, id: string | undefined) =>
  id ? always("S_PIA", leaf("D_4347", FIXED.itemIdentification), always("C_C212", leaf("D_7140", id), leaf("D_7143", type))) : undefined;

const sg27 = (qualifier: string, amount: string) => always("G_SG27", moa(qualifier, amount));

function price(line: InvoiceLine): XmlNode {
  const p = line.price;
  return always(
    "G_SG29",
    always("S_PRI", always("C_C509", leaf("D_5125", FIXED.netPrice), leaf("D_5118", p.netPrice), leaf("D_5284", p.baseQuantity), leaf("D_6411", p.baseQuantity && p.baseQuantityUnitCode))),
  );
}

/** Line numbers are positions (1..n): BT-126 of a generated invoice is its position, and D_1082 holds 6 digits. */
export function line(l: InvoiceLine, position: number): XmlNode {
  const amounts = lineAmounts(l);
  return always(
    "G_SG26",
    always("S_LIN", leaf("D_1082", String(position))),
    pia(ITEM_ID.seller, l.item.sellerId),
    pia(ITEM_ID.buyer, l.item.buyerId),
    always("S_IMD", leaf("D_7077", FIXED.itemName), always("C_C273", leaf("D_7008", l.item.name))),
    always("S_QTY", always("C_C186", leaf("D_6063", FIXED.invoicedQuantity), leaf("D_6060", l.quantity), leaf("D_6411", l.unitCode))),
    sg27(AMOUNT.lineNet, amounts.net),
    sg27(AMOUNT.lineGross, amounts.gross),
    price(l),
    always("G_SG34", vat(l.vat.categoryCode, l.vat.rate), moa(AMOUNT.taxable, amounts.net), moa(AMOUNT.tax, amounts.tax)),
  );
}
