// A national invoice's PDF is a visualization beside the legal XML, drawn from the model the
// writer wrote from, labelled in the seller's language: Italian, Spanish, Slovenian.

import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateInvoice } from "../../src/generate/generate-invoice.ts";
import { createEngine } from "../../src/validation/engine.ts";
import { validateDocument } from "../../src/validation/validate.ts";
import { rulesetBundle } from "../../src/assets/bundle.ts";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";

const dir = mkdtempSync(join(tmpdir(), "national-pdf-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const engine = createEngine(rulesetBundle());

const CASES = [
  { standard: "fatturapa", locale: LOCALES.it, words: ["Fattura", "Cessionario", "Partita IVA"] },
  { standard: "facturae", locale: LOCALES.es, words: ["Factura", "Fecha de factura", "Cliente"] },
  { standard: "eslog", locale: LOCALES.si, words: ["Račun", "Kupec", "Datum izdaje"] },
] as const;

for (const { standard, locale, words } of CASES) {
  test(`${standard}: a visualization PDF in the seller's language, the XML judged valid beside it`, async () => {
    const made = await generateInvoice(
      { request: { standard, invoice: SCENARIOS[0]!.build(locale) }, livemode: true, pdf: { template: "standard", now: new Date("2026-11-24T12:00:00Z") }, judge: { ruleset: undefined } },
      { spend: async () => {}, judge: (request) => validateDocument(engine, request) },
    );
    expect(made.pdfKind).toBe("visualization");
    expect(made.result.valid).toBe(true);
    const file = join(dir, `${standard}.pdf`);
    writeFileSync(file, made.file);
    const text = Bun.spawnSync(["pdftotext", file, "-"]).stdout.toString();
    for (const word of words) expect([standard, text.includes(word)]).toEqual([standard, true]);
  }, 60_000);
}
