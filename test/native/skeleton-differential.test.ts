// The native engine on the ISO-skeleton XSLT files the pipelines run, read back into the rule model
// by `readSkeletonXslt`: each pinned file, compiled to a native plan, must judge the corpus documents
// of the pipelines that run it exactly like the same pinned file on Saxon-HE (same findings: ids,
// flags, locations, messages, order; or the same error code when the rules stop).
//
// Documents: the corpus rows of the pipelines' profiles in the file's syntax, plus the invoice XML
// embedded in those profiles' PDFs; where that gives fewer than 40 documents (Factur-X levels, NL
// CII, EXTENDED-CTC-FR), other documents of the same syntax top the set up, since any invoice
// exercises the traversal, the rule order and the rules that do not fire. Default: an evenly spread
// sample of at most 120 per file; FULL=1 compares every document. Saxon-HE runs the pinned file, or
// for the France CTC UBL Flux2 files the copy saxon-he-reference.ts writes (one XSLT 3.0 pattern
// form Saxon-HE 9.9 cannot compile, spelt as the union it means).

import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readRuleSource } from "../../src/native/source.ts";
import { extractInvoiceXml } from "../../src/pdf/attachments.ts";
import { saxonHeUnavailable } from "../support/saxon-he.ts";
import { cannotRun } from "../support/requirements.ts";
import { corpusRows, RULESETS, sample, sharedUnavailable, type CorpusRow } from "../schematron/corpus.ts";
import { describeReport, differentialPlan, planOfFile } from "./differential.ts";
import { saxonHeReference } from "./saxon-he-reference.ts";

const skip = cannotRun("native engine vs skeleton XSLT on Saxon-HE", sharedUnavailable() ?? saxonHeUnavailable());

const LIMIT = 120;
const MINIMUM = 40;
const FACTURX = "facturx_schematron/1.09";
const FRANCE = "france_ctc_schematron/1.4.0.02";

interface Binding {
  label: string;
  /** The pinned file, relative to the rulesets folder. */
  xslt: string;
  syntax: "ubl" | "cii";
  /** Corpus profiles of the pipelines that run the file. */
  profiles: string[];
}

const bindings: Binding[] = [
  ...["1.3.15", "1.3.16"].flatMap((version): Binding[] => [
    { label: `CEN ${version} UBL`, xslt: `en16931_ubl_schematron/${version}/ubl/xslt/EN16931-UBL-validation.xslt`, syntax: "ubl", profiles: ["en16931", "xrechnung"] },
    { label: `CEN ${version} CII`, xslt: `en16931_cii_schematron/${version}/cii/xslt/EN16931-CII-validation.xslt`, syntax: "cii", profiles: ["en16931", "xrechnung"] },
  ]),
  { label: "NLCIUS SI-UBL 2.0", xslt: "netherlands_nlcius_schematron/2025-11-27/xsl/si-ubl-2.0.xsl", syntax: "ubl", profiles: ["netherlands-nlcius"] },
  { label: "NLCIUS CII 1.0", xslt: "netherlands_nlcius_schematron/2025-11-27/xsl/nlcius-cii-1.0.xsl", syntax: "cii", profiles: ["netherlands-nlcius"] },
  { label: "XRechnung 2.4.0 UBL", xslt: "xrechnung_schematron/2.4.0/schematron/ubl/XRechnung-UBL-validation.xsl", syntax: "ubl", profiles: ["xrechnung"] },
  { label: "XRechnung 2.4.0 CII", xslt: "xrechnung_schematron/2.4.0/schematron/cii/XRechnung-CII-validation.xsl", syntax: "cii", profiles: ["xrechnung"] },
  { label: "Factur-X 1.09 MINIMUM", xslt: `${FACTURX}/facturx-minimum/Factur-X_1.09_MINIMUM.xsl`, syntax: "cii", profiles: ["facturx:minimum"] },
  { label: "Factur-X 1.09 BASIC WL", xslt: `${FACTURX}/Factur-X/BASICWL/2xslt/FACTUR-X_BASIC-WL.xslt`, syntax: "cii", profiles: ["facturx:basicwl"] },
  { label: "Factur-X 1.09 BASIC", xslt: `${FACTURX}/facturx-basic/Factur-X_1.09_BASIC.xsl`, syntax: "cii", profiles: ["facturx:basic"] },
  { label: "Factur-X 1.09 EN16931", xslt: `${FACTURX}/Factur-X/EN16931/2xslt/FACTUR-X_EN16931.xslt`, syntax: "cii", profiles: ["facturx:en16931"] },
  { label: "Factur-X 1.09 EXTENDED", xslt: `${FACTURX}/Factur-X/EXTENDED/2xslt/Factur-X_EXTENDED.xslt`, syntax: "cii", profiles: ["facturx:extended"] },
  { label: "France CTC EXTENDED-CTC-FR CII", xslt: `${FRANCE}/CII/EXTENDED-CTC-FR/2xslt/EXTENDED-CTC-FR-CII.xslt`, syntax: "cii", profiles: ["facturx:extended-ctc-fr"] },
  { label: "France CTC BR-FR Flux2 CII (EXTENDED-CTC-FR)", xslt: `${FRANCE}/CII/EXTENDED-CTC-FR/2xslt/BR-FR-Flux2-Schematron-CII.xslt`, syntax: "cii", profiles: ["facturx:extended-ctc-fr"] },
  { label: "France CTC EXTENDED-CTC-FR UBL", xslt: `${FRANCE}/UBL/EXTENDED-CTC-FR/2xslt/EXTENDED-CTC-FR-UBL.xslt`, syntax: "ubl", profiles: ["extended-ctc-fr"] },
  { label: "France CTC BR-FR Flux2 CII (EN16931)", xslt: `${FRANCE}/CII/EN16931/2xslt/BR-FR-Flux2-Schematron-CII.xslt`, syntax: "cii", profiles: ["en16931"] },
  { label: "France CTC BR-FR Flux2 CII (Factur-X BASIC WL)", xslt: `${FRANCE}/Factur-X/BASICWL/2xslt/BR-FR-Flux2-Schematron-CII.xslt`, syntax: "cii", profiles: ["facturx:basicwl"] },
  { label: "France CTC BR-FR Flux2 CII (Factur-X EN16931)", xslt: `${FRANCE}/Factur-X/EN16931/2xslt/BR-FR-Flux2-Schematron-CII.xslt`, syntax: "cii", profiles: ["facturx:en16931"] },
  { label: "France CTC BR-FR Flux2 CII (Factur-X EXTENDED)", xslt: `${FRANCE}/Factur-X/EXTENDED/2xslt/BR-FR-Flux2-Schematron-CII.xslt`, syntax: "cii", profiles: ["facturx:extended"] },
  { label: "France CTC BR-FR Flux2 UBL (EN16931)", xslt: `${FRANCE}/UBL/EN16931/2xslt/BR-FR-Flux2-Schematron-UBL.xslt`, syntax: "ubl", profiles: ["en16931"] },
  { label: "France CTC BR-FR Flux2 UBL (EXTENDED-CTC-FR)", xslt: `${FRANCE}/UBL/EXTENDED-CTC-FR/2xslt/BR-FR-Flux2-Schematron-UBL.xslt`, syntax: "ubl", profiles: ["extended-ctc-fr"] },
];

