// A document the XSD step reads but the rule engines' reading policy refuses is a verdict about the
// caller's document (XML_REFUSED or XML_MALFORMED), never an engine failure answered 503.
import { expect, test } from "bun:test";
import { rulesetBundle } from "../../src/assets/bundle";
import { createEngine } from "../../src/validation/engine";
import { validateDocument } from "../../src/validation/validate";
import { generateXml } from "../../src/generate/generate";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";

const engine = createEngine(rulesetBundle());

test("an encoding libxml2 reads and the reading policy does not (CP437) is judged invalid with the policy's reason", async () => {
  const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", invoice: SCENARIOS[0].build(LOCALES.de) }, { livemode: true }).bytes);
  const cp437 = new TextEncoder().encode(xml.replace(/^<\?xml[^>]*\?>/, '<?xml version="1.0" encoding="CP437"?>'));
  expect(engine.xsd.validate("cii-d16b", cp437).status).not.toBe("malformed");
  const outcome = await validateDocument(engine, { bytes: cp437 });
  if (!outcome.ok) throw new Error(outcome.message);
  expect(outcome.result.valid).toBe(false);
  expect(outcome.result.errors).toHaveLength(1);
  expect(["XML_REFUSED", "XML_MALFORMED"]).toContain(outcome.result.errors[0]!.ruleId);
  expect(outcome.result.errors[0]!.message).toContain("CP437");
});
