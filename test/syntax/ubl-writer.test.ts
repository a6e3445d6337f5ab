// The writer's contract beyond the corpus round trip: same model, same bytes; order of the model's
// fields does not leak into the output; values are escaped; the credit note uses its own names.

import { describe, expect, test } from "bun:test";
import type { Invoice } from "../../src/model/index.ts";
import { readUbl } from "../../src/syntax/ubl/read.ts";
import { writeUbl } from "../../src/syntax/ubl/write.ts";
import { always, inSequence, leaf, serialize } from "../../src/syntax/xml-writer.ts";

function sample(): Invoice {
  return {
    kind: "invoice",
    invoiceNumber: "INV-1 <&> \"quoted\"",
    issueDate: "2025-01-31",
    typeCode: "380",
    currencyCode: "EUR",
    dueDate: "2025-02-28",
    buyerReference: "04011000-12345-03",
    notes: [{ subjectCode: "AAI", text: "Line one\nline two" }, { text: "plain" }],
    processControl: { specificationIdentifier: "urn:cen.eu:en16931:2017", businessProcessType: "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0" },
    precedingInvoices: [],
    seller: {
      name: "Seller GmbH",
      identifiers: [{ value: "4000001000005", scheme: "0088" }],
      vatId: "DE123456789",
      electronicAddress: { value: "seller@example.com", scheme: "EM" },
      address: { line1: "Hauptstr. 1", city: "Berlin", postCode: "10115", countryCode: "DE" },
    },
    buyer: { name: "Buyer AG", address: { countryCode: "DE" } },
    paymentInstructions: {
      meansTypeCode: "58",
      creditTransfers: [{ accountId: "DE02120300000000202051" }, { accountId: "DE02500105170137075030" }],
      directDebit: { creditorId: "DE98ZZZ09999999999" },
    },
    allowances: [],
    charges: [{ amount: "10.00", vatCategoryCode: "S", vatRate: "19", reason: "Freight" }],
    totals: { lineNetTotal: "100.00", chargeTotal: "10.00", taxExclusiveTotal: "110.00", vatTotal: "20.90", taxInclusiveTotal: "130.90", payableAmount: "130.90" },
    vatBreakdown: [{ taxableAmount: "110.00", taxAmount: "20.90", categoryCode: "S", rate: "19" }],
    supportingDocuments: [],
    lines: [
      {
        id: "1",
        quantity: "2",
        unitCode: "C62",
        netAmount: "100.00",
        allowances: [],
        charges: [],
        price: { netPrice: "50.00" },
        vat: { categoryCode: "S", rate: "19" },
        item: { name: "Widget", classifications: [], attributes: [] },
      },
    ],
  };
}

const plain = (x: unknown) => JSON.parse(JSON.stringify(x));

describe("UBL writer", () => {
  test("is deterministic: same model, same bytes, whatever the key order", () => {
    const a = writeUbl(sample());
    const shuffled = Object.fromEntries(Object.entries(sample()).reverse()) as unknown as Invoice;
    expect(writeUbl(sample())).toBe(a);
    expect(writeUbl(shuffled)).toBe(a);
    expect(writeUbl(readUbl(a))).toBe(a);
  });

  test("round-trips the model, escaping markup characters", () => {
    const xml = writeUbl(sample());
    expect(xml).toContain("<cbc:ID>INV-1 &lt;&amp;&gt; \"quoted\"</cbc:ID>");
    expect(xml).toContain("<cbc:Note>#AAI#Line one\nline two</cbc:Note>");
    expect(plain(readUbl(xml))).toEqual(plain(sample()));
  });

  test("writes one PaymentMeans per account and BT-90 on the seller when there is no payee", () => {
    const xml = writeUbl(sample());
    expect(xml.match(/<cac:PaymentMeans>/g)?.length).toBe(2);
    expect(xml).toContain('<cbc:ID schemeID="SEPA">DE98ZZZ09999999999</cbc:ID>');
  });

  test("a credit note gets its own root, line and quantity names, and its due date on the payment means", () => {
    const note: Invoice = { ...sample(), kind: "creditNote", typeCode: "381", precedingInvoices: [{ number: "INV-0", issueDate: "2024-12-01" }] };
    const xml = writeUbl(note);
    expect(xml).toContain('<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"');
    expect(xml).toContain("<cac:CreditNoteLine>");
    expect(xml).toContain('<cbc:CreditedQuantity unitCode="C62">2</cbc:CreditedQuantity>');
    expect(xml).toContain("<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>");
    expect(xml).not.toContain("<cbc:DueDate>");
    expect(xml).toContain("<cbc:PaymentDueDate>2025-02-28</cbc:PaymentDueDate>");
    expect(plain(readUbl(xml))).toEqual(plain(note));
  });

  test("refuses a DOCTYPE and foreign roots", () => {
    expect(() => readUbl('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "x">]><Invoice/>')).toThrow(/DOCTYPE/);
    expect(() => readUbl("<Invoice/>")).toThrow(/not a UBL/);
  });
});

describe("xml-writer", () => {
  test("escapes attributes so their whitespace survives and refuses characters XML cannot hold", () => {
    const xml = serialize(always("a", leaf("b", "x", { n: 'q"\t\n<' })));
    expect(xml).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<a>\n  <b n="q&quot;&#9;&#10;&lt;">x</b>\n</a>\n');
    expect(() => serialize(always("a", leaf("b", "bell\u0007")))).toThrow(/cannot represent/);
  });

  test("orders by a sequence, stable among equals, and rejects names outside it", () => {
    const nodes = [leaf("c", "1")!, leaf("a", "2")!, leaf("c", "3")!];
    expect(inSequence(nodes, ["a", "c"]).map((n) => n.text)).toEqual(["2", "1", "3"]);
    expect(() => inSequence(nodes, ["a"])).toThrow(/no place/);
  });
});
