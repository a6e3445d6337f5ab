// The XRechnung test suite publishes each business case in both syntaxes. Converting one twin into
// the other's syntax must say what the other twin says: the two read into equal EN 16931 models
// (decimals compared by value), and parse answers the same invoice. No converter we know of is held
// to this; any difference fails here.

import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { converter } from "../support/convert.ts";
import { modelDifferences } from "../../src/convert/model-diff.ts";
import { parseDocument } from "../../src/generate/parse.ts";
import { bindingOf } from "../../src/syntax/registry.ts";
import { DomainError } from "../../src/errors/domain-error.ts";
import { CORPUS_DIR, corpusMissing } from "../support/corpus.ts";
import { buildMissing, cannotRun } from "../support/requirements.ts";

const skip = cannotRun("XRechnung twins", corpusMissing ?? buildMissing());
const DIR = join(CORPUS_DIR, "xrechnung-testsuite/src/test/business-cases/standard");

const twins = skip ? [] : readdirSync(DIR).filter((f) => f.endsWith("_uncefact.xml")).map((cii) => ({ cii, ubl: cii.replace("_uncefact.xml", "_ubl.xml") })).filter((t) => readdirSync(DIR).includes(t.ubl));

/**
 * Where the published twins themselves say different things (read into the model, whichever
 * direction): the converted document must say what its source says there, not what the other twin
 * says. Checked by hand against the files.
 */
const TWINS_DISAGREE: Record<string, string[]> = {
  // The UBL twins fill the order id UBL requires beside a sales order id with "Dummywert".
  "01.02a": ["/purchaseOrderReference"],
  "01.08a": ["/purchaseOrderReference"],
  "01.10a": ["/purchaseOrderReference"],
  "01.12a": ["/purchaseOrderReference"],
  // The CII twins state a rounding amount of 0, the UBL twins none.
  "02.02a": ["/totals/roundingAmount"],
  "02.04a": ["/totals/roundingAmount"],
  // The UBL twin has city and post code swapped, for both parties.
  "03.06a": ["/seller/address/city", "/seller/address/postCode", "/buyer/address/city", "/buyer/address/postCode"],
  // The twins give different exemption reason and payment means texts and seller VAT ids, the CII
  // twin an allowance total of 0 and an exemption reason on its line, which the UBL twin has not.
  "01.21a": ["/vatBreakdown/0/exemptionReason", "/paymentInstructions/meansText", "/seller/vatId", "/totals/allowanceTotal", "/lines/0/vat/exemptionReason"],
};

/**
 * Twins holding something the other syntax does not carry, by source syntax: convert refuses them,
 * naming exactly that (nothing silent).
 */
const TWINS_REFUSED: Record<string, { cii?: string[]; ubl?: string[] }> = {
  // A line's VAT exemption reason (EXT-FR-FE-178), which the CEN rules keep off a UBL line (UBL-CR-601).
  "01.21a": { cii: ["model:/lines/0/vat/exemptionReason"] },
};

const read = (bytes: Uint8Array, syntax: "cii" | "ubl") => bindingOf(syntax).read(bytes);

describe.skipIf(skip)("XRechnung twins: convert(one) says what the other says", () => {
  const converting = converter();
  const convert = (bytes: Uint8Array, targetFormat: "cii" | "ubl") => converting(bytes, { targetFormat });

  test("there are twins to compare", () => expect(twins.length).toBeGreaterThanOrEqual(16));

  for (const { cii, ubl } of twins) {
    for (const [from, to, target] of [[cii, ubl, "ubl"], [ubl, cii, "cii"]] as const) {
      test(`${from} -> ${target} equals ${to}`, async () => {
        const source = new Uint8Array(await Bun.file(join(DIR, from)).arrayBuffer());
        const twin = new Uint8Array(await Bun.file(join(DIR, to)).arrayBuffer());
        const refused = TWINS_REFUSED[from.slice(0, 6)]?.[target === "ubl" ? "cii" : "ubl"];
        if (refused) {
          const error = await convert(source, target).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(DomainError);
          expect(error).toMatchObject({ code: "CONVERSION_LOSSY_FAILCLOSED", details: { unmappablePaths: refused } });
          return;
        }
        let converted: Uint8Array;
        try {
          converted = (await convert(source, target)).file;
        } catch (error) {
          if (error instanceof DomainError) throw new Error(`${error.code}: ${error.message} ${JSON.stringify(error.details?.unmappablePaths ?? [])}`);
          throw error;
        }
        // The model is the syntaxes' common ground: the converted document differs from its twin
        // exactly where the source itself differs from it, and where the twins agree, so does it.
        const sourceSays = modelDifferences(read(twin, target), read(source, target === "ubl" ? "cii" : "ubl"));
        expect(modelDifferences(read(twin, target), read(converted, target))).toEqual(sourceSays);
        expect(sourceSays.map((d) => d.path)).toEqual(TWINS_DISAGREE[from.slice(0, 6)] ?? []);
        const [mine, theirs, original] = await Promise.all([parseDocument(converted), parseDocument(twin), parseDocument(source)]);
        expect(modelDifferences(theirs.invoice, mine.invoice)).toEqual(modelDifferences(theirs.invoice, original.invoice));
      });
    }
  }
});
