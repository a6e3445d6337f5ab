import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { generate } from "../../scripts/pins-from-manifest";
import { mirrorMissing } from "../support/corpus";
import { entryPins, isRuleEntry, pinByPath, pins, versions, versionsOf } from "../../src/rulesets/pins";

const factsOf = (key: string, version: string) => versions.find((v) => v.key === key && v.version === version);
import { cannotRun } from "../support/requirements";

const repoRoot = resolve(import.meta.dir, "../..");
const mirror = resolve(repoRoot, "../shared/rulesets");

describe.skipIf(cannotRun("pins vs manifest", mirrorMissing))("committed pins match the manifest", () => {
  test("rulesets/pins.json and rulesets/versions.json equal the generator output", () => {
    const { pins: pinsText, versions: versionsText } = generate(mirror);
    expect(readFileSync(join(repoRoot, "rulesets/pins.json"), "utf8")).toBe(pinsText);
    expect(readFileSync(join(repoRoot, "rulesets/versions.json"), "utf8")).toBe(versionsText);
  });
});

describe("pin list", () => {
  test("has one row per file, unique paths under <key>/<version>/", () => {
    expect(pins.length).toBe(216);
    expect(new Set(pins.map((p) => p.path)).size).toBe(pins.length);
    for (const p of pins) {
      expect(p.path.startsWith(`${p.key}/${p.version}/`)).toBe(true);
      expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(p.upstreamUrl.startsWith("https://")).toBe(true);
    }
  });

  test("every pinned key and version has version facts", () => {
    for (const p of pins) expect(factsOf(p.key, p.version)).toBeDefined();
    expect(new Set(pins.map((p) => `${p.key}@${p.version}`)).size).toBe(versions.length);
  });

  test("helpers select by key, version, role and path", () => {
    const xr = pins.filter((p) => p.key === "xrechnung_schematron" && p.version === "2.5.0");
    expect(xr.length).toBe(6);
    expect(xr.filter((p) => p.role === "entry").map((p) => p.path)).toEqual([
      "xrechnung_schematron/2.5.0/schematron/cii/XRechnung-CII-validation.xsl",
      "xrechnung_schematron/2.5.0/schematron/ubl/XRechnung-UBL-validation.xsl",
    ]);
    expect(entryPins().every((p) => p.role === "entry")).toBe(true);
    expect(entryPins().filter(isRuleEntry).length).toBe(42);
    expect(pinByPath("ubl_xsd/2.1/xsd/maindoc/UBL-Invoice-2.1.xsd")?.role).toBe("entry");
    expect(versionsOf("peppol_bis_schematron").map((v) => v.version)).toEqual(["3.0.19", "3.0.18"]);
    expect(factsOf("peppol_bis_schematron", "3.0.18")?.supersededMandatoryOn).toBe("2025-08-25");
  });
});
