// The catalogue is the one home of every profile fact: these tests walk it. Each record's
// identifiers must detect to that record, each record the service writes must come back as itself
// and validate under itself, every artifact a record names must be pinned, and no profile string
// may live outside src/profiles/.

import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CONVERT_TARGETS, RECORDS, STANDARD_ENTRIES } from "../../src/profiles/catalogue.ts";
import { converter } from "../support/convert.ts";
import { XSD_SCHEMAS } from "../../src/profiles/schemas.ts";
import { recordById } from "../../src/profiles/lookup.ts";
import type { ProfileRecord } from "../../src/profiles/record.ts";
import { detect } from "../../src/syntax/detect.ts";
import { ROOT_RULES } from "../../src/syntax/roots.ts";
import { pins } from "../../src/rulesets/pins.ts";
import { generateXml } from "../../src/generate/generate.ts";
import { validateDocument, type Engine } from "../../src/validation/validate.ts";
import { createEngine } from "../../src/validation/engine.ts";
import { rulesetBundle } from "../../src/assets/bundle.ts";
import { TARGETS } from "../generate/matrix.ts";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";
import { buildMissing, cannotRun } from "../support/requirements.ts";

const UBL_CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";

/** A smallest document of the record's syntax that declares `id` (or, for national formats, its root). */
function declaring(record: ProfileRecord, id?: string): string {
  const localName = record.recognise.root ?? (record.syntax === "ubl" ? "Invoice" : record.syntax === "cii" ? "CrossIndustryInvoice" : undefined);
  const root = ROOT_RULES.find((r) => r.format === record.syntax && (!localName || r.localName === localName));
  if (!root) throw new Error(`no root rule for ${record.id}`);
  const attribute = record.recognise.attribute ? ` ${record.recognise.attribute.name}="${record.recognise.attribute.value}"` : "";
  if (record.syntax === "ubl") return `<Invoice xmlns="${root.namespace}" xmlns:cbc="${UBL_CBC}"><cbc:CustomizationID>${id}</cbc:CustomizationID></Invoice>`;
  if (record.syntax === "cii") {
    return `<rsm:CrossIndustryInvoice xmlns:rsm="${root.namespace}" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"><rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${id}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext></rsm:CrossIndustryInvoice>`;
  }
  return `<p:${root.localName} xmlns:p="${root.namespace}"${attribute}/>`;
}

describe("recognition", () => {
  for (const record of RECORDS) {
    const { ids = [], legacyIds = [], insideHybridPdf } = record.recognise;
    const declared = ids.length + legacyIds.length ? [...ids, ...legacyIds] : [undefined];
    test(`${record.id}: every id it recognises detects to it`, () => {
      for (const id of declared) {
        const detection = detect(declaring(record, id), { hybrid: insideHybridPdf === true });
        expect([id, detection.format, detection.record?.id, detection.profileDetected]).toEqual([id, record.syntax, record.id, record.profile]);
      }
    });
  }

  test("record ids are unique, and each names its syntax", () => {
    expect(new Set(RECORDS.map((r) => r.id)).size).toBe(RECORDS.length);
    for (const r of RECORDS) expect(r.id.startsWith(`${r.syntax}:`)).toBe(true);
  });

  test("each syntax with a fallback has exactly one", () => {
    const fallbacks = RECORDS.filter((r) => r.recognise.fallback).map((r) => r.syntax);
    expect(new Set(fallbacks).size).toBe(fallbacks.length);
  });
});

