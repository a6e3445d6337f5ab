// Arithmetic by construction (SDI controls 00421, 00422, 00423) over random invoices: amounts,
// quantities and rates drawn from a seeded generator, the identities checked on the written XML
// with exact decimals.

import { expect, test } from "bun:test";
import type { InvoiceInput } from "../../../src/invoice/schema.ts";
import { multiply, sameDecimal, sum, toFixed } from "../../../src/model/decimal.ts";
import { scenario, write, xsdErrors } from "./support.ts";
import { rng } from "../../support/rng.ts";

const random = (seed: number) => rng(seed).next;

const RATES = [4, 5, 10, 22, 0];

function randomInvoice(seed: number): InvoiceInput {
  const next = random(seed);
  const base = scenario("domestic, one rate");
  const lines = Array.from({ length: 1 + Math.floor(next() * 12) }, (_, i) => {
    const vatRate = RATES[Math.floor(next() * RATES.length)]!;
    return {
      ...base.lines[0]!,
      description: `Item ${i}`,
      quantity: Math.round(next() * 1_000_000) / 1000 + 0.001,
      // Every third line has a price of more than eight decimals, which PrezzoUnitario rounds.
      unitPrice: i % 3 === 2 ? (next() * 1000) / 3 : Math.round(next() * 100_000_000) / 10_000,
      vatRate,
      vatCategoryCode: vatRate === 0 ? "E" : "S",
    };
  });
  return { ...base, lines };
}

const blocks = (xml: string, name: string): string[] => [...xml.matchAll(new RegExp(`<${name}>[\\s\\S]*?</${name}>`, "g"))].map((m) => m[0]);
const value = (block: string, name: string): string | undefined => new RegExp(`<${name}>([^<]*)</${name}>`).exec(block)?.[1];

test("PrezzoTotale, ImponibileImporto, Imposta and the document total hold exactly over 200 random invoices", async () => {
  for (let seed = 1; seed <= 200; seed++) {
    const { xml } = write(randomInvoice(seed));
    const lines = blocks(xml, "DettaglioLinee");
    for (const line of lines) {
      expect({ seed, total: value(line, "PrezzoTotale") }).toEqual({ seed, total: toFixed(multiply(value(line, "PrezzoUnitario")!, value(line, "Quantita")!), 2) });
    }
    const rows = blocks(xml, "DatiRiepilogo");
    for (const row of rows) {
      const key = (b: string) => `${value(b, "AliquotaIVA")}|${value(b, "Natura") ?? ""}`;
      const imponibile = toFixed(sum(lines.filter((l) => key(l) === key(row)).map((l) => value(l, "PrezzoTotale")!)), 2);
      expect({ seed, imponibile: value(row, "ImponibileImporto") }).toEqual({ seed, imponibile });
      expect({ seed, imposta: value(row, "Imposta") }).toEqual({ seed, imposta: toFixed(multiply(imponibile, multiply(value(row, "AliquotaIVA")!, "0.01")), 2) });
    }
    const lineKeys = new Set(lines.map((l) => `${value(l, "AliquotaIVA")}|${value(l, "Natura") ?? ""}`));
    expect(rows).toHaveLength(lineKeys.size);
    const documentTotal = sum(rows.flatMap((r) => [value(r, "ImponibileImporto")!, value(r, "Imposta")!]));
    expect(sameDecimal(value(xml, "ImportoTotaleDocumento")!, documentTotal)).toBe(true);
    if (seed % 50 === 0) expect(await xsdErrors(xml)).toEqual([]);
  }
});
