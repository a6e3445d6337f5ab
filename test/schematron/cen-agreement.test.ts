// Proof of the compiler: the CEN EN 16931 .sch compiled here must judge every corpus document of
// its syntax exactly like the XSLT that CEN publishes, both run on Saxon-HE (the reference engine).
// Default: a deterministic sample of 150 documents per syntax; FULL=1 compares the whole corpus.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { schematronToXslt } from "../../src/schematron/compile.ts";
import { runSaxonHe, saxonHeUnavailable } from "../support/saxon-he.ts";
import { cannotRun } from "../support/requirements.ts";
import { CEN_BINDINGS, corpusRows, RULESETS, sample, sharedUnavailable } from "./corpus.ts";
import { compareResults } from "./findings.ts";

const skip = cannotRun("CEN agreement", sharedUnavailable() ?? saxonHeUnavailable());

const bindings = CEN_BINDINGS;

describe.skipIf(skip)("compiled CEN EN 16931 Schematron agrees with the CEN-published XSLT on Saxon-HE", () => {
  for (const binding of bindings) {
    test(
      binding.syntax,
      async () => {
        const compiled = join(mkdtempSync(join(tmpdir(), "sch-cen-")), `${binding.syntax}.xslt`);
        writeFileSync(compiled, await schematronToXslt(join(RULESETS, binding.sch)));
        const documents = sample(
          corpusRows((row) => row.syntax === binding.syntax).map((row) => row.path),
          150,
        );
        const ours = await runSaxonHe(compiled, documents);
        const reference = await runSaxonHe(join(RULESETS, binding.xslt), documents);

        let identical = 0;
        let bothStopped = 0;
        const differing: string[] = [];
        for (const document of documents) {
          const comparison = compareResults(ours.get(document)!, reference.get(document)!);
          if (!comparison.same) differing.push(`${document}\n${comparison.difference}`);
          else if (comparison.failed) bothStopped++;
          else identical++;
        }
        console.log(
          `CEN ${binding.syntax}: ${documents.length} documents compared, ${identical} identical (findings, fired rules, tests), ` +
            `${bothStopped} stopped with the same error on both, ${differing.length} differing`,
        );
        expect(differing).toEqual([]);
      },
      30 * 60_000,
    );
  }
});
