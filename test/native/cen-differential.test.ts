// The native engine against the reference: the CEN EN 16931 .sch compiled to a native plan must
// judge every corpus document of its syntax exactly like the CEN-published XSLT on Saxon-HE
// (same findings: ids, flags, locations, messages, order; or the same error code when the rules
// stop). Default: an evenly spread sample of 150 documents per syntax; FULL=1 compares the corpus.
// Timings are printed, never asserted.

import { describe, expect, test } from "bun:test";
import { readFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { saxonHeUnavailable } from "../support/saxon-he.ts";
import { cannotRun } from "../support/requirements.ts";
import { CEN_BINDINGS, corpusRows, RULESETS, sample, sharedUnavailable } from "../schematron/corpus.ts";
import { describeReport, differential, saxonPerDocumentMs } from "./differential.ts";

const skip = cannotRun("native engine vs CEN XSLT", sharedUnavailable() ?? saxonHeUnavailable());

const bindings = CEN_BINDINGS;

describe.skipIf(skip)("native engine agrees with the CEN-published XSLT on Saxon-HE", () => {
  for (const binding of bindings) {
    test(
      `CEN ${binding.syntax} over the corpus`,
      async () => {
        const documents = sample(
          corpusRows((row) => row.syntax === binding.syntax).map((row) => row.path),
          150,
        );
        const xslt = join(RULESETS, binding.xslt);
        const report = await differential(join(RULESETS, binding.sch), xslt, documents);
        const saxonMs = await saxonPerDocumentMs(xslt, report, documents[0]);
        console.log(`${describeReport(`CEN ${binding.syntax}`, report)}; Saxon-HE ~${saxonMs.toFixed(2)} ms per document (batch, JVM start and compile excluded)`);
        expect(report.differences).toEqual([]);
      },
      30 * 60_000,
    );
  }

  test(
    "CEN UBL on invoices of 10 to 1,000 lines: identical findings (native time printed)",
    async () => {
      const base = corpusRows((row) => row.syntax === "ubl" && row.path.endsWith("01.01a-INVOICE_ubl.xml"))[0].path;
      const xml = readFileSync(base, "utf8");
      const line = /<cac:InvoiceLine>[\s\S]*?<\/cac:InvoiceLine>/.exec(xml)![0];
      const work = mkdtempSync(join(tmpdir(), "native-lines-"));
      const sizes = [10, 100, 1000];
      const documents = sizes.map((lines) => {
        const path = join(work, `lines-${lines}.xml`);
        const body = Array.from({ length: lines }, (_, i) => line.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, `<cbc:ID>${i + 1}</cbc:ID>`)).join("\n");
        writeFileSync(path, xml.replace(/<cac:InvoiceLine>[\s\S]*<\/cac:InvoiceLine>/, body));
        return path;
      });
      const ubl = bindings[0];
      const report = await differential(join(RULESETS, ubl.sch), join(RULESETS, ubl.xslt), documents);
      console.log(sizes.map((lines, i) => `${lines} lines: native ${report.nativeMs[i].toFixed(1)} ms`).join(", "));
      expect(report.differences).toEqual([]);
    },
    10 * 60_000,
  );
});
