// Convert as a worker runs it, in the test's process: the engine built once per caller, live mode,
// the organization's default rules, a fixed date for re-wrapped PDFs.

import { convertDocument, type ConvertQuery } from "../../src/convert/convert.ts";
import { createEngine } from "../../src/validation/engine.ts";
import { validateDocument } from "../../src/validation/validate.ts";
import { rulesetBundle } from "../../src/assets/bundle.ts";

const NOW = new Date("2026-11-24T12:00:00Z");

export function converter() {
  const engine = createEngine(rulesetBundle());
  return (bytes: Uint8Array, query: ConvertQuery) =>
    convertDocument({ bytes, query, livemode: true, judge: { ruleset: undefined }, now: NOW }, { judge: (request) => validateDocument(engine, request) });
}
