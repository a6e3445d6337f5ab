// Every UBL and CII document of the corpus that upstream calls valid, read into the model and
// written back in the same syntax (and CII version / Factur-X level), must stay valid under its
// profile when our pipeline judged the original valid. Originals our pipeline rejects (older rule
// versions, see test/conformance) may come back cleaner; that is printed, not required.

import { beforeAll, describe, expect, test } from "bun:test";
import { rulesetBundle } from "../../src/assets/bundle";
import { createEngine } from "../../src/validation/engine";
import { validateDocument, type Engine } from "../../src/validation/validate";
import { detect } from "../../src/syntax/detect";
import { readUbl } from "../../src/syntax/ubl/read";
import { writeUbl } from "../../src/syntax/ubl/write";
import { readCii } from "../../src/syntax/cii/read";
import { writeCii } from "../../src/syntax/cii/write";
import { targetOf } from "../../src/syntax/cii/profiles";
import { extractInvoiceXml } from "../../src/pdf/attachments";
import { corpusFile, corpusMissing, corpusRows } from "../support/corpus";
import { cannotRun } from "../support/requirements";

let engine: Engine;
beforeAll(() => {
  engine = createEngine(rulesetBundle());
});

async function judge(bytes: Uint8Array, hybrid: boolean) {
  // A hybrid's XML is judged as the Factur-X level it declares, as validate does for the PDF.
  const record = hybrid ? detect(bytes, { hybrid: true }).record?.id : undefined;
  const outcome = await validateDocument(engine, { bytes, record });
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.result;
}

const errorIds = (r: { errors: { ruleId: string }[] }) => [...new Set(r.errors.map((e) => e.ruleId))].sort();

describe.skipIf(cannotRun("corpus round trip keeps the verdict", corpusMissing))("corpus round trip keeps the verdict", () => {
  test("every valid UBL and CII document, rewritten from the model, is judged as the original", async () => {
    const counts = { documents: 0, same: 0, stillValid: 0 };
    const differences: string[] = [];
    const broken: string[] = [];
    for (const row of corpusRows()) {
      if (row.expectedValid !== true || !["ubl", "cii", "pdf"].includes(row.syntax)) continue;
      let bytes = corpusFile(row);
      if (!bytes) continue;
      const hybrid = row.syntax === "pdf";
      if (hybrid) {
        const extracted = await extractInvoiceXml(bytes);
        if (!extracted.ok) continue;
        bytes = extracted.xml;
      }
      const detection = detect(bytes, { hybrid });
      if (detection.format !== "ubl" && detection.format !== "cii") continue;
      const rewritten =
        detection.format === "ubl"
          ? writeUbl(readUbl(bytes))
          : writeCii(readCii(bytes), targetOf(detection.customizationId ?? "", { hybrid })).xml;
      const [before, after] = [await judge(bytes, hybrid), await judge(new TextEncoder().encode(rewritten), hybrid)];
      counts.documents++;
      if (before.valid === after.valid && JSON.stringify(errorIds(before)) === JSON.stringify(errorIds(after))) counts.same++;
      else differences.push(`${row.path}: ${before.valid ? "valid" : `invalid ${errorIds(before)}`} -> ${after.valid ? "valid" : `invalid ${errorIds(after)}`}`);
      if (before.valid && after.valid) counts.stillValid++;
      if (before.valid && !after.valid) broken.push(`${row.path}: valid -> invalid ${errorIds(after)}`);
    }
    console.log(`round trip verdicts: ${counts.documents} documents, ${counts.same} judged the same, ${counts.stillValid} valid before and after`);
    for (const d of differences) console.log(`  ${d}`);
    expect(counts.documents).toBeGreaterThan(200);
    expect(broken).toEqual([]);
  }, 900_000);
});
