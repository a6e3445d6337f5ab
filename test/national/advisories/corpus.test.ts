// The corpus FatturaPA and Facturae documents through validate: which draw which national
// advisories, printed for the record. An advisory is a warning and never changes `valid`
// (test/conformance/corpus-verdicts.test.ts holds the verdicts themselves).

import { expect, test } from "bun:test";
import { corpusFile, corpusMissing, corpusRows } from "../../support/corpus.ts";
import { cannotRun } from "../../support/requirements.ts";
import { advisoryIds, judge } from "./support.ts";

const skip = cannotRun("national advisories over the corpus", corpusMissing);

test.skipIf(skip)("corpus FatturaPA and Facturae documents: advisories are warnings, listed per document", async () => {
  const rows = corpusRows().filter((r) => r.syntax === "fatturapa" || r.syntax === "facturae");
  expect(rows.length).toBeGreaterThan(0);
  const drawn = new Map<string, number>();
  const report: string[] = [];
  let judged = 0;
  for (const row of rows) {
    const bytes = corpusFile(row);
    if (!bytes) continue;
    const result = await judge(bytes);
    judged++;
    for (const finding of result.errors) expect(finding.ruleId).not.toEndWith("_NOT_ENFORCED");
    const ids = advisoryIds(result);
    for (const id of ids) drawn.set(id, (drawn.get(id) ?? 0) + 1);
    if (ids.length) report.push(`  ${row.path} (valid ${result.valid}): ${ids.join(", ")}`);
  }
  console.log(`national advisories over ${judged} corpus documents, ${report.length} drawing one or more:\n${report.join("\n")}\nper advisory: ${JSON.stringify(Object.fromEntries([...drawn].sort()))}`);
  expect(judged).toBe(rows.length);
});
