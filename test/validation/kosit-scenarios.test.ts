// KoSIT's XRechnung scenarios (xrechnung_severity_overrides, scenarios.xml) as the service applies
// them: the scenario a document's root and customization id pick, exactly as the scenarios' match
// does; the levels each gives (rulesets README, "xrechnung_severity_overrides — 2026-01-31"); and
// verdicts that take those levels, sealed with the file that gave them.

import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { rulesetBundle } from "../../src/assets/bundle";
import { readXml } from "../../src/native/xml-reader";
import { pinByPath } from "../../src/rulesets/pins";
import { readScenarios, scenarioFor } from "../../src/validation/kosit-scenarios";
import { createEngine } from "../../src/validation/engine";
import { validateDocument, type Engine } from "../../src/validation/validate";
import { corpusMissing, mirrorMissing, rulesetFile } from "../support/corpus";
import { buildMissing, cannotRun } from "../support/requirements";
import { CORPUS } from "../conformance/corpus";

const SCENARIOS = "xrechnung_severity_overrides/2026-01-31/scenarios.xml";
const EN = "urn:cen.eu:en16931:2017";
const SPEC = `${EN}#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0`;
const EXTENSION = `${SPEC}#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0`;
const CVD = `${SPEC}#compliant#urn:xeinkauf.de:kosit:xrechnung:cvd_0.9`;

const ubl = (root: "Invoice" | "CreditNote", id: string) =>
  `<${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:CustomizationID>${id}</cbc:CustomizationID></${root}>`;
const cii = (id: string) =>
  `<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100">` +
  `<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${id}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext></rsm:CrossIndustryInvoice>`;

describe.skipIf(cannotRun("KoSIT scenarios", mirrorMissing))("KoSIT scenarios read from the pinned scenarios.xml", () => {
  const scenarios = mirrorMissing ? [] : readScenarios(rulesetFile(SCENARIOS));
  const pick = (xml: string) => scenarioFor(scenarios, readXml(xml));
  const levels = (xml: string) => Object.fromEntries(pick(xml)?.levels ?? []);

  test("the document's root and customization id pick the scenario; the Extension UBL CreditNote and other ids have none", () => {
    expect(scenarios.map((s) => s.name)).toHaveLength(11);
    const cases: [string, string | undefined][] = [
      [ubl("Invoice", SPEC), "EN16931 XRechnung (UBL Invoice)"],
      [ubl("Invoice", EXTENSION), "EN16931 XRechnung Extension (UBL Invoice)"],
      [ubl("Invoice", CVD), "EN16931 XRechnung CVD (UBL Invoice)"],
      [ubl("CreditNote", SPEC), "EN16931 XRechnung (UBL CreditNote)"],
      [ubl("CreditNote", CVD), "EN16931 XRechnung CVD (UBL CreditNote)"],
      [ubl("CreditNote", EXTENSION), undefined],
      [cii(SPEC), "EN16931 XRechnung (CII)"],
      [cii(EXTENSION), "EN16931 XRechnung Extension (CII)"],
      [cii(CVD), "EN16931 XRechnung CVD (CII)"],
      [ubl("Invoice", EN), "EN16931 (UBL Invoice)"],
      // Matched exactly, as the scenarios' `=` does: no prefix, no older release, no padding.
      [ubl("Invoice", `${EN}#compliant#urn:xeinkauf.de:kosit:xrechnung_2.3`), undefined],
      [ubl("Invoice", `${EN}#compliant#urn:xoev-de:kosit:standard:xrechnung_2.2`), undefined],
      [ubl("Invoice", ` ${SPEC}`), undefined],
    ];
    expect(cases.map(([xml]) => pick(xml)?.name)).toEqual(cases.map(([, name]) => name));
  });

  test("each scenario's levels, as scenarios.xml gives them", () => {
    expect(levels(ubl("Invoice", SPEC))).toEqual({ "BR-CL-23": "warning", "BR-CL-21": "warning", "UBL-CR-646": "error" });
    expect(levels(ubl("Invoice", EXTENSION))).toEqual({
      "BR-CL-21": "info",
      "BR-CL-23": "warning",
      "BR-CL-24": "info",
      "BR-CL-10": "info",
      "BR-CL-11": "info",
      "BR-CL-25": "info",
      "BR-CL-26": "info",
      "BR-CO-16": "info",
      "UBL-CR-470": "info",
      "UBL-CR-646": "info",
    });
    expect(levels(ubl("Invoice", CVD))).toEqual({ "BR-CL-13": "info", "BR-CL-23": "warning", "BR-CL-21": "warning", "UBL-CR-646": "error" });
    expect(levels(ubl("CreditNote", SPEC))).toEqual({ "BR-CL-23": "warning", "BR-CL-21": "warning" });
    expect(levels(ubl("CreditNote", CVD))).toEqual({ "BR-CL-13": "info", "BR-CL-23": "warning", "BR-CL-21": "warning", "UBL-CR-646": "error" });
    const ciiSr = { "CII-SR-452": "error", "CII-SR-453": "error", "CII-SR-454": "error" } as const;
    expect(levels(cii(SPEC))).toEqual({ "BR-CL-23": "warning", "BR-CL-21": "warning", ...ciiSr });
    expect(levels(cii(EXTENSION))).toEqual({ "BR-CL-23": "warning", "BR-CL-21": "info", "BR-CL-11": "info", "BR-CL-10": "info", "BR-CL-24": "info", "BR-CL-25": "info", "BR-CL-26": "info", ...ciiSr });
    expect(levels(cii(CVD))).toEqual({ "BR-CL-13": "info", "BR-CL-23": "warning", "BR-CL-21": "warning", ...ciiSr });
    expect(levels(ubl("Invoice", EN))).toEqual({});
  });
});

