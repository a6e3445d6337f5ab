// The France CTC rule files no catalogue record runs, judged natively against the same pinned files
// on Saxon-HE: the two UBL Flux2 WARNING files (the error files run as overlays and are compared in
// skeleton-differential and mutant-differential) and the two CDAR files, which judge lifecycle
// messages (CrossDomainAcknowledgementAndResponse). Each on real documents and on mutants of them
// (mutants.ts), with identical findings or the same stop on both.
//
// Documents: for UBL, EN 16931 UBL corpus documents (the rules judge any UBL invoice; mutants start
// from the valid ones); for CDAR, which neither the corpus nor the France CTC release has examples
// of, the messages in ./cdar: a paid invoice, a refusal full of errors (two referenced documents,
// wrong codes), a rejection with a reason; with comments and processing instructions at the top
// level and inside, which the CDAR traversal (`*|comment()|processing-instruction()`) selects.
//
// The UBL files' rule contexts include `(ubl:Invoice | cn:CreditNote)[…]/(cac:InvoiceLine |
// cac:CreditNoteLine)/cac:BillingReference[… = $invoiceID]`, which Saxon-HE 9.9 cannot compile:
// Saxon-HE runs the copy saxon-he-reference.ts spells as a union. No corpus document reaches those
// rules (a corrective invoice of a multi-vendor contract whose lines refer to it), so the last test
// writes three that do, for all four UBL Flux2 files.

import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { readRuleSource } from "../../src/native/source.ts";
import { readXml } from "../../src/native/xml-reader.ts";
import { saxonHeUnavailable } from "../support/saxon-he.ts";
import { cannotRun } from "../support/requirements.ts";
import { corpusRows, RULESETS, sample, sharedUnavailable } from "../schematron/corpus.ts";
import { runPlan } from "../../src/native/engine.ts";
import { describeReport, differentialPlan, planOfFile } from "./differential.ts";
import { mutate } from "./mutants.ts";
import { saxonHeReference } from "./saxon-he-reference.ts";

const skip = cannotRun("France CTC WARNING and CDAR files, native vs Saxon-HE", sharedUnavailable() ?? saxonHeUnavailable());

const FRANCE = "france_ctc_schematron/1.4.0.02";
const CDAR_DIR = join(import.meta.dir, "cdar");
const DOCUMENTS = 120;
const MUTANTS = 300;

/** The documents a file judges, and the seeds of its mutants (valid ones, as in mutant-differential). */
interface Inputs {
  documents(): string[];
  seeds(): string[];
}

const ubl: Inputs = {
  documents: () => sample(corpusRows((row) => row.profile === "en16931" && row.syntax === "ubl").map((row) => row.path), DOCUMENTS),
  seeds: () => corpusRows((row) => row.profile === "en16931" && row.syntax === "ubl" && row.expectedValid === true).map((row) => row.path),
};
const cdarMessages = () => readdirSync(CDAR_DIR).filter((name) => name.endsWith(".xml")).sort().map((name) => join(CDAR_DIR, name));
const cdar: Inputs = { documents: cdarMessages, seeds: cdarMessages };

const FILES = [
  { xslt: `${FRANCE}/UBL/EN16931/2xslt/BR-FR-Flux2-Schematron-UBL_WARNING.xslt`, inputs: ubl },
  { xslt: `${FRANCE}/UBL/EXTENDED-CTC-FR/2xslt/BR-FR-Flux2-Schematron-UBL_WARNING.xslt`, inputs: ubl },
  { xslt: `${FRANCE}/CDAR/2xslt/BR-FR-CDV-Schematron-CDAR.xslt`, inputs: cdar },
  { xslt: `${FRANCE}/CDAR/2xslt/BR-FR-CDV-Schematron-CDAR_WARNING.xslt`, inputs: cdar },
];

