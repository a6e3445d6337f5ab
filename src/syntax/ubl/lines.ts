// Invoice lines (BG-25..BG-32) <-> cac:InvoiceLine / cac:CreditNoteLine, with sub-lines
// (XRechnung extension) <-> cac:SubInvoiceLine / cac:SubCreditNoteLine, recursively. A French
// multi-vendor line's seller and VAT totals (EXT-FR-FE-164..182) ride on cac:ManufacturerParty and
// the line's cac:TaxTotal (one per currency), where the BR-FR rules for UBL read them.

import type { DocumentKind, InvoiceLine, Item, PriceDetails } from "../../model/index.ts";
import { add, isDecimal } from "../../model/decimal.ts";
import { priceDiscount, type Currencies } from "../values.ts";
import { always, group, inSequence, leaf, type XmlNode } from "../xml-writer.ts";
import { isAllowance, readLineAllowanceCharges, writeLineAllowanceCharges } from "./allowances.ts";
import { readPeriod, writePeriod } from "./delivery.ts";
import { readLineSeller, writeLineSeller } from "./party.ts";
import { INVOICED_OBJECT_CODE } from "./references.ts";
import { LINE_SEQUENCE } from "./sequence.ts";
import { readTaxCategory, writeTaxCategory } from "./tax.ts";
import { readIdentifier, writeAmount, writeIdentifier } from "./values.ts";
import { attrOf, textOf } from "../xml-reader.ts";
import { KINDS, ubl, type Element, type KindNames } from "./vocabulary.ts";

function readItem(el: Element | undefined): Item {
  if (!el) return { name: "", classifications: [], attributes: [] };
  return {
    name: ubl.text(el, "cbc:Name") ?? "",
    description: ubl.text(el, "cbc:Description"),
    sellerId: ubl.text(el, "cac:SellersItemIdentification/cbc:ID"),
    buyerId: ubl.text(el, "cac:BuyersItemIdentification/cbc:ID"),
    standardId: readIdentifier(el, "cac:StandardItemIdentification/cbc:ID"),
    classifications: ubl.all(el, "cac:CommodityClassification/cbc:ItemClassificationCode").map((c) => ({
      code: textOf(c) ?? "",
      listId: attrOf(c, "listID") ?? "",
      listVersionId: attrOf(c, "listVersionID"),
    })),
    originCountry: ubl.text(el, "cac:OriginCountry/cbc:IdentificationCode"),
    attributes: ubl.all(el, "cac:AdditionalItemProperty").map((p) => ({
      name: ubl.text(p, "cbc:Name") ?? "",
      value: ubl.text(p, "cbc:Value") ?? "",
    })),
  };
}

function writeItem(line: InvoiceLine): XmlNode {
  const item = line.item;
  return always(
    "cac:Item",
    leaf("cbc:Description", item.description),
    leaf("cbc:Name", item.name),
    group("cac:BuyersItemIdentification", leaf("cbc:ID", item.buyerId)),
    group("cac:SellersItemIdentification", leaf("cbc:ID", item.sellerId)),
    group("cac:StandardItemIdentification", writeIdentifier("cbc:ID", item.standardId)),
    group("cac:OriginCountry", leaf("cbc:IdentificationCode", item.originCountry)),
    item.classifications.map((c) =>
      always(
        "cac:CommodityClassification",
        leaf("cbc:ItemClassificationCode", c.code, { listID: c.listId || undefined, listVersionID: c.listVersionId }),
      ),
    ),
    writeTaxCategory("cac:ClassifiedTaxCategory", { code: line.vat.categoryCode, rate: line.vat.rate }),
    item.attributes.map((a) => always("cac:AdditionalItemProperty", leaf("cbc:Name", a.name), leaf("cbc:Value", a.value))),
    writeLineSeller(line.seller),
  );
}

// The price discount (BT-147) and gross price (BT-148) ride on an allowance inside cac:Price.
// UBL may state a discount without its base; EN 16931 defines the net price as the gross price
// less the discount, so the gross price is stated all the same, and CII, which cannot hold a
// discount without it, gets it.
function readPrice(el: Element | undefined): PriceDetails {
  if (!el) return { netPrice: "" };
  const allowance = ubl.all(el, "cac:AllowanceCharge").find(isAllowance);
  const netPrice = ubl.text(el, "cbc:PriceAmount") ?? "";
  const discount = priceDiscount(allowance && ubl.text(allowance, "cbc:Amount"));
  const base = allowance && ubl.text(allowance, "cbc:BaseAmount");
  return {
    netPrice,
    discount,
    grossPrice: base ?? (discount !== undefined && isDecimal(netPrice) && isDecimal(discount) ? add(netPrice, discount) : undefined),
    baseQuantity: ubl.text(el, "cbc:BaseQuantity"),
    baseQuantityUnitCode: ubl.attr(el, "cbc:BaseQuantity", "unitCode"),
  };
}

