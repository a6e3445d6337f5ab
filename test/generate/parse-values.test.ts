// A document whose values the JSON invoice cannot take is refused like malformed XML: 400
// PARSE_FAILED naming the value, never a RangeError answered as a 500.

import { expect, test } from "bun:test";
import { generateXml } from "../../src/generate/generate.ts";
import { parseDocument } from "../../src/generate/parse.ts";
import { DomainError } from "../../src/errors/domain-error.ts";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";
import { decimalOf } from "../../src/invoice/to-model.ts";
import { DOM_LIMITS, readXmlText } from "../../src/syntax/xml-policy.ts";

const invoice = SCENARIOS[0].build(LOCALES.de);
const QUANTITY = { ubl: /(<cbc:InvoicedQuantity[^>]*>)[^<]*/, cii: /(<ram:BilledQuantity[^>]*>)[^<]*/ };

for (const syntax of ["ubl", "cii"] as const) {
  test(`${syntax}: a quantity that is not a number is 400 PARSE_FAILED naming it`, async () => {
    const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax, invoice }, { livemode: true }).bytes);
    const refusal = await parseDocument(new TextEncoder().encode(xml.replace(QUANTITY[syntax], "$1twelve"))).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ status: 400, code: "PARSE_FAILED", details: { format: syntax } });
    expect((refusal as Error).message).toContain('"twelve"');
  });
}

for (const syntax of ["ubl", "cii"] as const) {
  test(`${syntax}: a quantity longer than a JSON number carries is 400 PARSE_FAILED, not null or a rounded number`, async () => {
    const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax, invoice }, { livemode: true }).bytes);
    const huge = "9".repeat(400);
    const refusal = await parseDocument(new TextEncoder().encode(xml.replace(QUANTITY[syntax], `$1${huge}`))).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 400, code: "PARSE_FAILED" });
    expect((refusal as Error).message).toContain("2^53 - 1");
  });
}

test("decimalOf reads the largest doubles exactly instead of rounding them to Infinity", () => {
  expect(decimalOf(Number.MAX_VALUE)).toBe(`17976931348623157${"0".repeat(292)}`);
  expect(decimalOf(-Number.MAX_VALUE)).toStartWith("-17976931348623157");
});

test("parse reads at most DOM_LIMITS.maxElements elements into a tree (a megabyte of empty elements cost 200 MiB); the rule engines' reading has no such limit", async () => {
  const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax: "ubl", invoice }, { livemode: true }).bytes);
  const flooded = new TextEncoder().encode(xml.replace(/(<cbc:ID>)/, `${"<X/>".repeat(DOM_LIMITS.maxElements!)}$1`));
  const refusal = await parseDocument(flooded).catch((error: unknown) => error);
  expect(refusal).toMatchObject({ status: 400, code: "PARSE_FAILED" });
  expect((refusal as Error).message).toContain(`more than ${DOM_LIMITS.maxElements!.toLocaleString("en-US")} elements`);
  expect(readXmlText(flooded).length).toBeGreaterThan(DOM_LIMITS.maxElements! * 4);
});