/**
 * Differences accepted as explained exceptions, by binding label, each with its cause. Empty: the
 * native engine matches Saxon-HE on every document compared.
 */
const KNOWN_DIFFERENCES: Record<string, { cause: string }> = {};

const work = mkdtempSync(join(tmpdir(), "native-skeleton-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const extracted = new Map<string, string | null>();

/** The invoice XML embedded in a PDF row, written to the work folder (null when it has none). */
async function embeddedXml(row: CorpusRow, index: number): Promise<string | null> {
  if (extracted.has(row.path)) return extracted.get(row.path)!;
  const extraction = await extractInvoiceXml(readFileSync(row.path));
  let path: string | null = null;
  if (extraction.ok) {
    path = join(work, `${index}-${extraction.name}`);
    writeFileSync(path, extraction.xml);
  }
  extracted.set(row.path, path);
  return path;
}

async function documentsFor(binding: Binding): Promise<string[]> {
  const own: string[] = [];
  const rows = corpusRows((row) => binding.profiles.includes(row.profile) && (row.syntax === binding.syntax || (binding.syntax === "cii" && row.syntax === "pdf")));
  for (const [index, row] of rows.entries()) {
    if (row.syntax !== "pdf") own.push(row.path);
    else {
      const xml = await embeddedXml(row, index);
      // Factur-X PDFs carry CII; a ZUGFeRD 1 or XRechnung attachment of another syntax is not this file's input.
      if (xml && readFileSync(xml, "utf8").includes("urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100")) own.push(xml);
    }
  }
  const documents = sample(own, LIMIT);
  if (documents.length >= MINIMUM) return documents;
  const others = corpusRows((row) => row.syntax === binding.syntax && !binding.profiles.includes(row.profile)).map((row) => row.path);
  return [...documents, ...sample(others, process.env.FULL === "1" ? others.length : MINIMUM - documents.length)];
}

/** The code lists the Factur-X rules open with document(), read from beside the stylesheet as Saxon-HE reads them. */
describe.skipIf(skip)("native engine reading ISO-skeleton XSLT agrees with the same file on Saxon-HE", () => {
  for (const binding of bindings) {
    test(
      binding.label,
      async () => {
        const xslt = join(RULESETS, binding.xslt);
        expect(readRuleSource(xslt).kind).toBe("iso-skeleton");
        const plan = planOfFile(xslt);
        const documents = await documentsFor(binding);
        expect(documents.length).toBeGreaterThan(0);
        const report = await differentialPlan(plan, saxonHeReference(xslt, work), documents);
        console.log(describeReport(binding.label, report));
        for (const difference of report.differences.slice(0, 5)) {
          console.log(`  ${difference.document}\n    native only: ${difference.native.join("\n      ")}\n    Saxon-HE only: ${difference.reference.join("\n      ")}`);
        }
        const known = KNOWN_DIFFERENCES[binding.label];
        if (known) console.log(`  known exception: ${known.cause}`);
        else expect(report.differences).toEqual([]);
      },
      30 * 60_000,
    );
  }
});
