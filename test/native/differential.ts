// Differential oracle for the native engine: the same documents judged by the native plan and by
// a published XSLT on Saxon-HE, reduced to comparable outcomes (finding lines, or the error code a
// run stopped with), plus per-document native timings.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { XDocument } from "../../src/native/xpath/document.ts";
import { compileSchema, runPlan, type Plan } from "../../src/native/engine.ts";
import { readRuleSource } from "../../src/native/source.ts";
import { readXml } from "../../src/native/xml-reader.ts";
import { XPathError } from "../../src/native/xpath/errors.ts";
import { parseSchematron } from "../../src/schematron/parse.ts";
import { schematronToXslt } from "../../src/schematron/compile.ts";
import { parseSvrl } from "../../src/validation/svrl.ts";
import type { Finding } from "../../src/schematron/finding.ts";
import { runSaxonHe, type SaxonResult } from "../support/saxon-he.ts";

export interface Difference {
  document: string;
  native: string[];
  reference: string[];
}

export interface DifferentialReport {
  documents: number;
  identical: number;
  /** Finding lines in the identical outcomes: equal empty outcomes alone would prove little. */
  findings: number;
  bothStopped: number;
  differences: Difference[];
  /** Native milliseconds per document (parse + rules), in document order. */
  nativeMs: number[];
  saxonTotalMs: number;
}

export async function differential(sch: string, xslt: string, documents: string[]): Promise<DifferentialReport> {
  return differentialPlan(compileSchema(parseSchematron(sch)), xslt, documents);
}

/** {@link differential} for a Schematron schema and documents given as text (small hand-written cases). */
export async function differentialOfText(schema: string, documents: string[]): Promise<DifferentialReport> {
  const work = mkdtempSync(join(tmpdir(), "native-differential-"));
  try {
    const sch = join(work, "schema.sch");
    writeFileSync(sch, schema);
    const xslt = join(work, "schema.xsl");
    writeFileSync(xslt, await schematronToXslt(sch));
    const paths = documents.map((xml, i) => {
      const path = join(work, `doc${i}.xml`);
      writeFileSync(path, xml);
      return path;
    });
    return await differential(sch, xslt, paths);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The same comparison for a plan compiled by the caller (e.g. from the published XSLT itself). */
export async function differentialPlan(plan: Plan, xslt: string, documents: string[]): Promise<DifferentialReport> {
  const started = performance.now();
  const reference = await runSaxonHe(xslt, documents);
  const saxonTotalMs = performance.now() - started;
  const report: DifferentialReport = { documents: documents.length, identical: 0, findings: 0, bothStopped: 0, differences: [], nativeMs: [], saxonTotalMs };
  for (const document of documents) {
    const bytes = readFileSync(document);
    const start = performance.now();
    const native = nativeOutcome(plan, bytes);
    report.nativeMs.push(performance.now() - start);
    const expected = referenceOutcome(reference.get(document)!);
    if (native.length === expected.length && native.every((line, i) => line === expected[i])) {
      if (native.length === 1 && native[0].startsWith("stopped")) report.bothStopped++;
      else {
        report.identical++;
        report.findings += native.length;
      }
    } else {
      report.differences.push({
        document,
        native: native.filter((line) => !expected.includes(line)),
        reference: expected.filter((line) => !native.includes(line)),
      });
    }
  }
  return report;
}

export function findingLine(finding: Finding): string {
  return `${finding.ruleId} [${finding.flag}] @ ${finding.location}: ${finding.message}`;
}

/** The native engine's outcome on one document: its finding lines, or the code it stopped with. */
export function nativeOutcome(plan: Plan, xml: string | Uint8Array): string[] {
  try {
    return runPlan(plan, xml).map(findingLine);
  } catch (error) {
    if (error instanceof XPathError) return [`stopped ${error.code}`];
    return [`crashed ${(error as Error).message}`];
  }
}

/**
 * The native plan of a pinned rule file at `path` (a `.sch` or a published XSLT), with the code
 * lists beside it served to document(), as Saxon-HE reads them from disk.
 */
export function planOfFile(path: string): Plan {
  const opened = new Map<string, XDocument | undefined>();
  const documents = (href: string) => {
    const file = resolve(dirname(path), href);
    if (!opened.has(file)) opened.set(file, existsSync(file) ? readXml(readFileSync(file)) : undefined);
    return opened.get(file);
  };
  return compileSchema(readRuleSource(path).schema, { documents });
}

/** Saxon writes SVRL as it goes, so a run that stopped can leave a truncated file: that is a stop too. */
export function referenceOutcome(result: SaxonResult): string[] {
  if (result.error !== null) return [`stopped ${/^[A-Z]{4}\d{4}/.exec(result.error)?.[0] ?? "?"}`];
  try {
    return parseSvrl(result.svrl!).map(findingLine);
  } catch {
    return ["stopped (truncated SVRL)"];
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
}

/** Saxon-HE's cost per document: the batch time less one JVM start and stylesheet compile (a one-document run). */
export async function saxonPerDocumentMs(xslt: string, report: DifferentialReport, oneDocument: string): Promise<number> {
  const started = performance.now();
  await runSaxonHe(xslt, [oneDocument]);
  const fixed = performance.now() - started;
  return Math.max(0, report.saxonTotalMs - fixed) / Math.max(1, report.documents - 1);
}

export function describeReport(label: string, report: DifferentialReport): string {
  const sorted = [...report.nativeMs].sort((a, b) => a - b);
  const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
  const classes = new Map<string, number>();
  for (const difference of report.differences) {
    const key = [...difference.native, ...difference.reference].map((line) => line.split(" ")[0]).sort().join(",");
    classes.set(key, (classes.get(key) ?? 0) + 1);
  }
  return (
    `${label}: ${report.documents} documents, ${report.identical} identical, ${report.bothStopped} stopped with the same error on both, ` +
    `${report.differences.length} differing${classes.size ? ` (${[...classes].map(([key, n]) => `${key}: ${n}`).join("; ")})` : ""}; ` +
    `native median ${median(report.nativeMs).toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, max ${sorted.at(-1)?.toFixed(1)} ms`
  );
}
