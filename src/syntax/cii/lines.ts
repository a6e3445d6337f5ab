// Invoice lines (BG-25) with price (BG-29), line VAT (BG-30), item (BG-31, BG-32), line period
// (BG-26) and line allowances and charges. Sub-lines are written the XRechnung / Factur-X EXTENDED
// way: flat lines after their parent, pointing to it with `ram:ParentLineID`, the parent marked
// `GROUP` and the parts `DETAIL` in `ram:LineStatusReasonCode`.

import type { Element } from "@xmldom/xmldom";
import type { Identifier, InvoiceLine, Item } from "../../model/index.ts";
import { ALLOWANCE_TERMS, readAllowanceCharges, readLineAllowanceCharge, writeAllowanceCharge } from "./allowances.ts";
import type { Contribution, Header } from "./context.ts";
import { all, attr, first, indicator, text } from "./dom.ts";
import { readPeriod, writePeriod } from "./delivery.ts";
import { always, group, indicator as indicatorNode, leaf, type XmlNode } from "./node.ts";
import { identifier } from "./party.ts";

const INVOICED_OBJECT = "130";
const STATUS = { group: "GROUP", detail: "DETAIL" } as const;

function readItem(p: Element | undefined): Item {
  const standard = first(p, "ram:GlobalID");
  return {
    name: text(p, "ram:Name") ?? "",
    description: text(p, "ram:Description"),
    sellerId: text(p, "ram:SellerAssignedID"),
    buyerId: text(p, "ram:BuyerAssignedID"),
    standardId: standard && identifier(standard),
    classifications: all(p, "ram:DesignatedProductClassification/ram:ClassCode").map((c) => ({
      code: c.textContent?.trim() ?? "",
      listId: attr(c, "listID") ?? "",
      listVersionId: attr(c, "listVersionID"),
    })),
    originCountry: text(p, "ram:OriginTradeCountry/ram:ID"),
    attributes: all(p, "ram:ApplicableProductCharacteristic").map((c) => ({ name: text(c, "ram:Description") ?? "", value: text(c, "ram:Value") ?? "" })),
  };
}

function writeItem(i: Item): XmlNode {
  return always(
    "ram:SpecifiedTradeProduct",
    leaf("ram:GlobalID", i.standardId?.value, "BT-157", { schemeID: i.standardId?.scheme }),
    leaf("ram:SellerAssignedID", i.sellerId, "BT-155"),
    leaf("ram:BuyerAssignedID", i.buyerId, "BT-156"),
    leaf("ram:Name", i.name, "BT-153"),
    leaf("ram:Description", i.description, "BT-154"),
    i.attributes.map((a) => group("ram:ApplicableProductCharacteristic", leaf("ram:Description", a.name, "BT-160"), leaf("ram:Value", a.value, "BT-161"))),
    i.classifications.map((c) =>
      group("ram:DesignatedProductClassification", leaf("ram:ClassCode", c.code, "BT-158", { listID: c.listId, listVersionID: c.listVersionId })),
    ),
    group("ram:OriginTradeCountry", leaf("ram:ID", i.originCountry, "BT-159")),
  );
}

function readObjectId(settlement: Element | undefined): Identifier | undefined {
  const d = all(settlement, "ram:AdditionalReferencedDocument").find((e) => text(e, "ram:TypeCode") === INVOICED_OBJECT);
  const value = text(d, "ram:IssuerAssignedID");
  if (value === undefined) return undefined;
  const scheme = text(d, "ram:ReferenceTypeCode");
  return { value, ...(scheme && { scheme }) };
}

function readLine(e: Element): InvoiceLine {
  const doc = first(e, "ram:AssociatedDocumentLineDocument");
  const agreement = first(e, "ram:SpecifiedLineTradeAgreement");
  const settlement = first(e, "ram:SpecifiedLineTradeSettlement");
  const quantity = first(e, "ram:SpecifiedLineTradeDelivery/ram:BilledQuantity");
  const net = first(agreement, "ram:NetPriceProductTradePrice");
  const gross = first(agreement, "ram:GrossPriceProductTradePrice");
  const basis = first(net, "ram:BasisQuantity") ?? first(gross, "ram:BasisQuantity");
  const discount = all(gross, "ram:AppliedTradeAllowanceCharge").find((a) => indicator(a, "ram:ChargeIndicator") !== true);
  const notes = all(doc, "ram:IncludedNote").map((n) => text(n, "ram:Content")).filter((n) => n !== undefined);
  const { allowances, charges } = readAllowanceCharges(settlement);
  return {
    id: text(doc, "ram:LineID") ?? "",
    // D16B allows several line notes; EN 16931 has one, so they are kept as one text.
    note: notes.length > 0 ? notes.join("\n") : undefined,
    objectId: readObjectId(settlement),
    quantity: quantity?.textContent?.trim() ?? "",
    unitCode: attr(quantity, "unitCode") ?? "",
    netAmount: text(settlement, "ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount") ?? "",
    orderLineReference: text(agreement, "ram:BuyerOrderReferencedDocument/ram:LineID"),
    buyerAccountingReference: text(settlement, "ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID"),
    period: readPeriod(settlement),
    allowances: allowances.map(readLineAllowanceCharge),
    charges: charges.map(readLineAllowanceCharge),
    price: {
      netPrice: text(net, "ram:ChargeAmount") ?? "",
      discount: text(discount, "ram:ActualAmount"),
      grossPrice: text(gross, "ram:ChargeAmount"),
      baseQuantity: basis?.textContent?.trim() || undefined,
      baseQuantityUnitCode: attr(basis, "unitCode"),
    },
    vat: { categoryCode: text(settlement, "ram:ApplicableTradeTax/ram:CategoryCode") ?? "", rate: text(settlement, "ram:ApplicableTradeTax/ram:RateApplicablePercent") },
    item: readItem(first(e, "ram:SpecifiedTradeProduct")),
  };
}

