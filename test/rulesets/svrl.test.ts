import { describe, expect, test } from "bun:test";
import { parseSvrl } from "../../src/validation/svrl";

const svrl = `<?xml version="1.0" encoding="UTF-8"?>
<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl" title="t">
  <svrl:active-pattern id="p1"/>
  <svrl:fired-rule context="/Invoice"/>
  <svrl:failed-assert id="BR-01" flag="fatal" location="/*:Invoice[1]" test="cbc:ID">
    <svrl:text>[BR-01]-An Invoice shall
      have   a number.</svrl:text>
  </svrl:failed-assert>
  <svrl:successful-report id="BR-DE-19" flag="warning" location="/*:Invoice[1]/*:PaymentMeans[1]">
    <svrl:diagnostic-reference diagnostic="d">not the message</svrl:diagnostic-reference>
    <svrl:text>IBAN &amp; check</svrl:text>
  </svrl:successful-report>
  <svrl:failed-assert location="/x"><svrl:text/></svrl:failed-assert>
</svrl:schematron-output>`;

describe("parseSvrl", () => {
  test("returns failed asserts and successful reports in document order", () => {
    expect(parseSvrl(svrl)).toEqual([
      { ruleId: "BR-01", flag: "fatal", location: "/*:Invoice[1]", message: "[BR-01]-An Invoice shall have a number." },
      { ruleId: "BR-DE-19", flag: "warning", location: "/*:Invoice[1]/*:PaymentMeans[1]", message: "IBAN & check" },
      { ruleId: null, flag: null, location: "/x", message: "" },
    ]);
  });

  test("a report without findings is empty", () => {
    expect(parseSvrl(`<schematron-output xmlns="http://purl.oclc.org/dsdl/svrl"><fired-rule context="/"/></schematron-output>`)).toEqual([]);
  });

  test("rejects text that is not SVRL", () => {
    expect(() => parseSvrl("<html/>")).toThrow("not an SVRL report");
    expect(() => parseSvrl("<svrl:schematron-output xmlns:svrl='http://purl.oclc.org/dsdl/svrl'>")).toThrow("not well-formed");
  });
});
