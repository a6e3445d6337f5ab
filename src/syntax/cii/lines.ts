// Invoice lines (BG-25) with price (BG-29), line VAT (BG-30), item (BG-31, BG-32), line period
// (BG-26) and line allowances and charges. Sub-lines are written the XRechnung / Factur-X EXTENDED
// way: flat lines after their parent, pointing to it with `ram:ParentLineID`, the parent marked
// `GROUP` and the parts `DETAIL` in `ram:LineStatusReasonCode`. A French multi-vendor line also
// carries its own seller, VAT totals and VAT exemption reason (EXT-FR-FE-164..182).

import { isDecimal, sameDecimal, sum } from "../../model/decimal.ts";
import type { InvoiceLine, Item } from "../../model/index.ts";
import { isTrue, priceDiscount, VAT_SCHEME, type Currencies } from "../values.ts";
import { attrOf, textOf } from "../xml-reader.ts";
import { always, group, type XmlNode } from "../xml-writer.ts";
import { ALLOWANCE_TERMS } from "../terms.ts";
import { readAllowanceCharges, readLineAllowanceCharge, writeAllowanceCharge } from "./allowances.ts";
import type { Contribution, Header } from "./context.ts";
import { readPeriod, writePeriod } from "./delivery.ts";
import { identifierOf, readLineSeller, writeLineSeller } from "./party.ts";
import { readInvoicedObject, writeInvoicedObject } from "./references.ts";
import { term, writeIndicator } from "./values.ts";
import { cii, type Element } from "./vocabulary.ts";

const STATUS = { group: "GROUP", detail: "DETAIL" } as const;

function readItem(p: Element | undefined): Item {
  const standard = cii.one(p, "ram:GlobalID");
  return {
    name: cii.text(p, "ram:Name") ?? "",
    description: cii.text(p, "ram:Description"),
    sellerId: cii.text(p, "ram:SellerAssignedID"),
    buyerId: cii.text(p, "ram:BuyerAssignedID"),
    standardId: standard && identifierOf(standard),
    classifications: cii.all(p, "ram:DesignatedProductClassification/ram:ClassCode").map((c) => ({
      code: textOf(c) ?? "",
      listId: attrOf(c, "listID") ?? "",
      listVersionId: attrOf(c, "listVersionID"),
    })),
    originCountry: cii.text(p, "ram:OriginTradeCountry/ram:ID"),
    attributes: cii.all(p, "ram:ApplicableProductCharacteristic").map((c) => ({ name: cii.text(c, "ram:Description") ?? "", value: cii.text(c, "ram:Value") ?? "" })),
  };
}

function writeItem(i: Item): XmlNode {
  return always(
    "ram:SpecifiedTradeProduct",
    term("ram:GlobalID", i.standardId?.value, "BT-157", { schemeID: i.standardId?.scheme }),
    term("ram:SellerAssignedID", i.sellerId, "BT-155"),
    term("ram:BuyerAssignedID", i.buyerId, "BT-156"),
    term("ram:Name", i.name, "BT-153"),
    term("ram:Description", i.description, "BT-154"),
    i.attributes.map((a) => group("ram:ApplicableProductCharacteristic", term("ram:Description", a.name, "BT-160"), term("ram:Value", a.value, "BT-161"))),
    i.classifications.map((c) =>
      group("ram:DesignatedProductClassification", term("ram:ClassCode", c.code, "BT-158", { listID: c.listId, listVersionID: c.listVersionId })),
    ),
    group("ram:OriginTradeCountry", term("ram:ID", i.originCountry, "BT-159")),
  );
}

/**
 * BT-147 from the gross price's allowances: EN 16931 has one discount, Factur-X EXTENDED allows
 * several (gross minus all of them is the net price), so several are summed.
 */
function summedDiscount(amounts: (string | undefined)[]): string | undefined {
  if (amounts.length <= 1) return amounts[0];
  return amounts.every((a) => a !== undefined && isDecimal(a)) ? sum(amounts as string[]) : amounts.find((a) => a !== undefined);
}

