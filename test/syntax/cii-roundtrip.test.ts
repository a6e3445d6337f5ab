// Every valid CII document of the corpus (plain XML and the XML inside valid hybrid PDFs) goes
// read -> write (same version and profile) -> read: the two models must be equal and the written
// XML valid against the target's XSD. Source elements the model does not carry are printed as a
// summary by XPath, so a gap in the binding is visible at a glance.

import { afterAll, describe, expect, test } from "bun:test";
import { DOMParser, type Element } from "@xmldom/xmldom";
import { extractInvoiceXml } from "../../src/pdf/attachments.ts";
import { decodeXml } from "../../src/syntax/decode.ts";
import { NAMESPACES } from "../../src/syntax/cii/vocabulary.ts";
import { targetFacts, targetLabel, targetOf, type CiiTarget } from "../../src/syntax/cii/profiles.ts";
import { FACTURX_LEVELS } from "../../src/profiles/ids.ts";
import { readCii } from "../../src/syntax/cii/read.ts";
import { writeCii } from "../../src/syntax/cii/write.ts";
import { createXsdEngine } from "../../src/validation/xsd.ts";
import { corpusFile, corpusMissing, corpusRows, mirrorMissing, rulesetFile } from "../support/corpus.ts";
import { cannotRun } from "../support/requirements.ts";

const CII_ROOT = /<([\w-]+:)?CrossIndustryInvoice[\s>]/;

interface Source {
  path: string;
  xml: string;
  hybrid: boolean;
}

async function sources(): Promise<Source[]> {
  const out: Source[] = [];
  for (const row of corpusRows()) {
    if (row.expectedValid !== true || (row.syntax !== "cii" && row.syntax !== "pdf")) continue;
    const bytes = corpusFile(row);
    if (!bytes) continue;
    if (row.syntax === "cii") {
      const xml = decodeXml(bytes);
      if (CII_ROOT.test(xml)) out.push({ path: row.path, xml, hybrid: false });
      continue;
    }
    const extracted = await extractInvoiceXml(bytes);
    if (!extracted.ok) continue;
    const xml = decodeXml(extracted.xml);
    if (CII_ROOT.test(xml)) out.push({ path: row.path, xml, hybrid: true });
  }
  return out;
}

const PREFIX_OF = new Map(Object.entries(NAMESPACES).map(([prefix, uri]) => [uri as string, prefix]));

/** Index-free paths of every non-blank leaf element and attribute: what a document holds. */
function leafPaths(xml: string): Set<string> {
  const paths = new Set<string>();
  const walk = (e: Element, path: string) => {
    const here = `${path}/${PREFIX_OF.get(e.namespaceURI ?? "") ?? e.namespaceURI}:${e.localName}`;
    for (const a of Array.from(e.attributes)) if (!a.name.startsWith("xmlns")) paths.add(`${here}/@${a.name}`);
    const children = Array.from(e.childNodes).filter((n): n is Element => n.nodeType === 1);
    if (children.length === 0 && e.textContent?.trim()) paths.add(here);
    for (const c of children) walk(c, here);
  };
  walk(new DOMParser().parseFromString(xml, "text/xml").documentElement!, "");
  return paths;
}

