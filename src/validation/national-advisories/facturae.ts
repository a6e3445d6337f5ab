// The checks Spain's FACe hub and the Facturae validator apply past the Facturae 3.2.2 schema,
// decided from the document alone. RCF06001 is FACe's own code (Orden HAP/1074/2014 as amended by
// Orden HAP/1650/2015, annex II, validation 6a); the arithmetic rows are the identities the
// schema's own annotations define ("Result: ..."), which the government validator checks and which
// have no public code, so the advisory is named for the amount. What FACe checks against its
// registers (DIR3 administrative centres, EFVAL09) and the XAdES signature cannot be decided here.

import { add, compare, decimalPlaces, multiply, negate, sum, toFixed } from "../../model/decimal";
import { createReader, elementChildren, textOf, type Element } from "../../syntax/xml-reader";
import { decimalOf, type NationalRule, type Report } from "./rule";

// Facturae qualifies only its root; every element below is in no namespace.
const fe = createReader({});

const SCHEMA = "Facturae 3.2.2 schema (facturaev3_2_2.xsd), annotation of";

/**
 * The amounts RCF06001 weighs: every money element the schema types as up to eight decimals.
 * Rates, the unit price and the exchange rate are not money amounts and keep their eight decimals.
 */
const EURO_AMOUNTS = new Set([
  "TotalCost",
  "GrossAmount",
  "TotalGrossAmount",
  "TotalGeneralDiscounts",
  "TotalGeneralSurcharges",
  "TotalGrossAmountBeforeTaxes",
  "TotalTaxOutputs",
  "TotalTaxesWithheld",
  "InvoiceTotal",
  "TotalOutstandingAmount",
  "TotalPaymentsOnAccount",
  "TotalExecutableAmount",
  "TotalReimbursableExpenses",
  "SubsidyAmount",
  "PaymentOnAccountAmount",
  "WithholdingAmount",
  "ReimbursableExpensesAmount",
  "DiscountAmount",
  "ChargeAmount",
  "TotalAmount",
  "PaymentInKindAmount",
]);

const invoices = (root: Element) => fe.all(root, "Invoices/Invoice");

/** Every element below `from`, depth first (the DOM reader bounds how many there are). */
function descendants(from: Element): Element[] {
  const out: Element[] = [];
  const stack = [...elementChildren(from)].reverse();
  for (let e = stack.pop(); e; e = stack.pop()) {
    out.push(e);
    stack.push(...elementChildren(e).reverse());
  }
  return out;
}

/** RCF06001: in a euro invoice (and a euro batch header) no amount has more than two decimals. */
function twoDecimals(root: Element, report: Report): void {
  const scopes: [Element | undefined, string | undefined][] = [
    [fe.one(root, "FileHeader"), fe.text(root, "FileHeader/Batch/InvoiceCurrencyCode")],
    ...invoices(root).map((invoice): [Element, string | undefined] => [invoice, fe.text(invoice, "InvoiceIssueData/InvoiceCurrencyCode")]),
  ];
  for (const [scope, currency] of scopes) {
    if (!scope || currency !== "EUR") continue;
    for (const e of descendants(scope)) {
      if (!EURO_AMOUNTS.has(e.localName ?? "")) continue;
      const value = decimalOf(textOf(e));
      if (value !== undefined && decimalPlaces(value) > 2) report(e, `FACe would refuse the invoice (RCF06001): ${e.localName} ${value} has more than two decimals, and an invoice in euro states its amounts to the cent.`);
    }
  }
}

/** Compares two amounts as the invoice states them, to the cent. */
const sameCents = (a: string, b: string) => compare(toFixed(a, 2), toFixed(b, 2)) === 0;

/** InvoiceTotal = TotalGrossAmountBeforeTaxes + TotalTaxOutputs − TotalTaxesWithheld. */
function invoiceTotal(root: Element, report: Report): void {
  for (const invoice of invoices(root)) {
    const totals = fe.one(invoice, "InvoiceTotals");
    const [before, taxes, withheld, total] = ["TotalGrossAmountBeforeTaxes", "TotalTaxOutputs", "TotalTaxesWithheld", "InvoiceTotal"].map((name) => decimalOf(fe.text(totals, name)));
    if (!totals || before === undefined || taxes === undefined || withheld === undefined || total === undefined) continue;
    const expected = add(add(before, taxes), negate(withheld));
    if (!sameCents(total, expected)) report(totals, `The Facturae validator would refuse the invoice: InvoiceTotal ${total} is not TotalGrossAmountBeforeTaxes ${before} + TotalTaxOutputs ${taxes} − TotalTaxesWithheld ${withheld} = ${expected}.`);
  }
}

/** A line's TotalCost = Quantity × UnitPriceWithoutTax. */
function lineTotalCost(root: Element, report: Report): void {
  for (const line of invoices(root).flatMap((invoice) => fe.all(invoice, "Items/InvoiceLine"))) {
    const [quantity, price, cost] = ["Quantity", "UnitPriceWithoutTax", "TotalCost"].map((name) => decimalOf(fe.text(line, name)));
    if (quantity === undefined || price === undefined || cost === undefined) continue;
    const expected = multiply(quantity, price);
    if (!sameCents(cost, expected)) report(line, `The Facturae validator would refuse the invoice: the line's TotalCost ${cost} is not Quantity ${quantity} × UnitPriceWithoutTax ${price} = ${toFixed(expected, 2)}.`);
  }
}

/** A line's GrossAmount = TotalCost − its DiscountAmount + its ChargeAmount. */
function lineGrossAmount(root: Element, report: Report): void {
  for (const line of invoices(root).flatMap((invoice) => fe.all(invoice, "Items/InvoiceLine"))) {
    const cost = decimalOf(fe.text(line, "TotalCost"));
    const gross = decimalOf(fe.text(line, "GrossAmount"));
    const discounts = fe.all(line, "DiscountsAndRebates/Discount").map((d) => decimalOf(fe.text(d, "DiscountAmount")));
    const charges = fe.all(line, "Charges/Charge").map((c) => decimalOf(fe.text(c, "ChargeAmount")));
    if (cost === undefined || gross === undefined || [...discounts, ...charges].some((a) => a === undefined)) continue;
    const expected = add(add(cost, negate(sum(discounts as string[]))), sum(charges as string[]));
    if (!sameCents(gross, expected)) report(line, `The Facturae validator would refuse the invoice: the line's GrossAmount ${gross} is not TotalCost ${cost} − discounts + charges = ${expected}.`);
  }
}

export const FACTURAE_RULES: readonly NationalRule[] = [
  { id: "FACTURAE_RCF06001_NOT_ENFORCED", source: "FACe, error RCF06001 (Orden HAP/1650/2015, annex II, validation 6a)", severity: "warning", check: twoDecimals },
  { id: "FACTURAE_INVOICE_TOTAL_NOT_ENFORCED", source: `${SCHEMA} InvoiceTotal`, severity: "warning", check: invoiceTotal },
  { id: "FACTURAE_TOTAL_COST_NOT_ENFORCED", source: `${SCHEMA} InvoiceLine/TotalCost`, severity: "warning", check: lineTotalCost },
  { id: "FACTURAE_GROSS_AMOUNT_NOT_ENFORCED", source: `${SCHEMA} InvoiceLine/GrossAmount`, severity: "warning", check: lineGrossAmount },
];
