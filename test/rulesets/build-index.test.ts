// Checks the output of `bun scripts/rulesets.ts all` when a build is present: the index agrees
// with the pins and the files on disk, and the rewritten SEFs fix the two SaxonJS deviations in
// ENGINE-FACTS.md. The tests' build (`npm test`'s pretest) compiles every SEF.

import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import SaxonJS from "saxon-js";
import { readIndex } from "../../src/rulesets/compile";
import { isRuleEntry, pinByPath, pins } from "../../src/rulesets/pins";
import { rewriteStylesheet } from "../../src/rulesets/rewrites";
import { buildDir } from "../../src/rulesets/sync";
import { sha256Hex as sha256 } from "../../src/rulesets/seal";
import { parseSvrl } from "../../src/validation/svrl";
import { corpusMissing } from "../support/corpus";
import { buildMissing, cannotRun } from "../support/requirements";

const index = readIndex();
const noBuild = cannotRun("build/rulesets/index.json", buildMissing());
const corpus = resolve(import.meta.dir, "../../../shared/corpus");

describe.skipIf(noBuild)("build/rulesets/index.json", () => {
  test("covers every XSLT rule entry", () => {
    const built = new Set(index!.entries.map((e) => e.path));
    const missing = pins.filter((p) => isRuleEntry(p) && /\.xslt?$/.test(p.path) && !built.has(p.path)).map((p) => p.path);
    expect(missing).toEqual([]);
  });

  test("every entry matches its pin, its files and its cache key", () => {
    for (const e of index!.entries) {
      const pin = pinByPath(e.path);
      expect(pin?.sha256).toBe(e.sha256);
      expect(e.sef).not.toBeNull();
      const sef = join(buildDir, e.sef!.path);
      expect(sha256(readFileSync(sef))).toBe(e.sef!.sha256);
      expect(readFileSync(sef.replace(/\.sef\.json$/, ".cachekey"), "utf8").trim()).toBe(e.cacheKey);
      const source = readFileSync(join(buildDir, e.sourceXslt), "utf8");
      const { text, counts } = rewriteStylesheet(source, e.path);
      expect(counts).toEqual(e.rewrites);
      expect(readFileSync(join(buildDir, e.xslt), "utf8")).toBe(text);
      for (const cl of e.codeLists) {
        expect(pinByPath(cl)).toBeDefined();
        expect(existsSync(join(dirname(sef), basename(cl)))).toBe(true);
      }
    }
  });

  test("Factur-X entries record their code lists", () => {
    const fx = index!.entries.filter((e) => e.key === "facturx_schematron");
    for (const e of fx) expect(e.codeLists).toEqual([expect.stringMatching(/_codedb\.xml$/)]);
  });
});

async function saxonJs(entryPath: string, doc: string) {
  const entry = index!.entries.find((e) => e.path === entryPath)!;
  const result = await SaxonJS.transform(
    { stylesheetFileName: join(buildDir, entry.sef!.path), sourceFileName: join(corpus, doc), destination: "serialized" },
    "async",
  );
  return parseSvrl(result.principalResult as string);
}

/** Why a rewritten SEF cannot run here on a corpus document, or null. */
const missingFor = (path: string) =>
  buildMissing() ?? corpusMissing ?? (index!.entries.some((e) => e.path === path) ? null : `no ${path} in the build index`);

describe("rewritten SEFs on SaxonJS", () => {
  const fxExtended = "facturx_schematron/1.09/Factur-X/EXTENDED/2xslt/Factur-X_EXTENDED.xslt";
  const fxDoc = "akretion-factur-x/tests/fixtures/xml/factur-x-extended.xml";
  test.skipIf(cannotRun("Factur-X EXTENDED rewritten SEF", missingFor(fxExtended)))("Factur-X EXTENDED runs (no XPTY0004) and reads its code list", async () => {
    // Saxon-HE reports no failed assert on this document.
    expect(await saxonJs(fxExtended, fxDoc)).toEqual([]);
  }, 60_000);

  const xrUbl = "xrechnung_schematron/2.5.0/schematron/ubl/XRechnung-UBL-validation.xsl";
  const xrDoc = "xrechnung-testsuite/src/test/business-cases/standard/01.01a-INVOICE_ubl.xml";
  test.skipIf(cannotRun("XRechnung UBL rewritten SEF", missingFor(xrUbl)))("XRechnung BR-DE-19 no longer fires on a valid IBAN", async () => {
    expect((await saxonJs(xrUbl, xrDoc)).map((f) => f.ruleId)).not.toContain("BR-DE-19");
  }, 60_000);
});
