// The conversion cases users found broken in other converters (research, wave 2, §1.3) that are
// about the conversion itself rather than one reader: BT-23 copied, not defaulted; a zero rounding
// amount kept; dates in a format EN 16931 does not allow refused; a credit note staying a credit
// note across syntaxes with its due date where each syntax keeps it. Each in both directions. (The
// reader cases, items 1-4, 6 and 9, are test/syntax/leftovers-cases.test.ts.)

import { describe, expect, test } from "bun:test";
import { converter } from "../support/convert.ts";
import { modelDifferences } from "../../src/convert/model-diff.ts";
import { generateXml, type GenerateInput } from "../../src/generate/generate.ts";
import { bindingOf } from "../../src/syntax/registry.ts";
import { DomainError } from "../../src/errors/domain-error.ts";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";
import { buildMissing, cannotRun } from "../support/requirements.ts";

const skip = cannotRun("convert user cases", buildMissing());

describe.skipIf(skip)("conversion cases users found", () => {
  const converting = converter();
  const convert = (xml: string, targetFormat: "cii" | "ubl") => converting(new TextEncoder().encode(xml), { targetFormat });
  const generated = (syntax: "cii" | "ubl", scenario = 0, extra: Partial<GenerateInput["invoice"]> = {}) =>
    new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax, invoice: { ...SCENARIOS[scenario]!.build(LOCALES.de), ...extra } } satisfies GenerateInput, { livemode: true }).bytes);
  const PLACES = {
    cii: { process: ["<ram:ID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</ram:ID>", "<ram:ID>urn:example:own-process</ram:ID>"], payable: ["<ram:DuePayableAmount>", "<ram:RoundingAmount>0</ram:RoundingAmount><ram:DuePayableAmount>"] },
    ubl: { process: ["<cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>", "<cbc:ProfileID>urn:example:own-process</cbc:ProfileID>"], payable: ["<cbc:PayableAmount", '<cbc:PayableRoundingAmount currencyID="EUR">0</cbc:PayableRoundingAmount><cbc:PayableAmount'] },
  } as const;

  for (const [from, to] of [["cii", "ubl"], ["ubl", "cii"]] as const) {
    test(`${from} -> ${to}: the source's own BT-23 is copied, never replaced by a default`, async () => {
      const [anchor, own] = PLACES[from].process;
      const xml = generated(from);
      expect(xml).toContain(anchor);
      const converted = await convert(xml.replace(anchor, own), to);
      expect(bindingOf(to).read(converted.file).processControl.businessProcessType).toBe("urn:example:own-process");
    }, 60_000);

    test(`${from} -> ${to}: a rounding amount of zero is kept`, async () => {
      const [anchor, withRounding] = PLACES[from].payable;
      const xml = generated(from);
      expect(xml).toContain(anchor);
      const converted = await convert(xml.replace(anchor, withRounding), to);
      expect(bindingOf(to).read(converted.file).totals.roundingAmount).toBe("0");
    }, 60_000);

    test(`${from} -> ${to}: a credit note stays a credit note, its due date where the target keeps it, and comes back as it was`, async () => {
      const creditNote = SCENARIOS.findIndex((s) => s.name === "credit note with preceding invoice");
      const source = generated(from, creditNote, { dueDate: "2025-04-13" });
      const there = await convert(source, to);
      const xml = new TextDecoder().decode(there.file);
      // BT-9: a UBL credit note has no cbc:DueDate; it keeps the date in its payment means.
      if (to === "ubl") expect(xml).toMatch(/<CreditNote [\s\S]*<cac:PaymentMeans>[\s\S]*<cbc:PaymentDueDate>2025-04-13<\/cbc:PaymentDueDate>/);
      else expect(xml).toMatch(/<ram:TypeCode>381<\/ram:TypeCode>[\s\S]*<ram:DueDateDateTime>\s*<udt:DateTimeString format="102">20250413</);
      expect(bindingOf(to).read(there.file)).toMatchObject({ kind: "creditNote", dueDate: "2025-04-13" });
      const back = await convert(xml, from);
      const differences = modelDifferences(bindingOf(from).read(new TextEncoder().encode(source)), bindingOf(from).read(back.file));
      expect(differences).toEqual([]);
    }, 60_000);
  }

  test("a binary attachment (BG-24) crosses UBL -> CII -> UBL whole: id, description, file name, MIME code and content", async () => {
    const attachment =
      "<cac:AdditionalDocumentReference><cbc:ID>ATT-1</cbc:ID><cbc:DocumentDescription>Timesheet</cbc:DocumentDescription>" +
      '<cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="timesheet.pdf">JVBERi0xLjQKJcOkw7zDtsOfCg==</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>';
    const xml = generated("ubl").replace("<cac:AccountingSupplierParty>", `${attachment}<cac:AccountingSupplierParty>`);
    const there = await convert(xml, "cii");
    expect(new TextDecoder().decode(there.file)).toContain("JVBERi0xLjQKJcOkw7zDtsOfCg==");
    const back = await convert(new TextDecoder().decode(there.file), "ubl");
    const source = bindingOf("ubl").read(new TextEncoder().encode(xml));
    expect(source.supportingDocuments).toHaveLength(1);
    expect(modelDifferences(source, bindingOf("ubl").read(back.file))).toEqual([]);
  }, 60_000);

  test("a CII date in a format EN 16931 does not allow (610, a month) is refused, naming its format", async () => {
    const xml = generated("cii").replace(/<udt:DateTimeString format="102">(\d{6})\d\d<\/udt:DateTimeString>/, '<udt:DateTimeString format="610">$1</udt:DateTimeString>');
    expect(xml).toContain('format="610"');
    const error = await convert(xml, "ubl").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toMatch(/^(CONVERSION_LOSSY_FAILCLOSED|VALIDATION_ERROR)$/);
    if ((error as DomainError).code === "CONVERSION_LOSSY_FAILCLOSED") expect((error as DomainError).details!.unmappablePaths).toContain("/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString/@format");
  }, 60_000);
});
