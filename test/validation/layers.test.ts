// Validation as a list of layers: each layer reports ran, skipped or stopped, and the verdict is
// the same as before the layers were values (the differential and conformance suites hold that).

import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { rulesetBundle } from "../../src/assets/bundle";
import { createEngine } from "../../src/validation/engine";
import { validateDocument, type Engine, type LayerResult } from "../../src/validation/validate";
import { buildHybrid } from "../pdf/build";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices";
import { RULESETS_DIR, mirrorMissing } from "../support/corpus";
import { buildMissing, cannotRun } from "../support/requirements";

const EXAMPLE = () => readFileSync(`${RULESETS_DIR}en16931_ubl_schematron/1.3.16/examples/ubl-tc434-example1.xml`, "utf8");

async function layersOf(engine: Engine, bytes: Uint8Array | string) {
  const outcome = await validateDocument(engine, { bytes: typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes });
  if (!outcome.ok) throw new Error(outcome.message);
  return { result: outcome.result, layers: outcome.layers };
}

/** `kind status` per layer, in the order they ran. */
const shape = (layers: LayerResult[]) => layers.map((l) => `${l.layer} ${l.status}`);

describe.skipIf(cannotRun("validation layers", buildMissing() ?? mirrorMissing))("validation layers", () => {
  let engine: Engine;
  beforeAll(() => {
    engine = createEngine(rulesetBundle());
  });

  test("a valid UBL invoice: source skipped (XML), schema and rules ran, the French overlay skipped with why, advisory ran, container skipped", async () => {
    const { result, layers } = await layersOf(engine, EXAMPLE());
    expect(result.valid).toBe(true);
    expect(shape(layers)).toEqual(["source skipped", "xsd ran", "rules ran", "overlay skipped", "advisory ran", "container skipped"]);
    const [, xsd, rules, overlay] = layers;
    expect(xsd).toMatchObject({ name: "ubl-invoice", engine: "libxml2-wasm", artifact: { key: "ubl_xsd", version: "2.1" }, errors: 0 });
    expect(rules).toMatchObject({ name: "ubl/xslt/EN16931-UBL-validation.xslt", artifact: { key: "en16931_ubl_schematron" }, engine: "native" });
    expect(overlay!.reason).toContain("not a French invoice");
    // Every layer that ran sealed its artifact; a skipped one sealed nothing.
    expect(result.rulesetArtifacts!.map((r) => r.key)).toEqual(["ubl_xsd", "en16931_ubl_schematron"]);
  });

  test("a malformed document: the schema layer stops, every later layer is skipped, and no seal", async () => {
    const { result, layers } = await layersOf(engine, EXAMPLE().replace("</cbc:ID>", "</cbc:Id>"));
    expect(result.errors.map((e) => e.ruleId)).toEqual(["XML_MALFORMED"]);
    expect(shape(layers)).toEqual(["source skipped", "xsd stopped", "rules skipped", "overlay skipped", "advisory skipped", "container skipped"]);
    expect(layers[2]!.reason).toBe("the document is not well-formed XML");
    expect(result.rulesetSha256).toBeUndefined();
  });

  test("a document the schema rejects: the schema layer ran with its errors, and the rules still judge it", async () => {
    const { result, layers } = await layersOf(engine, EXAMPLE().replace("<cbc:IssueDate>", "<cbc:Unknown>x</cbc:Unknown><cbc:IssueDate>"));
    expect(result.valid).toBe(false);
    expect(shape(layers).slice(1, 3)).toEqual(["xsd ran", "rules ran"]);
    expect(layers[1]!.errors).toBeGreaterThan(0);
    expect(result.errors.every((e) => e.ruleId === "XSD")).toBe(true);
  });

  test("a rule file that stops on the document is a stopped layer with its RULE_FILE_STOPPED finding, and the verdict is sealed", async () => {
    // A payable amount that is no number stops the CEN rules' xs:decimal casts.
    const { result, layers } = await layersOf(engine, EXAMPLE().replace(/(<cbc:PayableAmount[^>]*>)[^<]*/, "$1not-a-number"));
    const rules = layers.find((l) => l.layer === "rules")!;
    expect(rules).toMatchObject({ status: "stopped", errors: 1 });
    expect(rules.reason).toMatch(/^[A-Z]{4}\d{4}/);
    expect(result.errors.map((e) => e.ruleId)).toContain("RULE_FILE_STOPPED");
    expect(result.rulesetSha256).toBeDefined();
  });

  test("a hybrid PDF: the source layer ran (its XML extracted) and the container layer ran the BR-HYBRID rules", async () => {
    const { pdf } = await buildHybrid(SCENARIOS[0]!.build(LOCALES.de), "en16931");
    const { result, layers } = await layersOf(engine, pdf);
    expect(result.valid).toBe(true);
    expect(layers[0]).toMatchObject({ layer: "source", status: "ran", name: "factur-x.xml", engine: "pdf-lib" });
    expect(layers.at(-1)).toMatchObject({ layer: "container", name: "BR-HYBRID", status: "ran", errors: 0 });
    expect(shape(layers)).toEqual(["source ran", "xsd ran", "rules ran", "overlay skipped", "advisory ran", "container ran"]);
  });

  test("a format judged by its schema alone has no rule layers, only its authority's advisories", async () => {
    const { layers } = await layersOf(engine, `<p:FatturaElettronica xmlns:p="http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2" versione="FPR12"/>`);
    expect(shape(layers)).toEqual(["source skipped", "xsd ran", "advisory ran", "container skipped"]);
  });
});
