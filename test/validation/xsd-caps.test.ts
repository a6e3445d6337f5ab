// libxml2 reports a schema error per offending node, and libxml2-wasm's validator located each one
// by walking its preceding siblings: tens of thousands of invalid like-named siblings were quadratic
// and answered one finding each. The engine now formats the first FINDINGS_PER_RULE errors (every
// schema finding has the rule id XSD) and counts the rest.

import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { FINDINGS_PER_RULE } from "../../src/validation/finding-caps.ts";
import { createXsdEngine } from "../../src/validation/xsd.ts";
import { RULESETS_DIR, rulesetFile } from "../support/corpus.ts";

const engine = createXsdEngine(rulesetFile);
afterAll(() => engine.dispose());
const example = readFileSync(`${RULESETS_DIR}en16931_ubl_schematron/1.3.16/examples/ubl-tc434-example1.xml`, "utf8");

test("schema errors past the cap are counted, not formatted", () => {
  // Two errors per note (two undeclared attributes), 80,000 in all, in a 0.9 MB document.
  const notes = 40_000;
  const xml = example.replace("<cbc:Note>", `${'<cbc:Note a="1" b="2"/>'.repeat(notes)}<cbc:Note>`);
  const started = performance.now();
  const outcome = engine.validate("ubl-invoice", xml);
  expect(performance.now() - started).toBeLessThan(3_000);
  expect(outcome.status).toBe("invalid");
  expect(outcome.findings).toHaveLength(FINDINGS_PER_RULE);
  expect(outcome.omitted).toBe(2 * notes - FINDINGS_PER_RULE);
  expect(outcome.findings[0]).toMatchObject({ message: expect.stringContaining("The attribute 'a' is not allowed"), location: "/*/cbc:Note[1]" });
  expect(outcome.findings.at(-1)!.location).toBe(`/*/cbc:Note[${FINDINGS_PER_RULE / 2}]`);
});

test("a valid document has no findings and nothing omitted; one error is one finding", () => {
  expect(engine.validate("ubl-invoice", example)).toMatchObject({ status: "valid", findings: [], omitted: 0 });
  const invalid = engine.validate("ubl-invoice", example.replace("</Invoice>", "<Foo/></Invoice>"));
  expect(invalid).toMatchObject({ status: "invalid", omitted: 0 });
  expect(invalid.findings).toEqual([expect.objectContaining({ message: expect.stringContaining("Foo': This element is not expected"), line: expect.any(Number), location: "/*/*[34]" })]);
});