describe.skipIf(cannotRun("CII round trip over the corpus", corpusMissing ?? mirrorMissing))("CII round trip over the corpus", async () => {
  const docs = await sources();
  const xsd = createXsdEngine(rulesetFile);
  const byTarget = new Map<string, { documents: number; equal: number; valid: number; sourceInvalid: number }>();
  const notCarried = new Map<string, { documents: number; example: string }>();
  const failures: string[] = [];

  afterAll(() => {
    xsd.dispose();
    console.log("CII round trip per target: documents / equal models / XSD-valid output (sources not valid under the target's own XSD)");
    for (const [target, s] of byTarget) console.log(`  ${target.padEnd(14)} ${s.documents} / ${s.equal} / ${s.valid} (${s.sourceInvalid})`);
    console.log("Source elements the model does not carry (documents holding them):");
    const rows = [...notCarried].sort((a, b) => b[1].documents - a[1].documents || a[0].localeCompare(b[0]));
    for (const [path, { documents, example }] of rows) console.log(`  ${String(documents).padStart(4)}  ${path}  (e.g. ${example})`);
    if (failures.length > 0) console.log(`Failures:\n  ${failures.join("\n  ")}`);
  });

  // Writing down to a smaller profile must still give schema-valid XML, with the surplus reported.
  const ALL_TARGETS: CiiTarget[] = [{ version: "D16B" }, ...FACTURX_LEVELS.map((profile) => ({ version: "D22B" as const, profile }))];
  const LEVEL: Record<string, number> = { minimum: 0, basicwl: 1, basic: 2, en16931: 3, extended: 4 };
  const downgrades = new Map<string, { documents: number; valid: number; lossy: number }>();

  test.each(docs.map((d) => [d.path, d] as const))("down-converts %s", (_path, doc) => {
    const invoice = readCii(doc.xml);
    const source = targetOf(invoice.processControl.specificationIdentifier, { hybrid: doc.hybrid });
    const sourceLevel = source.version === "D16B" ? LEVEL.en16931! : LEVEL[source.profile]!;
    for (const target of ALL_TARGETS) {
      if (target.version === "D16B" || LEVEL[target.profile]! >= sourceLevel) continue;
      const label = `${targetLabel(source)} -> ${targetLabel(target)}`;
      const stats = downgrades.get(label) ?? { documents: 0, valid: 0, lossy: 0 };
      downgrades.set(label, stats);
      const written = writeCii(invoice, target);
      const outcome = xsd.validate(targetFacts(target).xsd, written.xml);
      stats.documents++;
      if (outcome.valid) stats.valid++;
      if (written.lost.length > 0) stats.lossy++;
      expect({ label, findings: outcome.findings.slice(0, 3) }).toEqual({ label, findings: [] });
    }
  });

  afterAll(() => {
    console.log("Down-conversions: documents / XSD-valid / with reported losses");
    for (const [label, s] of [...downgrades].sort()) console.log(`  ${label.padEnd(30)} ${s.documents} / ${s.valid} / ${s.lossy}`);
  });

  test("the corpus has CII documents to round-trip", () => {
    expect(docs.length).toBeGreaterThan(50);
  });

  test.each(docs.map((d) => [d.path, d] as const))("%s", (_path, doc) => {
    const first = readCii(doc.xml);
    const target = targetOf(first.processControl.specificationIdentifier, { hybrid: doc.hybrid });
    const label = targetLabel(target);
    const stats = byTarget.get(label) ?? { documents: 0, equal: 0, valid: 0, sourceInvalid: 0 };
    byTarget.set(label, stats);
    stats.documents++;

    // A source that breaks its own target's XSD (e.g. ZUGFeRD 2.1 MINIMUM with a full seller address)
    // cannot come back whole: the writer must report what it dropped and be stable from then on.
    const sourceValid = xsd.validate(targetFacts(target).xsd, doc.xml).valid;
    if (!sourceValid) stats.sourceInvalid++;
    const written = writeCii(first, target);
    const second = readCii(written.xml);
    const equal = Bun.deepEquals(second, first);
    const outcome = xsd.validate(targetFacts(target).xsd, written.xml);
    if (equal) stats.equal++;
    if (outcome.valid) stats.valid++;
    if (!equal && sourceValid) failures.push(`${doc.path}: models differ`);
    if (!outcome.valid) failures.push(`${doc.path}: ${label} XSD: ${outcome.findings[0]?.message.trim()}`);

    const kept = leafPaths(written.xml);
    for (const path of leafPaths(doc.xml)) {
      if (kept.has(path)) continue;
      const seen = notCarried.get(path) ?? { documents: 0, example: doc.path };
      notCarried.set(path, { ...seen, documents: seen.documents + 1 });
    }

    expect(outcome.findings).toEqual([]);
    if (sourceValid) {
      expect(second).toEqual(first);
      expect(written.lost).toEqual([]);
    } else {
      if (!equal) expect(written.lost.length).toBeGreaterThan(0);
      expect(readCii(writeCii(second, target).xml)).toEqual(second);
    }
  });
});

describe.skipIf(cannotRun("CII sub-lines", corpusMissing))("CII sub-lines (ParentLineID / LineStatusReasonCode)", () => {
  const dir = "mustangproject/library/src/test/resources/subinvoicelines/";
  const files = corpusRows().filter((r) => r.path.startsWith(dir) && r.path.endsWith(".xml"));

  test.each(files.map((r) => [r.path, r] as const))("%s nests and comes back nested", (_path, row) => {
    const first = readCii(decodeXml(corpusFile(row)!));
    expect(first.lines.some((l) => (l.subLines?.length ?? 0) > 0)).toBe(true);
    const written = writeCii(first, { version: "D22B", profile: "extended" });
    expect(written.lost).toEqual([]);
    expect(readCii(written.xml)).toEqual(first);
  });
});
