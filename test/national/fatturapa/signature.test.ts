// The FatturaPA schema imports the W3C signature schema; a ds:Signature is judged by that schema,
// so a broken one is an error of its own (were the import skipped, the element would not resolve
// and the verdict would rest on a half-loaded schema).

import { expect, test } from "bun:test";
import { scenario, write, xsdErrors } from "./support.ts";

test("a ds:Signature is judged against the real signature schema: a broken one names what it lacks", async () => {
  const { xml } = write(scenario("domestic, one rate"));
  const closing = xml.lastIndexOf("</");
  const signed = `${xml.slice(0, closing)}<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:Bogus/></ds:Signature>${xml.slice(closing)}`;
  expect(await xsdErrors(xml)).toEqual([]);
  const errors = await xsdErrors(signed);
  expect(errors.length).toBeGreaterThan(0);
  expect(errors.join("\n")).toContain("SignedInfo");
});