function readLine(e: Element, h: Header): InvoiceLine {
  const doc = cii.one(e, "ram:AssociatedDocumentLineDocument");
  const agreement = cii.one(e, "ram:SpecifiedLineTradeAgreement");
  const settlement = cii.one(e, "ram:SpecifiedLineTradeSettlement");
  const quantity = cii.one(e, "ram:SpecifiedLineTradeDelivery/ram:BilledQuantity");
  const summation = cii.one(settlement, "ram:SpecifiedTradeSettlementLineMonetarySummation");
  const totals = cii.all(summation, "ram:TaxTotalAmount");
  const totalIn = (currency: string | undefined) => (currency === undefined ? undefined : textOf(totals.find((t) => cii.matches(t, "@currencyID", (c) => c === currency))));
  const net = cii.one(agreement, "ram:NetPriceProductTradePrice");
  const gross = cii.one(agreement, "ram:GrossPriceProductTradePrice");
  const basis = cii.one(net, "ram:BasisQuantity") ?? cii.one(gross, "ram:BasisQuantity");
  const baseQuantity = textOf(basis);
  const baseQuantityUnitCode = attrOf(basis, "unitCode");
  // EN 16931 has one base quantity (BT-149, BT-150) for both prices, and the writer repeats it on the
  // gross price: a gross price's that says the same is that copy. One that differs is carried by
  // nothing and stays a leftover.
  const sameQuantity = (q: string | undefined) => q !== undefined && baseQuantity !== undefined && sameDecimal(q, baseQuantity);
  if (basis !== cii.one(gross, "ram:BasisQuantity")) {
    cii.matches(gross, "ram:BasisQuantity/@unitCode", (unit) => unit === baseQuantityUnitCode && cii.matches(gross, "ram:BasisQuantity", sameQuantity));
  }
  const discounts = cii
    .all(gross, "ram:AppliedTradeAllowanceCharge")
    .filter((a) => cii.matches(a, "ram:ChargeIndicator/udt:Indicator", (v) => !isTrue(v)))
    .map((a) => cii.text(a, "ram:ActualAmount"));
  const notes = cii.all(doc, "ram:IncludedNote").map((n) => cii.text(n, "ram:Content")).filter((n) => n !== undefined);
  const { allowances, charges } = readAllowanceCharges(settlement);
  return {
    id: cii.text(doc, "ram:LineID") ?? "",
    // D16B allows several line notes; EN 16931 has one, so they are kept as one text.
    note: notes.length > 0 ? notes.join("\n") : undefined,
    objectId: readInvoicedObject(settlement),
    quantity: textOf(quantity) ?? "",
    unitCode: attrOf(quantity, "unitCode") ?? "",
    netAmount: cii.text(summation, "ram:LineTotalAmount") ?? "",
    orderLineReference: cii.text(agreement, "ram:BuyerOrderReferencedDocument/ram:LineID"),
    buyerAccountingReference: cii.text(settlement, "ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID"),
    period: readPeriod(settlement),
    allowances: allowances.map(readLineAllowanceCharge),
    charges: charges.map(readLineAllowanceCharge),
    price: {
      netPrice: cii.text(net, "ram:ChargeAmount") ?? "",
      discount: priceDiscount(summedDiscount(discounts)),
      grossPrice: cii.text(gross, "ram:ChargeAmount"),
      baseQuantity,
      baseQuantityUnitCode,
    },
    vat: {
      categoryCode: cii.text(settlement, "ram:ApplicableTradeTax/ram:CategoryCode") ?? "",
      rate: cii.text(settlement, "ram:ApplicableTradeTax/ram:RateApplicablePercent"),
      exemptionReason: cii.text(settlement, "ram:ApplicableTradeTax/ram:ExemptionReason"),
    },
    item: readItem(cii.one(e, "ram:SpecifiedTradeProduct")),
    seller: readLineSeller(agreement),
    vatTotal: totalIn(cii.text(h.settlement, "ram:InvoiceCurrencyCode")),
    vatTotalInAccountingCurrency: totalIn(cii.text(h.settlement, "ram:TaxCurrencyCode")),
  };
}

const PARENT_LINE = "ram:AssociatedDocumentLineDocument/ram:ParentLineID";

