// A hybrid is judged through its XML: for every Factur-X level and the PDF matrix, validating the
// PDF gives the XML's verdict (the container adds no finding), and parsing the PDF gives the XML's
// invoice. The 300-line case is left to test/pdf/hybrid.test.ts: SaxonJS takes long on it.

import { beforeAll, describe, expect, test } from "bun:test";
import { rulesetBundle } from "../../src/assets/bundle";
import { createEngine } from "../../src/validation/engine";
import { validateDocument, type Engine } from "../../src/validation/validate";
import { parseDocument } from "../../src/generate/parse";
import type { RecordId } from "../../src/profiles/ids";
import { detect } from "../../src/syntax/detect";
import { buildHybrid, FACTURX_LEVELS } from "./build";
import { PDF_CASES } from "./fixtures";

let engine: Engine;
beforeAll(() => {
  engine = createEngine(rulesetBundle());
});

async function verdict(bytes: Uint8Array, record?: RecordId) {
  const outcome = await validateDocument(engine, { bytes, record });
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.result;
}

const ids = (r: { errors: { ruleId: string }[]; warnings: { ruleId: string }[] }) => [...r.errors, ...r.warnings].map((f) => f.ruleId).sort();

describe("validate and parse on a generated hybrid agree with its XML", () => {
  for (const level of FACTURX_LEVELS) {
    for (const pdfCase of PDF_CASES.filter((c) => !c.name.startsWith("300"))) {
      test(`${level.profile}: ${pdfCase.name}`, async () => {
        const { xml, pdf } = await buildHybrid(pdfCase.invoice, level.profile);
        const ofPdf = await verdict(pdf);
        // A bare EN 16931 guideline id reads as Factur-X EN16931 only inside a hybrid, so the XML alone is judged at the PDF's level.
        // Judged as the Factur-X level the PDF's XML declares, as validate does for the PDF.
        const ofXml = await verdict(xml, detect(xml, { hybrid: true }).record?.id);
        expect(ofPdf.valid).toBe(true);
        expect(ofPdf.profileDetected).toBe(`facturx:${level.profile}`);
        expect(ids(ofPdf)).toEqual(ids(ofXml));
        expect(ofPdf.rulesetArtifacts).toEqual(ofXml.rulesetArtifacts);
        expect((await parseDocument(pdf)).invoice).toEqual((await parseDocument(xml)).invoice);
      }, 60_000);
    }
  }
});
