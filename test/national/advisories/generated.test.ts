// Our writers compute every national total by construction, so their output for every fixture
// scenario draws no national advisory (credit notes are not written in these formats).

import { expect, test } from "bun:test";
import { LOCALES, SCENARIOS } from "../../../fixtures/invoices.ts";
import { advisoryIds, generated, judge } from "./support.ts";

const CASES = (["fatturapa", "facturae"] as const).flatMap((standard) =>
  SCENARIOS.flatMap((s) => {
    const xml = generated(standard, s.name);
    return xml === undefined ? [] : [{ standard, scenario: s.name, xml }];
  }),
);

test("every invoice scenario is written in both formats", () => {
  expect(CASES.length).toBe(2 * SCENARIOS.filter((s) => s.build(LOCALES.it).documentType !== "creditnote").length);
});

test.each(CASES)("$standard, $scenario: no advisory", async ({ xml }) => {
  const result = await judge(xml);
  expect(result.valid).toBe(true);
  expect(advisoryIds(result)).toEqual([]);
});