// Sub-lines (XRechnung) may have no price; the reader gives an empty net price then.
function writePrice(price: PriceDetails, currency: string): XmlNode | undefined {
  if (price.netPrice === "") return undefined;
  const hasDiscount = price.discount !== undefined || price.grossPrice !== undefined;
  return always(
    "cac:Price",
    writeAmount("cbc:PriceAmount", price.netPrice, currency),
    leaf("cbc:BaseQuantity", price.baseQuantity, { unitCode: price.baseQuantityUnitCode }),
    hasDiscount &&
      always(
        "cac:AllowanceCharge",
        leaf("cbc:ChargeIndicator", "false"),
        // Amount is mandatory in UBL; a gross price alone means no discount.
        writeAmount("cbc:Amount", price.discount ?? "0", currency),
        writeAmount("cbc:BaseAmount", price.grossPrice, currency),
      ),
  );
}

/** The line's VAT total in `currency`: a line may carry one cac:TaxTotal per currency. */
const lineTaxTotal = (el: Element, currency: string | undefined) =>
  currency === undefined ? undefined : textOf(ubl.all(el, "cac:TaxTotal/cbc:TaxAmount").find((a) => ubl.matches(a, "@currencyID", (c) => c === currency)));

export function readLine(el: Element, names: KindNames, currencies: Currencies): InvoiceLine {
  // The EN binding names no type code for BT-128; Peppol requires 130. Either way it is BT-128.
  const objectRef = ubl
    .all(el, "cac:DocumentReference")
    .find((r) => ubl.matches(r, "cbc:DocumentTypeCode", (code) => code === undefined || code === INVOICED_OBJECT_CODE));
  const category = readTaxCategory(ubl.one(el, "cac:Item/cac:ClassifiedTaxCategory"));
  const subLines = ubl.all(el, names.subLine).map((sub) => readLine(sub, names, currencies));
  return {
    id: ubl.text(el, "cbc:ID") ?? "",
    note: ubl.text(el, "cbc:Note"),
    objectId: objectRef && readIdentifier(objectRef, "cbc:ID"),
    quantity: ubl.text(el, names.quantity) ?? "",
    unitCode: ubl.attr(el, names.quantity, "unitCode") ?? "",
    netAmount: ubl.text(el, "cbc:LineExtensionAmount") ?? "",
    orderLineReference: ubl.text(el, "cac:OrderLineReference/cbc:LineID"),
    buyerAccountingReference: ubl.text(el, "cbc:AccountingCost"),
    period: readPeriod(ubl.one(el, "cac:InvoicePeriod")),
    ...readLineAllowanceCharges(el),
    price: readPrice(ubl.one(el, "cac:Price")),
    vat: { categoryCode: category.code, rate: category.rate },
    item: readItem(ubl.one(el, "cac:Item")),
    seller: readLineSeller(ubl.one(el, "cac:Item/cac:ManufacturerParty")),
    vatTotal: lineTaxTotal(el, currencies.invoice),
    vatTotalInAccountingCurrency: lineTaxTotal(el, currencies.tax),
    ...(subLines.length > 0 && { subLines }),
  };
}

/** One line of a document of `kind`, its children in that kind's line sequence. */
export function writeLine(line: InvoiceLine, kind: DocumentKind, currencies: Currencies, elementName = KINDS[kind].line): XmlNode {
  const names = KINDS[kind];
  const currency = currencies.invoice;
  const children = [
    leaf("cbc:ID", line.id),
    leaf("cbc:Note", line.note),
    // Empty for sub-lines without a quantity (XRechnung allows that); the element is optional in UBL.
    leaf(names.quantity, line.quantity || undefined, { unitCode: line.unitCode || undefined }),
    writeAmount("cbc:LineExtensionAmount", line.netAmount, currency),
    leaf("cbc:AccountingCost", line.buyerAccountingReference),
    writePeriod(line.period),
    group("cac:OrderLineReference", leaf("cbc:LineID", line.orderLineReference)),
    line.objectId &&
      always("cac:DocumentReference", writeIdentifier("cbc:ID", line.objectId), leaf("cbc:DocumentTypeCode", INVOICED_OBJECT_CODE)),
    ...writeLineAllowanceCharges(line, currency),
    group("cac:TaxTotal", writeAmount("cbc:TaxAmount", line.vatTotal, currency)),
    currencies.tax !== undefined && group("cac:TaxTotal", writeAmount("cbc:TaxAmount", line.vatTotalInAccountingCurrency, currencies.tax)),
    writeItem(line),
    writePrice(line.price, currency),
    ...(line.subLines ?? []).map((sub) => writeLine(sub, kind, currencies, names.subLine)),
  ].filter((c): c is XmlNode => !!c);
  return always(elementName, inSequence(children, LINE_SEQUENCE[kind]));
}
