// Peppol BIS 3 and Romania CIUS-RO publish only Schematron: compile their .sch here, run the result on
// Saxon-HE over their corpus documents, and check the upstream expectations (rule ids that must or
// must not fire, documents that must pass). Also compile one result with xslt3 -export, as the
// service runs SaxonJS on the SEF, and check SaxonJS reports the same findings as Saxon-HE.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import SaxonJS from "saxon-js";
import { schematronToXslt } from "../../src/schematron/compile.ts";
import { parseSvrl } from "../../src/validation/svrl.ts";
import type { Finding } from "../../src/schematron/finding.ts";
import { runSaxonHe, saxonHeUnavailable, type SaxonResult } from "../support/saxon-he.ts";
import { cannotRun } from "../support/requirements.ts";
import { corpusRows, RULESETS, sample, type CorpusRow } from "./corpus.ts";
import { sharedUnavailable } from "./corpus.ts";

const skip = cannotRun("Peppol and CIUS-RO Schematron", sharedUnavailable() ?? saxonHeUnavailable());
const work = mkdtempSync(join(tmpdir(), "sch-authority-"));
const TIMEOUT = 30 * 60_000;

/** Upstream verdicts that are not the Peppol rules' own, with the reason. */
const NOT_PEPPOL_VERDICTS: Record<string, string> = {
  "mustangproject/validator/src/test/resources/EN16931_Einfach.ubl.xml":
    "valid per the Mustang validator, which downgrades Peppol rules; PEPPOL-EN16931-R003/R010/R020 and DE-R-001/002/015 fire as errors",
};

async function compile(sch: string): Promise<string> {
  const xsl = join(work, `${sch.replace(/[^\w.]+/g, "_")}.xslt`);
  writeFileSync(xsl, await schematronToXslt(join(RULESETS, sch)));
  return xsl;
}

/** Findings of all runs on one document, or null when any run stopped on it. */
function findingsOf(results: SaxonResult[]): Finding[] | null {
  const findings: Finding[] = [];
  for (const result of results) {
    if (result.error !== null) return null;
    try {
      findings.push(...parseSvrl(result.svrl!));
    } catch {
      return null; // a stop mid-document leaves truncated SVRL
    }
  }
  return findings;
}

/** What contradicts the row's upstream expectations (empty when it agrees). */
function disagreements(row: CorpusRow, findings: Finding[]): string[] {
  const withFlag = (flag: string) => new Set(findings.filter((f) => f.flag === flag).map((f) => f.ruleId));
  const errors = withFlag("fatal");
  const warnings = withFlag("warning");
  const fired = new Set(findings.map((f) => f.ruleId));
  return [
    ...row.expectedRuleIds.filter((id) => !errors.has(id)).map((id) => `${id} did not fire as an error`),
    ...row.expectedWarningRuleIds.filter((id) => !warnings.has(id)).map((id) => `${id} did not fire as a warning`),
    ...row.expectedAbsentRuleIds.filter((id) => fired.has(id)).map((id) => `${id} fired`),
    ...(row.expectedValid === true && errors.size > 0 ? [`expected valid, errors: ${[...errors].join(", ")}`] : []),
  ];
}

function corpusPath(row: CorpusRow): string {
  return row.path.slice(row.path.indexOf("/corpus/") + "/corpus/".length);
}

describe.skipIf(skip)("Peppol BIS 3.0.19 compiled here, on Saxon-HE", () => {
  for (const syntax of ["ubl", "cii"] as const) {
    test(
      `${syntax}: CEN + PEPPOL rules meet the upstream expectations`,
      async () => {
        const binding = syntax.toUpperCase();
        const rows = sample(
          corpusRows((row) => row.profile === "peppol" && row.syntax === syntax),
          150,
        );
        const documents = rows.map((row) => row.path);
        const cen = await runSaxonHe(await compile(`peppol_bis_schematron/3.0.19/rules/sch/CEN-EN16931-${binding}.sch`), documents);
        const peppol = await runSaxonHe(await compile(`peppol_bis_schematron/3.0.19/rules/sch/PEPPOL-EN16931-${binding}.sch`), documents);

        let agreeing = 0;
        let stopped = 0;
        const known: string[] = [];
        const failures: string[] = [];
        for (const row of rows) {
          const findings = findingsOf([cen.get(row.path)!, peppol.get(row.path)!]);
          if (findings === null) {
            stopped++;
            if (row.expectedRuleIds.length > 0 || row.expectedValid === true) failures.push(`${corpusPath(row)}: the rules stopped on it`);
            continue;
          }
          const problems = disagreements(row, findings);
          if (problems.length === 0) agreeing++;
          else if (NOT_PEPPOL_VERDICTS[corpusPath(row)]) known.push(corpusPath(row));
          else failures.push(`${corpusPath(row)}: ${problems.join("; ")}`);
        }
        console.log(
          `Peppol 3.0.19 ${syntax}: ${rows.length} documents, ${agreeing} meet the upstream expectations, ` +
            `${stopped} stopped (no error or validity expected of them), ${known.length} known non-Peppol verdicts, ${failures.length} failing`,
        );
        expect(failures).toEqual([]);
      },
      TIMEOUT,
    );
  }
});

