// Every valid UBL and CII document of the EN 16931 family in the corpus, converted into the other
// syntax and back, reads into the model it started as; where it cannot, convert refused it and
// named what it could not carry. Nothing changes silently: a difference that is neither is a failure.

import { describe, expect, test } from "bun:test";
import { converter } from "../support/convert.ts";
import { modelDifferences } from "../../src/convert/model-diff.ts";
import { DomainError } from "../../src/errors/domain-error.ts";
import { detect } from "../../src/syntax/detect.ts";
import { bindingOf } from "../../src/syntax/registry.ts";
import { isEn16931Syntax } from "../../src/profiles/ids.ts";
import { isPdf } from "../../src/pdf/sniff.ts";
import { corpusFile, corpusMissing, corpusRows } from "../support/corpus.ts";
import { buildMissing, cannotRun } from "../support/requirements.ts";

const skip = cannotRun("convert round trips over the corpus", corpusMissing ?? buildMissing());

describe.skipIf(skip)("source -> other syntax -> source", () => {
  test("reproduces the source's model, or is refused naming what it cannot carry", async () => {
    const converting = converter();
    const convert = (bytes: Uint8Array, targetFormat: "cii" | "ubl") => converting(bytes, { targetFormat });
    const outcomes = { same: 0, refused: new Map<string, number>(), invalid: new Map<string, number>() };
    const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
    const changed: string[] = [];
    let documents = 0;
    for (const row of corpusRows()) {
      if (row.expectedValid !== true) continue;
      const bytes = corpusFile(row)!;
      if (isPdf(bytes)) continue;
      const syntax = detect(bytes).format;
      if (!isEn16931Syntax(syntax)) continue;
      documents++;
      const other = syntax === "cii" ? "ubl" : "cii";
      try {
        const there = await convert(bytes, other);
        const back = await convert(there.file, syntax);
        const differences = modelDifferences(bindingOf(syntax).read(bytes), bindingOf(syntax).read(back.file)).filter((d) => d.path !== "/processControl/specificationIdentifier");
        if (differences.length) changed.push(`${row.path}: ${differences.map((d) => `${d.path} ${JSON.stringify(d.before)} -> ${JSON.stringify(d.after)}`).join("; ")}`);
        else outcomes.same++;
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        if (error.code === "CONVERSION_LOSSY_FAILCLOSED") {
          // Every refusal names its places; tally them without positions, the work list for lossless bindings.
          for (const path of error.details!.unmappablePaths as string[]) count(outcomes.refused, path.replace(/\[\d+\]/g, ""));
        } else if (error.code === "INVALID_INVOICE") count(outcomes.invalid, `${row.path}: ${((error.details!.validationResult as { errors: { ruleId: string }[] }).errors.map((e) => e.ruleId)).join(",")}`);
        else throw new Error(`${row.path}: ${error.code} ${error.message}`);
      }
    }
    const refusedDocs = documents - outcomes.same - changed.length - [...outcomes.invalid.values()].reduce((a, b) => a + b, 0);
    console.log(`convert round trips: ${documents} valid UBL/CII documents, ${outcomes.same} come back as they were, ${refusedDocs} refused naming what they cannot carry, ${outcomes.invalid.size} invalid in the other syntax, ${changed.length} changed silently`);
    for (const [path, n] of [...outcomes.refused].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`  refused ${n}x: ${path}`);
    for (const [doc] of outcomes.invalid) console.log(`  invalid: ${doc}`);
    expect(changed).toEqual([]);
    expect(documents).toBeGreaterThan(100);
    // The documents the bindings carry whole, a floor to raise as they grow: fewer is a regression.
    expect(outcomes.same).toBeGreaterThanOrEqual(172);
  }, 600_000);
});