/** Reads the flat CII lines and hangs each line with a known `ram:ParentLineID` under its parent. */
export function readLines(h: Header): InvoiceLine[] {
  const elements = all(h.transaction, "ram:IncludedSupplyChainTradeLineItem");
  const lines = elements.map(readLine);
  const byId = new Map(lines.map((l) => [l.id, l]));
  const top: InvoiceLine[] = [];
  elements.forEach((e, i) => {
    const line = lines[i]!;
    const parent = byId.get(text(e, "ram:AssociatedDocumentLineDocument/ram:ParentLineID") ?? "");
    if (parent && parent !== line) (parent.subLines ??= []).push(line);
    else top.push(line);
  });
  return top;
}

function writeLine(l: InvoiceLine, parentId: string | undefined): XmlNode {
  const p = l.price;
  const isGroup = (l.subLines?.length ?? 0) > 0;
  return always(
    "ram:IncludedSupplyChainTradeLineItem",
    always(
      "ram:AssociatedDocumentLineDocument",
      leaf("ram:LineID", l.id, "BT-126"),
      leaf("ram:ParentLineID", parentId, "BG-DEX-01"),
      leaf("ram:LineStatusReasonCode", parentId !== undefined ? STATUS.detail : isGroup ? STATUS.group : undefined, "BG-DEX-01"),
      group("ram:IncludedNote", leaf("ram:Content", l.note, "BT-127")),
    ),
    writeItem(l.item),
    always(
      "ram:SpecifiedLineTradeAgreement",
      group("ram:BuyerOrderReferencedDocument", leaf("ram:LineID", l.orderLineReference, "BT-132")),
      group(
        "ram:GrossPriceProductTradePrice",
        leaf("ram:ChargeAmount", p.grossPrice, "BT-148"),
        p.grossPrice !== undefined && leaf("ram:BasisQuantity", p.baseQuantity, "BT-149", { unitCode: p.baseQuantityUnitCode }),
        p.discount !== undefined &&
          group("ram:AppliedTradeAllowanceCharge", indicatorNode("ram:ChargeIndicator", false), leaf("ram:ActualAmount", p.discount, "BT-147")),
      ),
      always(
        "ram:NetPriceProductTradePrice",
        leaf("ram:ChargeAmount", p.netPrice, "BT-146"),
        leaf("ram:BasisQuantity", p.baseQuantity, "BT-149", { unitCode: p.baseQuantityUnitCode }),
      ),
    ),
    always("ram:SpecifiedLineTradeDelivery", leaf("ram:BilledQuantity", l.quantity, "BT-129", { unitCode: l.unitCode })),
    always(
      "ram:SpecifiedLineTradeSettlement",
      always("ram:ApplicableTradeTax", leaf("ram:TypeCode", "VAT"), leaf("ram:CategoryCode", l.vat.categoryCode, "BT-151"), leaf("ram:RateApplicablePercent", l.vat.rate, "BT-152")),
      writePeriod(l.period, ["BT-134", "BT-135"]),
      l.allowances.map((a) => writeAllowanceCharge(a, false, ALLOWANCE_TERMS.lineAllowance)),
      l.charges.map((c) => writeAllowanceCharge(c, true, ALLOWANCE_TERMS.lineCharge)),
      always("ram:SpecifiedTradeSettlementLineMonetarySummation", leaf("ram:LineTotalAmount", l.netAmount, "BT-131")),
      l.objectId &&
        group(
          "ram:AdditionalReferencedDocument",
          leaf("ram:IssuerAssignedID", l.objectId.value, "BT-128"),
          leaf("ram:TypeCode", INVOICED_OBJECT),
          leaf("ram:ReferenceTypeCode", l.objectId.scheme, "BT-128-1"),
        ),
      group("ram:ReceivableSpecifiedTradeAccountingAccount", leaf("ram:ID", l.buyerAccountingReference, "BT-133")),
    ),
  );
}

function flatten(lines: InvoiceLine[], parentId?: string): XmlNode[] {
  return lines.flatMap((l) => [writeLine(l, parentId), ...flatten(l.subLines ?? [], l.id)]);
}

export function writeLines(lines: InvoiceLine[]): Contribution {
  return { lines: flatten(lines) };
}
