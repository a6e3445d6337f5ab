// Romania runs ANAF's CIUS-RO 1.0.9 entry as two layers (catalogue.ts): the EN 16931 part (every
// pattern but ROmodel), then the national part (phase romodel_phase). On the Romanian UBL corpus
// documents the two together must report exactly what the whole entry reports, and each must agree
// with phive's compiled stylesheet for its part on Saxon-HE: the EN part with phive's compilation
// of the whole entry less the national ids, the national part with ROeFactura…v1.0.9.xslt.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rulesetBundle } from "../../src/assets/bundle";
import { recordById } from "../../src/profiles/lookup";
import { buildCatalogue } from "../../src/rulesets/catalogue";
import { RulesetLifecycle } from "../../src/rulesets/lifecycle";
import { pinByPath } from "../../src/rulesets/pins";
import { ruleEntryId } from "../../src/rulesets/rule-entries";
import { filesDir } from "../../src/rulesets/sync";
import { ruleIdOf, type Finding } from "../../src/schematron/finding";
import { createEngine } from "../../src/validation/engine";
import { parseSvrl } from "../../src/validation/svrl";
import { validateDocument, type Engine } from "../../src/validation/validate";
import { buildMissing, cannotRun } from "../support/requirements";
import { runSaxonHe, saxonHeUnavailable } from "../support/saxon-he";
import { allRows, CORPUS, corpusUnavailable } from "./corpus";

const FOLDER = "romania_ro_cius_schematron/1.0.9";
const ENTRY = `${FOLDER}/ro16931-ubl-1.0.9/EN16931-CIUS_RO-UBL-validation.sch`;
const [EN_PART, NATIONAL_PART] = recordById("ubl:romania-ro-cius").judge!.rules.map((ref) => ruleEntryId(`${FOLDER}/${ref.file}`, ref.part?.patterns));
const PHIVE_WHOLE = `${FOLDER}/EN16931-CIUS_RO-UBL-validation.xslt`;
const PHIVE_NATIONAL = `${FOLDER}/ROeFactura-UBL-validation-Invoice_v1.0.9.xslt`;

const documents = () => allRows().filter((r) => r.profile === "romania-ro-cius" && r.syntax === "ubl").map((r) => join(CORPUS, r.path));

/** What a finding must agree on across engines and stylesheets. */
const full = (f: Finding) => JSON.stringify([ruleIdOf(f), f.flag, f.location, f.message]);
/** phive's stylesheets are another compilation (its reports rewritten as asserts): ids and locations. */
const placed = (f: Finding) => `${ruleIdOf(f)} @ ${f.location}`;
const sorted = (keys: string[]) => [...keys].sort();

