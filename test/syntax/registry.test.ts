// The syntax registry: one binding per EN 16931 syntax, and each binding reads back what it writes
// under every record of its syntax that generate writes with.

import { describe, expect, test } from "bun:test";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";
import { toModel } from "../../src/invoice/to-model.ts";
import { RECORDS } from "../../src/profiles/catalogue.ts";
import { EN16931_SYNTAXES } from "../../src/profiles/ids.ts";
import { bindingOf } from "../../src/syntax/registry.ts";

test("every EN 16931 syntax has a binding under its own id", () => {
  expect(EN16931_SYNTAXES.map((syntax) => bindingOf(syntax).id)).toEqual(["cii", "ubl"]);
});

describe.each(EN16931_SYNTAXES)("the %s binding", (syntax) => {
  const binding = bindingOf(syntax);
  const writers = RECORDS.flatMap((record) => (record.syntax === syntax && record.write ? [{ id: record.id, write: record.write }] : []));

  test("has records to write with", () => expect(writers.length).toBeGreaterThan(0));

  for (const { id, write } of writers) {
    test(`${id}: what it writes reads back and writes to the same bytes, losing nothing more`, () => {
      for (const scenario of SCENARIOS) {
        const model = toModel(scenario.build(LOCALES.de), { specificationIdentifier: write.customizationId, businessProcessType: write.businessProcess });
        const untouched = structuredClone(model);
        const first = binding.write(model, write);
        expect(model).toEqual(untouched);
        const again = binding.write(binding.read(new TextEncoder().encode(first.xml)), write);
        expect(again.xml).toBe(first.xml);
        // Nothing new lost (MINIMUM reads back a blank buyer address, and drops it again).
        expect(first.lost).toEqual(expect.arrayContaining(again.lost));
      }
    });
  }
});