const work = mkdtempSync(join(tmpdir(), "native-france-ctc-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Mutants spread evenly over the seeds, written to the work folder; each well-formed. */
function mutants(seeds: string[], label: string): string[] {
  const folder = join(work, label);
  mkdirSync(folder, { recursive: true });
  return Array.from({ length: MUTANTS }, (_, k) => {
    const source = seeds[k % seeds.length];
    const mutant = mutate(readFileSync(source, "utf8"), basename(source), Math.floor(k / seeds.length));
    readXml(mutant.xml);
    const file = join(folder, `${String(k).padStart(4, "0")}-${basename(source)}`);
    writeFileSync(file, mutant.xml);
    return file;
  });
}

describe.skipIf(skip)("France CTC files no record runs: native agrees with Saxon-HE", () => {
  for (const { xslt, inputs } of FILES) {
    const label = xslt.slice(FRANCE.length + 1);
    test(
      label,
      async () => {
        const path = join(RULESETS, xslt);
        expect(readRuleSource(path).kind).toBe("iso-skeleton");
        const plan = planOfFile(path);
        const reference = saxonHeReference(path, work);
        const documents = inputs.documents();
        const seeds = inputs.seeds();
        expect(documents.length).toBeGreaterThan(0);
        expect(seeds.length).toBeGreaterThan(0);
        for (const [kind, judged] of [
          ["documents", documents],
          ["mutants", mutants(seeds, label.replace(/\W/g, "_"))],
        ] as const) {
          const report = await differentialPlan(plan, reference, judged);
          console.log(describeReport(`${label} (${kind})`, report));
          for (const difference of report.differences.slice(0, 5)) {
            console.log(`  ${difference.document}\n    native only: ${difference.native.join("\n      ")}\n    Saxon-HE only: ${difference.reference.join("\n      ")}`);
          }
          expect(report.differences).toEqual([]);
          // Findings, not only agreeing silence.
          expect(report.findings).toBeGreaterThan(0);
        }
      },
      10 * 60_000,
    );
  }
});

/**
 * A valid EN 16931 UBL invoice made a corrective invoice (384) of a multi-vendor contract (profile
 * M8) whose first line refers to the invoice itself: as a GROUP without a line reference (the
 * BillingReference rule context matches), a GROUP with one, a DETAIL.
 */
function billingReferenceDocuments(): string[] {
  const seed = ubl.seeds().find((path) => readFileSync(path, "utf8").includes("<cac:InvoiceLine>"))!;
  let xml = readFileSync(seed, "utf8").replace(/<cbc:InvoiceTypeCode>[^<]*</, "<cbc:InvoiceTypeCode>384<");
  xml = xml.includes("<cbc:ProfileID>") ? xml.replace(/<cbc:ProfileID>[^<]*</, "<cbc:ProfileID>M8<") : xml.replace("<cbc:ID>", "<cbc:ProfileID>M8</cbc:ProfileID><cbc:ID>");
  const id = /<cbc:ID>([^<]*)<\/cbc:ID>/.exec(xml)![1];
  const variants: [string, boolean][] = [["GROUP", false], ["GROUP", true], ["DETAIL", false]];
  return variants.map(([status, withLine], i) => {
    const reference =
      `<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>${id}</cbc:ID><cbc:DocumentStatusCode>${status}</cbc:DocumentStatusCode></cac:InvoiceDocumentReference>` +
      `${withLine ? "<cac:BillingReferenceLine><cbc:ID>1</cbc:ID></cac:BillingReferenceLine>" : ""}</cac:BillingReference>`;
    const path = join(work, `billing-reference-${i}.xml`);
    writeFileSync(path, xml.replace(/(<cac:InvoiceLine>[\s\S]*?)(<cac:Item>)/, `$1${reference}$2`));
    return path;
  });
}

describe.skipIf(skip)("the UBL Flux2 rules on line billing references ($invoiceID, the parenthesized union step)", () => {
  for (const file of ["BR-FR-Flux2-Schematron-UBL.xslt", "BR-FR-Flux2-Schematron-UBL_WARNING.xslt"]) {
    for (const level of ["EN16931", "EXTENDED-CTC-FR"]) {
      test(`${level}/${file}`, async () => {
        const path = join(RULESETS, FRANCE, "UBL", level, "2xslt", file);
        const plan = planOfFile(path);
        const documents = billingReferenceDocuments();
        const report = await differentialPlan(plan, saxonHeReference(path, work), documents);
        console.log(describeReport(`${level}/${file} (line billing references)`, report));
        expect(report.differences).toEqual([]);
        // The rule whose context is that pattern fires on the GROUP without a line reference.
        if (!file.includes("WARNING")) expect(runPlan(plan, readFileSync(documents[0])).map((finding) => finding.ruleId)).toContain("BR-FR-MV-14-EXT-FR-FE-136");
      }, 5 * 60_000);
    }
  }
});
