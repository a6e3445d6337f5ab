// Request fields the Facturae writer has no place for: dropped and reported, as generate reports
// what its other targets cannot carry. `xpath` holds the request's JSON pointer, the only place
// such a field has.

import type { InvoiceInput } from "../../invoice/schema.ts";
import type { Invoice } from "../../model/index.ts";
import type { LostField } from "../binding.ts";
import { PAYMENT_MEANS, UNIT_OF_MEASURE } from "./codes.ts";

const DROPPED: readonly { bt: string; pointer: string; present: (i: InvoiceInput) => unknown }[] = [
  { bt: "BT-10", pointer: "/invoice/buyerReference", present: (i) => i.buyerReference },
  { bt: "BT-13", pointer: "/invoice/orderReference", present: (i) => i.orderReference },
  { bt: "BT-20", pointer: "/invoice/paymentTerms", present: (i) => i.paymentTerms },
  { bt: "BT-22", pointer: "/invoice/note", present: (i) => i.note },
  { bt: "BG-13", pointer: "/invoice/delivery", present: (i) => i.delivery },
  { bt: "BT-86", pointer: "/invoice/paymentMeans/bic", present: (i) => i.paymentMeans?.bic },
  { bt: "BT-85", pointer: "/invoice/paymentMeans/bankName", present: (i) => i.paymentMeans?.bankName },
  { bt: "BT-36", pointer: "/invoice/seller/address/additionalStreet", present: (i) => i.seller.address.additionalStreet },
  { bt: "BT-51", pointer: "/invoice/buyer/address/additionalStreet", present: (i) => i.buyer.address.additionalStreet },
  { bt: "BG-6", pointer: "/invoice/seller/contactName", present: (i) => i.seller.contactName ?? i.seller.email ?? i.seller.phone },
  { bt: "BG-9", pointer: "/invoice/buyer/contactName", present: (i) => i.buyer.contactName ?? i.buyer.email ?? i.buyer.phone },
];

export function lostFields(invoice: InvoiceInput, model: Invoice): LostField[] {
  const dropped = DROPPED.filter((d) => d.present(invoice) !== undefined).map((d) => ({ bt: d.bt, xpath: d.pointer }));
  const units = model.lines.flatMap((l, i) => (UNIT_OF_MEASURE[l.unitCode] ? [] : [{ bt: "BT-130", xpath: `/invoice/lines/${i}/unitCode` }]));
  const means = model.paymentInstructions && !PAYMENT_MEANS[model.paymentInstructions.meansTypeCode] ? [{ bt: "BG-16", xpath: "/invoice/paymentMeans" }] : [];
  return [...dropped, ...units, ...means];
}
