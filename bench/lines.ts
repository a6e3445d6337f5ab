/**
 * Synthetic many-line invoices for the benchmark. UBL (`multiplyLines`): the invoice lines of a
 * valid corpus invoice repeated (renumbered) to the wanted count, with every total recomputed so the
 * document stays valid. Handles what the source needs: document-level allowances and charges stay
 * as they are, one VAT breakdown per category and rate, no prepaid or rounding amount beyond what is
 * carried over. CII (`multiplyCiiLines`): the line items repeated, totals left as they are, so the
 * document fails the totals rules (timing only).
 */
const LINE = /<cac:InvoiceLine>[\s\S]*?<\/cac:InvoiceLine>/g;

const cents = (amount: string) => Math.round(Number(amount) * 100);
const money = (c: number) => (c / 100).toFixed(2);

/** The LineExtensionAmount and VAT category key (`S:7`) of one invoice line. */
function lineFacts(line: string): { cents: number; category: string } {
  const amount = line.match(/<cbc:LineExtensionAmount[^>]*>([^<]+)</)?.[1];
  const tax = line.match(/<cac:ClassifiedTaxCategory>\s*<cbc:ID>([^<]+)<\/cbc:ID>\s*(?:<cbc:Percent>([^<]+)<\/cbc:Percent>)?/);
  if (!amount || !tax) throw new Error("an invoice line without LineExtensionAmount or ClassifiedTaxCategory");
  return { cents: cents(amount), category: `${tax[1]}:${Number(tax[2] ?? 0)}` };
}

function sumByCategory(lines: string[]): Map<string, number> {
  const sums = new Map<string, number>();
  for (const line of lines) {
    const { cents, category } = lineFacts(line);
    sums.set(category, (sums.get(category) ?? 0) + cents);
  }
  return sums;
}

/** Replaces the text of the first `<cbc:NAME ...>` inside `scope`. */
function setAmount(scope: string, name: string, value: string): string {
  const re = new RegExp(`(<cbc:${name}\\b[^>]*>)[^<]*(</cbc:${name}>)`);
  if (!re.test(scope)) throw new Error(`no cbc:${name} to update`);
  return scope.replace(re, `$1${value}$2`);
}

export function multiplyLines(source: string, count: number): string {
  const lines = source.match(LINE);
  if (!lines?.length) throw new Error("the source invoice has no cac:InvoiceLine (only Invoice documents with cac/cbc prefixes are supported)");
  if ((source.match(/<cac:TaxTotal>/g) ?? []).length !== 1) throw new Error("only one TaxTotal (no tax currency) is supported");
  const made = Array.from({ length: count }, (_, i) => lines[i % lines.length].replace(/(<cac:InvoiceLine>\s*<cbc:ID>)[^<]*/, `$1${i + 1}`));
  const before = sumByCategory(lines);
  const after = sumByCategory(made);

  // VAT breakdown: the taxable amount moves by the change of its lines; allowances and charges stay.
  let taxTotal = 0;
  let doc = source.replace(/<cac:TaxSubtotal>[\s\S]*?<\/cac:TaxSubtotal>/g, (subtotal) => {
    const id = subtotal.match(/<cac:TaxCategory>\s*<cbc:ID>([^<]+)</)?.[1];
    const percent = Number(subtotal.match(/<cbc:Percent>([^<]+)</)?.[1] ?? 0);
    const key = `${id}:${percent}`;
    const taxable = cents(subtotal.match(/<cbc:TaxableAmount[^>]*>([^<]+)</)![1]) - (before.get(key) ?? 0) + (after.get(key) ?? 0);
    const tax = Math.round((taxable * percent) / 100);
    taxTotal += tax;
    return setAmount(setAmount(subtotal, "TaxableAmount", money(taxable)), "TaxAmount", money(tax));
  });
  doc = doc.replace(/(<cac:TaxTotal>\s*<cbc:TaxAmount[^>]*>)[^<]*/, `$1${money(taxTotal)}`);

  const delta = [...after.values()].reduce((a, b) => a + b, 0) - [...before.values()].reduce((a, b) => a + b, 0);
  doc = doc.replace(/<cac:LegalMonetaryTotal>[\s\S]*?<\/cac:LegalMonetaryTotal>/, (total) => {
    const read = (name: string) => cents(total.match(new RegExp(`<cbc:${name}\\b[^>]*>([^<]+)<`))?.[1] ?? "0");
    const exclusive = read("TaxExclusiveAmount") + delta;
    const inclusive = exclusive + taxTotal;
    let out = setAmount(total, "LineExtensionAmount", money(read("LineExtensionAmount") + delta));
    out = setAmount(out, "TaxExclusiveAmount", money(exclusive));
    out = setAmount(out, "TaxInclusiveAmount", money(inclusive));
    return setAmount(out, "PayableAmount", money(inclusive - read("PrepaidAmount") + read("PayableRoundingAmount")));
  });

  // Lines replace the originals where they stood (they are the document's last children in UBL order).
  const first = doc.indexOf(lines[0]);
  const last = doc.lastIndexOf(lines[lines.length - 1]) + lines[lines.length - 1].length;
  return doc.slice(0, first) + made.join("\n    ") + doc.slice(last);
}

const CII_LINE = /<ram:IncludedSupplyChainTradeLineItem>[\s\S]*?<\/ram:IncludedSupplyChainTradeLineItem>/g;

/** The line items of a CII invoice repeated (renumbered) to `count`; the totals stay those of the source. */
export function multiplyCiiLines(source: string, count: number): string {
  const lines = source.match(CII_LINE);
  if (!lines?.length) throw new Error("the source invoice has no ram:IncludedSupplyChainTradeLineItem");
  const made = Array.from({ length: count }, (_, i) => lines[i % lines.length].replace(/(<ram:LineID>)[^<]*/, `$1${i + 1}`));
  const first = source.indexOf(lines[0]);
  const last = source.lastIndexOf(lines[lines.length - 1]) + lines[lines.length - 1].length;
  return source.slice(0, first) + made.join("\n        ") + source.slice(last);
}

/** The most lines up to `wanted` whose document (`make(lines)`) stays within `maxBytes` of UTF-8, and that document. */
export function mostLinesWithin(make: (lines: number) => string, wanted: number, maxBytes: number): { lines: number; xml: string } {
  const fits = (lines: number) => Buffer.byteLength(make(lines)) <= maxBytes;
  let [low, high] = [1, wanted];
  if (!fits(low)) throw new Error(`even one line is over ${maxBytes} bytes`);
  // Binary search for the last count that fits: a document grows with every line.
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return { lines: low, xml: make(low) };
}