describe.skipIf(cannotRun("Romania's two rule layers", buildMissing() ?? corpusUnavailable()))("Romania's two rule layers", () => {
  let engine: Engine;
  beforeAll(() => {
    engine = createEngine(rulesetBundle());
  });
  const run = (entry: string, doc: string) => engine.schematron.run(entry, readFileSync(doc, "utf8")).findings;

  test("the layers are the entry without ROmodel, then phase romodel_phase: 976 and 122 checks", () => {
    expect([EN_PART, NATIONAL_PART]).toEqual([`${ENTRY}~without=ROmodel`, `${ENTRY}~phase=romodel_phase`]);
    const ids = (entry: string) => engine.schematron.entry(entry).ruleIds;
    // Each check of ANAF's rule set has its own id (README, "ANAF 1.0.9 rule set").
    expect([ids(EN_PART).length, ids(NATIONAL_PART).length]).toEqual([976, 122]);
    expect(ids(NATIONAL_PART).every((id) => id.startsWith("BR-RO-") || id.startsWith("BR-DEC-RO-") || id === "BR-27")).toBe(true);
    expect(ids(EN_PART).filter((id) => ids(NATIONAL_PART).includes(id))).toEqual([]);
    expect(sorted([...ids(EN_PART), ...ids(NATIONAL_PART)])).toEqual(ids(ENTRY));
  });

  test("on the Romanian corpus documents the two layers report exactly the whole entry's findings, in its order", () => {
    const docs = documents();
    expect(docs.length).toBe(10);
    let findings = 0;
    for (const doc of docs) {
      const whole = run(ENTRY, doc).map(full);
      expect([...run(EN_PART, doc), ...run(NATIONAL_PART, doc)].map(full), doc).toEqual(whole);
      findings += whole.length;
    }
    expect(findings).toBeGreaterThan(0);
  });

  test("a Romanian validation is sealed with two Romanian rows: ANAF's entry, then its national rules file", async () => {
    const [doc] = documents();
    const outcome = await validateDocument(engine, { bytes: new Uint8Array(readFileSync(doc!)) });
    if (!outcome.ok) throw new Error(outcome.message);
    const { result, layers } = outcome;
    const sha = (path: string) => pinByPath(path)!.sha256;
    expect(result.rulesetArtifacts!.filter((r) => r.key === "romania_ro_cius_schematron")).toEqual([
      { key: "romania_ro_cius_schematron", version: "1.0.9", fileSha256: sha(ENTRY), engine: "native" },
      { key: "romania_ro_cius_schematron", version: "1.0.9", fileSha256: sha(`${FOLDER}/ro16931-ubl-1.0.9/cius-ro/RO16931-rules.sch`), engine: "native" },
    ] as never);
    expect(layers.filter((l) => l.layer === "rules").map((l) => `${l.artifact?.key}/${l.artifact?.version}/${l.name} ${l.status}`)).toEqual([`${EN_PART} ran`, `${NATIONAL_PART} ran`]);
    // Both rows are in the public catalogue, where a seal's rows are matched.
    const { artifacts } = buildCatalogue(new RulesetLifecycle(), "2026-11-22");
    for (const { key, version, fileSha256 } of result.rulesetArtifacts!) expect(artifacts).toContainEqual({ key, version, fileSha256 });
    expect(result.romaniaRoCiusVersion).toBe("1.0.9");
    expect(result.schematronVersion).toBe("1.0.9");
  });
});

describe.skipIf(cannotRun("Romania's layers against phive on Saxon-HE", buildMissing() ?? corpusUnavailable() ?? saxonHeUnavailable()))("Romania's layers against phive on Saxon-HE", () => {
  let engine: Engine;
  const work = mkdtempSync(join(tmpdir(), "romania-layers-"));
  beforeAll(() => {
    engine = createEngine(rulesetBundle());
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  async function saxon(stylesheet: string, docs: string[]): Promise<Map<string, Finding[]>> {
    const results = await runSaxonHe(join(filesDir, stylesheet), docs);
    return new Map(docs.map((doc) => {
      const r = results.get(doc)!;
      if (r.error !== null) throw new Error(`${stylesheet} on ${doc}: ${r.error}`);
      return [doc, parseSvrl(r.svrl!)];
    }));
  }

  test("layer 1 equals phive's whole-entry XSLT less the 122 national ids; layer 2 equals ROeFactura…v1.0.9.xslt (ids and locations)", async () => {
    const docs = documents();
    const national = new Set(engine.schematron.entry(NATIONAL_PART).ruleIds);
    expect(national.size).toBe(122);
    const [whole, nationalOnly] = await Promise.all([saxon(PHIVE_WHOLE, docs), saxon(PHIVE_NATIONAL, docs)]);
    for (const doc of docs) {
      const text = readFileSync(doc, "utf8");
      const layer1 = engine.schematron.run(EN_PART, text).findings;
      const layer2 = engine.schematron.run(NATIONAL_PART, text).findings;
      expect(sorted(layer1.map(placed)), `${doc}: layer 1`).toEqual(sorted(whole.get(doc)!.filter((f) => !national.has(ruleIdOf(f))).map(placed)));
      expect(sorted(layer2.map(placed)), `${doc}: layer 2`).toEqual(sorted(nationalOnly.get(doc)!.map(placed)));
    }
  }, 120_000);
});