describe("artifacts", () => {
  const pinned = new Set(pins.map((p) => `${p.key}\u0000${p.path}`));
  test("every rule file a record runs is pinned in every version of its key", () => {
    const missing: string[] = [];
    for (const layer of RECORDS.flatMap((r) => [...(r.judge?.rules ?? []), ...(r.judge?.overlays ?? []).map((o) => o.layer)])) {
      const versions = [...new Set(pins.filter((p) => p.key === layer.key).map((p) => p.version))];
      if (!versions.length) missing.push(`${layer.key}: no pinned version`);
      for (const version of versions) {
        for (const file of [layer.file, ...(layer.part?.sealed ? [layer.part.sealed] : [])]) {
          const path = `${layer.key}/${version}/${file}`;
          if (!pinned.has(`${layer.key}\u0000${path}`)) missing.push(path);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  test("every schema a record names is a pinned entry", () => {
    const entries = new Set(pins.filter((p) => p.role === "entry").map((p) => p.path));
    for (const r of RECORDS) {
      const xsd = r.judge?.xsd;
      const ids = xsd === "by-document-type" ? (["ubl-invoice", "ubl-creditnote"] as const) : xsd ? [xsd] : [];
      for (const id of ids) expect(entries.has(XSD_SCHEMAS[id])).toBe(true);
    }
  });

  test("every generate profile points at records of its standard's syntaxes, the default first", () => {
    for (const [standard, entry] of Object.entries(STANDARD_ENTRIES)) {
      expect(Object.keys(entry.profiles)).toContain(entry.defaultProfile);
      for (const ids of Object.values(entry.profiles)) {
        const syntaxes = ids.map((id) => recordById(id).syntax);
        expect([standard, new Set(syntaxes).size]).toEqual([standard, syntaxes.length]);
      }
    }
  });
});

describe.skipIf(cannotRun("written documents judged under their own record", buildMissing()))("writing", () => {
  let engine: Engine;
  beforeAll(() => {
    engine = createEngine(rulesetBundle());
  });

  test("every record the service writes comes back as itself and validates under itself", async () => {
    const written = new Set<string>();
    for (const target of TARGETS) {
      const scenario = (target.own ?? SCENARIOS).find((s) => !target.scenarios || target.scenarios.includes(s.name))!;
      const invoice = scenario.build(LOCALES[target.locale]);
      const generated = generateXml({ ...target.request, invoice: target.adapt ? target.adapt(invoice) : invoice }, { livemode: true });
      const record = recordById(generated.record);
      written.add(record.id);
      // A bare EN 16931 id is the Factur-X EN16931 level only inside a hybrid PDF.
      const hybrid = record.recognise.insideHybridPdf === true;
      expect([target.label, detect(generated.bytes, { hybrid }).record?.id]).toEqual([target.label, record.id]);
      const outcome = hybrid ? await validateDocument(engine, { bytes: generated.bytes, record: record.id }) : await validateDocument(engine, { bytes: generated.bytes });
      if (!outcome.ok) throw new Error(outcome.message);
      expect([target.label, outcome.result.errors]).toEqual([target.label, []]);
    }
    // The plain EN 16931 core has no generate standard; convert writes it (an XRechnung document stripped of its CIUS).
    const convert = converter();
    for (const syntax of ["cii", "ubl"] as const) {
      const source = generateXml({ standard: "xrechnung", syntax, invoice: SCENARIOS[0]!.build(LOCALES.de) }, { livemode: true });
      const converted = await convert(source.bytes, { targetFormat: syntax });
      const record = detect(converted.file).record!;
      written.add(record.id);
      expect([syntax, record.id]).toEqual([syntax, CONVERT_TARGETS[syntax].records[syntax]]);
      expect([syntax, converted.result.errors]).toEqual([syntax, []]);
    }
    const writable = RECORDS.filter((r) => r.write).map((r) => r.id);
    expect([...written].sort()).toEqual(writable.sort());
  }, 120_000);
});

describe("no profile string outside the catalogue", () => {
  /** Strings that only name a profile or a record; some profile names are also standard or rule names, and those are left to the type checker. */
  const profileStrings = [...new Set(RECORDS.flatMap((r) => [r.id, r.profile]))].filter((s) => s.includes(":") || s.includes("-"));
  const sources = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
    });
  const root = new URL("../../src/", import.meta.url).pathname;

  test("src/ outside src/profiles/ spells no profile or record id", () => {
    const found: string[] = [];
    for (const file of sources(root)) {
      if (file.startsWith(join(root, "profiles"))) continue;
      const text = readFileSync(file, "utf8");
      for (const s of profileStrings) if (text.includes(`"${s}"`) || text.includes(`'${s}'`) || text.includes(`\`${s}\``)) found.push(`${file.slice(root.length)}: ${s}`);
    }
    expect(found).toEqual([]);
  });
});
