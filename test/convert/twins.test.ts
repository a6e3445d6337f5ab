// The XRechnung test suite publishes each business case in both syntaxes. Converting one twin into
// the other's syntax must say what the other twin says: the two read into equal EN 16931 models
// (decimals compared by value), and parse answers the same invoice. No converter we know of is held
// to this; any difference fails here.

import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { convertDocument, type ConvertOrder } from "../../src/convert/convert.ts";
import { modelDifferences } from "../../src/convert/model-diff.ts";
import { parseDocument } from "../../src/generate/parse.ts";
import { bindingOf } from "../../src/syntax/registry.ts";
import { createEngine } from "../../src/validation/engine.ts";
import { validateDocument } from "../../src/validation/validate.ts";
import { rulesetBundle } from "../../src/assets/bundle.ts";
import { DomainError } from "../../src/errors/domain-error.ts";
import { CORPUS_DIR, corpusMissing } from "../support/corpus.ts";
import { buildMissing, cannotRun } from "../support/requirements.ts";

const skip = cannotRun("XRechnung twins", corpusMissing ?? buildMissing());
const DIR = join(CORPUS_DIR, "xrechnung-testsuite/src/test/business-cases/standard");

const twins = skip ? [] : readdirSync(DIR).filter((f) => f.endsWith("_uncefact.xml")).map((cii) => ({ cii, ubl: cii.replace("_uncefact.xml", "_ubl.xml") })).filter((t) => readdirSync(DIR).includes(t.ubl));

const read = (bytes: Uint8Array, syntax: "cii" | "ubl") => bindingOf(syntax).read(bytes);

describe.skipIf(skip)("XRechnung twins: convert(one) says what the other says", () => {
  const engine = createEngine(rulesetBundle());
  const judge = (request: Parameters<typeof validateDocument>[1]) => validateDocument(engine, request);
  const convert = (bytes: Uint8Array, targetFormat: "cii" | "ubl") =>
    convertDocument({ bytes, query: { targetFormat }, livemode: true, judge: { ruleset: undefined } } satisfies ConvertOrder, { judge });

  test("there are twins to compare", () => expect(twins.length).toBeGreaterThanOrEqual(16));

  for (const { cii, ubl } of twins) {
    for (const [from, to, target] of [[cii, ubl, "ubl"], [ubl, cii, "cii"]] as const) {
      test(`${from} -> ${target} equals ${to}`, async () => {
        const source = new Uint8Array(await Bun.file(join(DIR, from)).arrayBuffer());
        const twin = new Uint8Array(await Bun.file(join(DIR, to)).arrayBuffer());
        let converted: Uint8Array;
        try {
          converted = (await convert(source, target)).file;
        } catch (error) {
          if (error instanceof DomainError) throw new Error(`${error.code}: ${error.message} ${JSON.stringify(error.details?.unmappablePaths ?? [])}`);
          throw error;
        }
        expect(modelDifferences(read(twin, target), read(converted, target))).toEqual([]);
        const [mine, theirs] = await Promise.all([parseDocument(converted), parseDocument(twin)]);
        expect(modelDifferences(theirs.invoice, mine.invoice)).toEqual([]);
      });
    }
  }
});
