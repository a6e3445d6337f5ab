// What the FatturaPA tests share: the Italian fixtures as writer input, and the pinned XSD verdict.

import { LOCALES, SCENARIOS } from "../../../fixtures/invoices.ts";
import { rulesetBundle } from "../../../src/assets/bundle.ts";
import type { InvoiceInput } from "../../../src/invoice/schema.ts";
import { toModel } from "../../../src/invoice/to-model.ts";
import type { Variant } from "../../../src/syntax/fatturapa/header.ts";
import { writeFatturaPA } from "../../../src/syntax/fatturapa/index.ts";
import { createEngine } from "../../../src/validation/engine.ts";
import { validateDocument } from "../../../src/validation/validate.ts";

export const IT = LOCALES.it;

export const scenario = (name: string): InvoiceInput => SCENARIOS.find((s) => s.name === name)!.build(IT);

export const write = (invoice: InvoiceInput, variant: Variant = "ordinaria") => writeFatturaPA({ invoice, model: toModel(invoice, { specificationIdentifier: "FPR12" }) }, variant);

const RECORDS = { ordinaria: "fatturapa:italy-fatturapa-ordinaria-fpr12", semplificata: "fatturapa:italy-fatturapa-semplificata-fsm10" } as const;

let engine: ReturnType<typeof createEngine> | undefined;

/** The pinned XSD's findings on `xml` (errors only; an empty list is a valid document). */
export async function xsdErrors(xml: string, variant: Variant = "ordinaria"): Promise<string[]> {
  engine ??= createEngine(rulesetBundle());
  const outcome = await validateDocument(engine, { bytes: new TextEncoder().encode(xml), record: RECORDS[variant] });
  if (!outcome.ok) throw new Error(`not judged: ${JSON.stringify(outcome)}`);
  return outcome.result.errors.map((e) => `${e.location ?? ""} ${e.message}`);
}
