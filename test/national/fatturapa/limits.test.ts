// No silent truncation: a value that does not fit its FatturaPA field is a 400 naming the request's
// pointer, every such field at once; the same values within the limits are written unchanged.

import { describe, expect, test } from "bun:test";
import type { FieldError } from "../../../src/errors/domain-error.ts";
import type { InvoiceInput } from "../../../src/invoice/schema.ts";
import { scenario, write } from "./support.ts";

function refusal(invoice: InvoiceInput): FieldError[] {
  try {
    write(invoice);
  } catch (e) {
    expect(e).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    return (e as { details: { fields: FieldError[] } }).details.fields;
  }
  throw new Error("written, expected a refusal");
}

const base = () => scenario("domestic, one rate");

describe("FatturaPA field limits", () => {
  test("too long: Denominazione 80, Descrizione 1000, Numero 20, Causale 200, each by pointer", () => {
    const invoice = base();
    const fields = refusal({
      ...invoice,
      number: "N".repeat(21),
      seller: { ...invoice.seller, name: "S".repeat(81) },
      lines: [{ ...invoice.lines[0]!, description: "d".repeat(1001) }, invoice.lines[1]!],
      italy: { causale: ["ok", "c".repeat(201)] },
    });
    expect(fields).toEqual(
      expect.arrayContaining([
        { path: "/invoice/seller/name", message: "must not have more than 80 characters (FatturaPA Denominazione)", keyword: "maxLength" },
        { path: "/invoice/lines/0/description", message: "must not have more than 1000 characters (FatturaPA Descrizione)", keyword: "maxLength" },
        { path: "/invoice/number", message: "must not have more than 20 characters (FatturaPA Numero)", keyword: "maxLength" },
        { path: "/invoice/italy/causale/1", message: "must not have more than 200 characters (FatturaPA Causale)", keyword: "maxLength" },
      ]),
    );
    expect(fields).toHaveLength(4);
  });

  test("at the limit is written unchanged", () => {
    const invoice = base();
    const name = "S".repeat(80);
    expect(write({ ...invoice, seller: { ...invoice.seller, name } }).xml).toContain(`<Denominazione>${name}</Denominazione>`);
  });

  test("outside Latin-1: the euro sign in a description, by pointer", () => {
    const invoice = base();
    const fields = refusal({ ...invoice, lines: [invoice.lines[0]!, { ...invoice.lines[1]!, description: "Spese 10 €" }] });
    expect(fields).toEqual([{ path: "/invoice/lines/1/description", message: "must hold only Latin-1 characters (FatturaPA Descrizione); U+20AC is not", keyword: "latin1" }]);
  });

  test("Latin-1 accents pass where Latin-1 is allowed, not in Numero (Basic Latin)", () => {
    const invoice = base();
    expect(write({ ...invoice, seller: { ...invoice.seller, name: "Società Àlfa" } }).xml).toContain("<Denominazione>Società Àlfa</Denominazione>");
    expect(refusal({ ...invoice, number: "FATTURA-è1" })).toEqual([expect.objectContaining({ path: "/invoice/number", keyword: "latin1" })]);
  });

  test("address: street too long, Italian CAP not 5 digits", () => {
    const invoice = base();
    const fields = refusal({ ...invoice, buyer: { ...invoice.buyer, address: { ...invoice.buyer.address, street: "V".repeat(61), postalCode: "1234" } } });
    expect(fields.map((f) => [f.path, f.keyword])).toEqual([
      ["/invoice/buyer/address/postalCode", "pattern"],
      ["/invoice/buyer/address/street", "maxLength"],
    ]);
  });

  test("a zero rate without an Italian Natura names the line's category", () => {
    const invoice = base();
    expect(refusal({ ...invoice, lines: [{ ...invoice.lines[0]!, vatRate: 0, vatCategoryCode: "L" }] })).toEqual([expect.objectContaining({ path: "/invoice/lines/0/vatCategoryCode", keyword: "enum" })]);
  });

  test("numbers beyond the XSD's integer digits are refused, not written invalid", () => {
    const invoice = base();
    const fields = refusal({ ...invoice, lines: [{ ...invoice.lines[0]!, quantity: 1, unitPrice: 123_456_789_012 }] });
    expect(fields.map((f) => [f.path, f.keyword])).toEqual([
      ["/invoice/lines/0/unitPrice", "maximum"],
      ["/invoice/lines/0", "maximum"],
      ["/invoice/lines", "maximum"],
    ]);
  });
});