const TESTSUITE = "xrechnung-testsuite/src/test";
const corpus = (path: string) => readFileSync(join(CORPUS, TESTSUITE, path), "utf8");

describe.skipIf(cannotRun("verdicts at KoSIT's levels", buildMissing() ?? corpusMissing))("verdicts at KoSIT's levels", () => {
  let engine: Engine;
  beforeAll(() => {
    engine = createEngine(rulesetBundle());
  });
  async function judge(xml: string) {
    const outcome = await validateDocument(engine, { bytes: new TextEncoder().encode(xml) });
    if (!outcome.ok) throw new Error(outcome.message);
    return outcome;
  }
  const ids = (findings: { ruleId: string; severity: string }[]) => findings.map((f) => `${f.ruleId} ${f.severity}`);

  test("the four testsuite documents KoSIT accepts only with its levels are valid, their overridden findings at info", async () => {
    const cases: [string, string[]][] = [
      ["business-cases/extension/04.05a-INVOICE_uncefact.xml", ["BR-CL-10 info", "BR-CL-21 info"]],
      ["business-cases/extension/05.01a-INVOICE_ubl.xml", ["BR-CO-16 info", "UBL-CR-470 info"]],
      ["technical-cases/cvd/02.01a-cvd_INVOICE_ubl.xml", ["BR-CL-13 info"]],
      ["technical-cases/cvd/02.01a-cvd_INVOICE_uncefact.xml", ["BR-CL-13 info"]],
    ];
    for (const [path, overridden] of cases) {
      const { result } = await judge(corpus(path));
      expect({ path, valid: result.valid, errors: ids(result.errors) }).toEqual({ path, valid: true, errors: [] });
      expect(ids(result.warnings)).toEqual(expect.arrayContaining(overridden));
    }
  });

  test("UBL-CR-646, a CEN warning, rejects in the standard UBL scenario and is information in the extension one", async () => {
    const extension = corpus("business-cases/extension/04.01a-INVOICE_ubl.xml");
    expect(extension).toContain(`<cbc:CustomizationID>${EXTENSION}</cbc:CustomizationID>`);
    const asExtension = (await judge(extension)).result;
    expect(asExtension.valid).toBe(true);
    expect(ids(asExtension.warnings)).toContain("UBL-CR-646 info");
    const asStandard = (await judge(extension.replace(`<cbc:CustomizationID>${EXTENSION}`, `<cbc:CustomizationID>${SPEC}`))).result;
    expect(asStandard.valid).toBe(false);
    expect(ids(asStandard.errors)).toContain("UBL-CR-646 error");
  });

  test("an XRechnung verdict is sealed with the scenarios file, after the schema and before the rule files", async () => {
    const { result, layers } = await judge(corpus("business-cases/standard/01.01a-INVOICE_ubl.xml"));
    expect(result.valid).toBe(true);
    expect(result.rulesetArtifacts!.map((r) => r.key)).toEqual(["ubl_xsd", "xrechnung_severity_overrides", "en16931_ubl_schematron", "xrechnung_schematron"]);
    expect(result.rulesetArtifacts![1]).toMatchObject({ version: "2026-01-31", fileSha256: pinByPath(SCENARIOS)!.sha256 });
    expect(layers.map((l) => `${l.layer} ${l.status}`).slice(1, 3)).toEqual(["xsd ran", "severities ran"]);
    expect(result.schematronVersion).toBe("1.3.16");
    expect(result.ciusVersion).toBe("2.5.0");
  });
});
