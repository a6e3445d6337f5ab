// The native engine on the XSLT the XRechnung pipeline actually runs: KoSIT's SchXslt 1.10.1 output
// for XRechnung 2.5.0, read back by `readSchxslt`, must judge the corpus documents of profile
// `xrechnung` exactly like Saxon-HE running the ORIGINAL pinned .xsl: same findings (ids, flags,
// SchXslt locations, messages, order), or the same error code when the rules stop. The XRechnung
// documents mostly pass, so the other documents of the same syntax (Peppol, CEN, Factur-X, ...) are
// judged too: they make the rules fire thousands of times. Default: an evenly spread sample of at
// most 150 documents per set; FULL=1 compares every document.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileSchema } from "../../src/native/engine.ts";
import { readSchxslt } from "../../src/native/from-xslt/schxslt.ts";
import { sourceKindOf } from "../../src/native/source.ts";
import { saxonHeUnavailable } from "../support/saxon-he.ts";
import { cannotRun } from "../support/requirements.ts";
import { corpusRows, RULESETS, sample, sharedUnavailable } from "../schematron/corpus.ts";
import { differentialPlan } from "./differential.ts";

const skip = cannotRun("native engine vs SchXslt XRechnung XSLT on Saxon-HE", sharedUnavailable() ?? saxonHeUnavailable());

const XRECHNUNG = "xrechnung_schematron/2.5.0/schematron";
const bindings = [
  { label: "XRechnung 2.5.0 UBL (SchXslt)", syntax: "ubl", xslt: `${XRECHNUNG}/ubl/XRechnung-UBL-validation.xsl` },
  { label: "XRechnung 2.5.0 CII (SchXslt)", syntax: "cii", xslt: `${XRECHNUNG}/cii/XRechnung-CII-validation.xsl` },
];

/** Differences accepted as explained exceptions, by label, each with its cause. Empty: none is known. */
const KNOWN_DIFFERENCES: Record<string, { cause: string }> = {};

describe.skipIf(skip)("native engine on SchXslt's published XRechnung XSLT agrees with Saxon-HE", () => {
  for (const binding of bindings) {
    for (const set of ["xrechnung", "other"] as const) {
      test(
        `${binding.label} over the ${set === "xrechnung" ? "xrechnung" : "non-xrechnung"} ${binding.syntax} corpus`,
        async () => {
          const documents = sample(
            corpusRows((row) => (row.profile === "xrechnung") === (set === "xrechnung") && row.syntax === binding.syntax).map((row) => row.path),
            150,
          );
          expect(documents.length).toBeGreaterThan(0);
          const xslt = join(RULESETS, binding.xslt);
          const text = readFileSync(xslt, "utf8");
          expect(sourceKindOf(xslt, text)).toBe("schxslt");
          const plan = compileSchema(readSchxslt(text, xslt));
          const result = await differentialPlan(plan, xslt, documents);
          console.log(
            `${binding.label}, ${set} documents: ${documents.length} documents, ${result.identical} identical (${result.findings} findings), ` +
              `${result.bothStopped} stopped with the same error on both, ${result.differences.length} differing`,
          );
          for (const difference of result.differences.slice(0, 5)) {
            console.log(`  ${difference.document}\n    native:   ${difference.native.join("\n              ")}\n    Saxon-HE: ${difference.reference.join("\n              ")}`);
          }
          const known = KNOWN_DIFFERENCES[binding.label];
          if (known) console.log(`  known exception: ${known.cause}`);
          else expect(result.differences).toEqual([]);
          // The comparison must have seen findings, or equal empty outcomes would prove nothing.
          expect(result.findings).toBeGreaterThan(0);
        },
        30 * 60_000,
      );
    }
  }
});
