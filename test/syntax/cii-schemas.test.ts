// The writer's schema tables must say what the pinned XSDs say; regenerate with
// `bun src/syntax/cii/schemas.gen.ts` when a pin changes. Also checks the reader's refusals.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generate } from "../../src/syntax/cii/schemas.gen.ts";
import { CiiReadError, readCii } from "../../src/syntax/cii/read.ts";
import { mirrorMissing, RULESETS_DIR } from "../support/corpus.ts";
import { cannotRun } from "../support/requirements.ts";

describe.skipIf(cannotRun("CII schema tables", mirrorMissing))("CII schema tables", () => {
  test("schemas.ts is what the pinned XSDs generate", () => {
    const committed = readFileSync(fileURLToPath(new URL("../../src/syntax/cii/schemas.ts", import.meta.url)), "utf8");
    expect(generate((p) => readFileSync(RULESETS_DIR + p, "utf8"))).toBe(committed);
  });
});

describe("CII reader refusals", () => {
  const minimal = '<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>';

  test("a DOCTYPE is refused before parsing", () => {
    expect(() => readCii(`<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${minimal}`)).toThrow(CiiReadError);
  });

  test("malformed XML and foreign roots are refused", () => {
    expect(() => readCii("<rsm:CrossIndustryInvoice")).toThrow(CiiReadError);
    expect(() => readCii('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>')).toThrow(CiiReadError);
  });

  test("an empty invoice reads as a model with every mandatory term blank", () => {
    const invoice = readCii(minimal);
    expect(invoice.kind).toBe("invoice");
    expect(invoice.lines).toEqual([]);
    expect(invoice.invoiceNumber).toBe("");
  });
});