describe.skipIf(skip)("Peppol BIS 3.0.18 compiled here, on Saxon-HE", () => {
  for (const syntax of ["ubl", "cii"] as const) {
    test(
      `${syntax}: both rule files run over corpus documents`,
      async () => {
        const binding = syntax.toUpperCase();
        const documents = sample(corpusRows((row) => row.profile === "peppol" && row.syntax === syntax), 40).map(
          (row) => row.path,
        );
        for (const sch of [`CEN-EN16931-${binding}.sch`, `PEPPOL-EN16931-${binding}.sch`]) {
          const results = await runSaxonHe(await compile(`peppol_bis_schematron/3.0.18/rules/sch/${sch}`), documents);
          const reports = [...results.values()].filter((result) => findingsOf([result]) !== null);
          // A few unit-test fragments make the rules stop (several items where one is expected).
          expect(reports.length).toBeGreaterThan(documents.length * 0.9);
        }
      },
      TIMEOUT,
    );
  }
});

describe.skipIf(skip)("Romania CIUS-RO 1.0.9 compiled here, on Saxon-HE", () => {
  test(
    "the documents upstream lists as valid pass",
    async () => {
      const rows = corpusRows((row) => row.profile === "romania-ro-cius" && row.syntax === "ubl");
      const xsl = await compile("romania_ro_cius_schematron/1.0.9/ro16931-ubl-1.0.9/EN16931-CIUS_RO-UBL-validation.sch");
      const results = await runSaxonHe(xsl, rows.map((row) => row.path));
      const failures: string[] = [];
      for (const row of rows) {
        const findings = findingsOf([results.get(row.path)!]);
        if (findings === null) failures.push(`${corpusPath(row)}: the rules stopped on it`);
        else if (disagreements(row, findings).length > 0) failures.push(`${corpusPath(row)}: ${disagreements(row, findings).join("; ")}`);
      }
      expect(rows.filter((row) => row.expectedValid === true).length).toBeGreaterThan(0);
      expect(failures).toEqual([]);
    },
    TIMEOUT,
  );
});

describe.skipIf(skip)("SaxonJS runs a compiled Peppol stylesheet", () => {
  test(
    "xslt3 -export compiles PEPPOL-EN16931-UBL 3.0.19 and the SEF finds what Saxon-HE finds",
    async () => {
      const xsl = await compile("peppol_bis_schematron/3.0.19/rules/sch/PEPPOL-EN16931-UBL.sch");
      const sef = join(work, "peppol-ubl.sef.json");
      const xslt3 = Bun.spawnSync(
        [resolve(import.meta.dir, "../../node_modules/.bin/xslt3"), `-xsl:${xsl}`, `-export:${sef}`, "-nogo", "-relocate:on"],
        { stdout: "pipe", stderr: "pipe" },
      );
      expect(xslt3.stderr.toString()).toBe("");
      expect(xslt3.exitCode).toBe(0);

      const documents = corpusRows(
        (row) => row.profile === "peppol" && row.syntax === "ubl" && row.path.includes("/rules/examples/"),
      ).map((row) => row.path);
      expect(documents.length).toBeGreaterThan(0);
      const reference = await runSaxonHe(xsl, documents);
      for (const document of documents) {
        const result = await SaxonJS.transform(
          { stylesheetFileName: sef, sourceText: readFileSync(document, "utf8"), destination: "serialized" },
          "async",
        );
        expect(parseSvrl(result.principalResult as string)).toEqual(parseSvrl(reference.get(document)!.svrl!));
      }
    },
    TIMEOUT,
  );
});