/** Reads the flat CII lines and hangs each line with a known `ram:ParentLineID` under its parent. */
export function readLines(h: Header): InvoiceLine[] {
  const elements = cii.all(h.transaction, "ram:IncludedSupplyChainTradeLineItem");
  const lines = elements.map((e) => readLine(e, h));
  const byId = new Map(lines.map((l) => [l.id, l]));
  const top: InvoiceLine[] = [];
  elements.forEach((e, i) => {
    const line = lines[i]!;
    // A parent id naming no other line of the document places nothing: it stays a leftover.
    const names = (id: string | undefined) => id !== undefined && id !== line.id && byId.has(id);
    const parent = cii.matches(e, PARENT_LINE, names) ? byId.get(cii.text(e, PARENT_LINE)!) : undefined;
    if (parent) (parent.subLines ??= []).push(line);
    else top.push(line);
  });
  return top;
}

function writeLine(l: InvoiceLine, parentId: string | undefined, currencies: Currencies): XmlNode {
  const p = l.price;
  const isGroup = (l.subLines?.length ?? 0) > 0;
  return always(
    "ram:IncludedSupplyChainTradeLineItem",
    always(
      "ram:AssociatedDocumentLineDocument",
      term("ram:LineID", l.id, "BT-126"),
      term("ram:ParentLineID", parentId, "BG-DEX-01"),
      term("ram:LineStatusReasonCode", parentId !== undefined ? STATUS.detail : isGroup ? STATUS.group : undefined, "BG-DEX-01"),
      group("ram:IncludedNote", term("ram:Content", l.note, "BT-127")),
    ),
    writeItem(l.item),
    always(
      "ram:SpecifiedLineTradeAgreement",
      group("ram:BuyerOrderReferencedDocument", term("ram:LineID", l.orderLineReference, "BT-132")),
      group(
        "ram:GrossPriceProductTradePrice",
        term("ram:ChargeAmount", p.grossPrice, "BT-148"),
        p.grossPrice !== undefined && term("ram:BasisQuantity", p.baseQuantity, "BT-149", { unitCode: p.baseQuantityUnitCode }),
        p.discount !== undefined &&
          group("ram:AppliedTradeAllowanceCharge", writeIndicator("ram:ChargeIndicator", false), term("ram:ActualAmount", p.discount, "BT-147")),
      ),
      always(
        "ram:NetPriceProductTradePrice",
        term("ram:ChargeAmount", p.netPrice, "BT-146"),
        term("ram:BasisQuantity", p.baseQuantity, "BT-149", { unitCode: p.baseQuantityUnitCode }),
      ),
      writeLineSeller(l.seller),
    ),
    always("ram:SpecifiedLineTradeDelivery", term("ram:BilledQuantity", l.quantity, "BT-129", { unitCode: l.unitCode })),
    always(
      "ram:SpecifiedLineTradeSettlement",
      always(
        "ram:ApplicableTradeTax",
        term("ram:TypeCode", VAT_SCHEME),
        term("ram:ExemptionReason", l.vat.exemptionReason, "EXT-FR-FE-178"),
        term("ram:CategoryCode", l.vat.categoryCode, "BT-151"),
        term("ram:RateApplicablePercent", l.vat.rate, "BT-152"),
      ),
      writePeriod(l.period, ["BT-134", "BT-135"]),
      l.allowances.map((a) => writeAllowanceCharge(a, false, ALLOWANCE_TERMS.lineAllowance)),
      l.charges.map((c) => writeAllowanceCharge(c, true, ALLOWANCE_TERMS.lineCharge)),
      always(
        "ram:SpecifiedTradeSettlementLineMonetarySummation",
        term("ram:LineTotalAmount", l.netAmount, "BT-131"),
        term("ram:TaxTotalAmount", l.vatTotal, "EXT-FR-FE-181", { currencyID: currencies.invoice }),
        currencies.tax !== undefined && term("ram:TaxTotalAmount", l.vatTotalInAccountingCurrency, "EXT-FR-FE-182", { currencyID: currencies.tax }),
      ),
      writeInvoicedObject(l.objectId, "BT-128", "BT-128-1"),
      group("ram:ReceivableSpecifiedTradeAccountingAccount", term("ram:ID", l.buyerAccountingReference, "BT-133")),
    ),
  );
}

function flatten(lines: InvoiceLine[], currencies: Currencies, parentId?: string): XmlNode[] {
  return lines.flatMap((l) => [writeLine(l, parentId, currencies), ...flatten(l.subLines ?? [], currencies, l.id)]);
}

export function writeLines(lines: InvoiceLine[], currencies: Currencies): Contribution {
  return { lines: flatten(lines, currencies) };
}
