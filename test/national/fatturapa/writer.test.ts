// FatturaPA ordinaria and semplificata from the Italian fixtures: valid under the pinned XSDs,
// byte-for-byte deterministic, routed and addressed as SDI wants, natures per the mapping table.

import { describe, expect, test } from "bun:test";
import type { InvoiceInput } from "../../../src/invoice/schema.ts";
import { IT, scenario, write, xsdErrors } from "./support.ts";

/** Every value of an element, in document order. */
const values = (xml: string, name: string): string[] => [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, "g"))].map((m) => m[1]!);

/** The CessionarioCommittente block. */
const buyerBlock = (xml: string): string => xml.slice(xml.indexOf("<CessionarioCommittente>"), xml.indexOf("</CessionarioCommittente>"));

function manyLines(count: number): InvoiceInput {
  const base = scenario("domestic, one rate");
  const lines = Array.from({ length: count }, (_, i) => ({ ...base.lines[0]!, description: `Item ${i + 1}`, quantity: (i % 7) + 1, unitPrice: 3.3333 + i, vatRate: i % 3 === 0 ? 10 : 22 }));
  return { ...base, lines };
}

const ORDINARIA: { name: string; invoice: () => InvoiceInput; expect: (xml: string) => void }[] = [
  {
    name: "domestic",
    invoice: () => scenario("domestic, one rate"),
    expect: (xml) => {
      expect(values(xml, "CodiceDestinatario")).toEqual(["0000000"]);
      expect(values(xml, "RegimeFiscale")).toEqual(["RF01"]);
      expect(values(xml, "ModalitaPagamento")).toEqual(["MP05"]);
    },
  },
  {
    name: "foreign buyer (export, G)",
    invoice: () => scenario("export outside the EU (G)"),
    expect: (xml) => {
      expect(values(xml, "CodiceDestinatario")).toEqual(["XXXXXXX"]);
      expect(values(buyerBlock(xml), "CAP")).toEqual(["00000"]);
      expect(values(buyerBlock(xml), "Provincia")).toEqual([]);
      expect(values(buyerBlock(xml), "IdCodice")).toEqual(["99999999999"]);
      expect(values(xml, "Natura")).toEqual(["N3.1", "N3.1"]);
    },
  },
  {
    name: "buyer abroad with an Italian VAT number (no XXXXXXX, SDI 00313)",
    invoice: () => {
      const invoice = scenario("export outside the EU (G)");
      return { ...invoice, buyer: { ...invoice.buyer, vatId: "IT09876543210" } };
    },
    expect: (xml) => {
      expect(values(xml, "CodiceDestinatario")).toEqual(["0000000"]);
      expect(values(buyerBlock(xml), "IdPaese")).toEqual(["IT"]);
    },
  },
  { name: "several rates", invoice: () => scenario("domestic, two rates"), expect: (xml) => expect(values(xml, "AliquotaIVA")).toEqual(["22.00", "10.00", "22.00", "22.00", "10.00"]) },
  { name: "exempt (E)", invoice: () => scenario("exempt (E) with reason"), expect: (xml) => expect(values(xml, "Natura")).toEqual(["N4", "N4"]) },
  { name: "zero rated (Z)", invoice: () => scenario("zero rated (Z) and standard"), expect: (xml) => expect(values(xml, "Natura")).toEqual(["N3.6", "N3.6"]) },
  {
    name: "reverse charge (AE), EU buyer",
    invoice: () => scenario("cross-border reverse charge (AE)"),
    expect: (xml) => {
      expect(values(xml, "Natura")).toEqual(["N6.9", "N6.9"]);
      expect(values(xml, "RiferimentoNormativo")).toEqual(["Reverse charge"]);
      expect(values(xml, "CodiceDestinatario")).toEqual(["XXXXXXX"]);
    },
  },
  { name: "intra-Community supply (K)", invoice: () => scenario("intra-community supply (K)"), expect: (xml) => expect(values(xml, "Natura")).toEqual(["N3.2", "N3.2"]) },
  {
    name: "split payment (S)",
    invoice: () => ({ ...scenario("domestic, one rate"), italy: { esigibilitaIVA: "S", causale: ["Scissione dei pagamenti art. 17-ter"] } }),
    expect: (xml) => {
      expect(values(xml, "EsigibilitaIVA")).toEqual(["S"]);
      expect(values(xml, "ImportoPagamento")).toEqual(values(xml, "ImponibileImporto"));
      expect(values(xml, "Causale")).toEqual(["Scissione dei pagamenti art. 17-ter"]);
    },
  },
  {
    name: "italy fields given",
    invoice: () => ({ ...scenario("domestic, one rate"), italy: { codiceDestinatario: "abc1234", progressivoInvio: "00042", regimeFiscale: "RF19", idTrasmittente: { country: "IT", id: "RSSMRA80A01F205X" }, modalitaPagamento: "MP08", condizioniPagamento: "TP01" } }),
    expect: (xml) => {
      expect(values(xml, "CodiceDestinatario")).toEqual(["ABC1234"]);
      expect(values(xml, "ProgressivoInvio")).toEqual(["00042"]);
      expect(values(xml, "IdCodice")[0]).toBe("RSSMRA80A01F205X");
      expect(values(xml, "ModalitaPagamento")).toEqual(["MP08"]);
    },
  },
  { name: "300 lines", invoice: () => manyLines(300), expect: (xml) => expect(values(xml, "NumeroLinea")).toHaveLength(300) },
];

describe("FatturaPA ordinaria FPR12", () => {
  for (const c of ORDINARIA) {
    test(c.name, async () => {
      const invoice = c.invoice();
      const { xml } = write(invoice);
      expect(await xsdErrors(xml)).toEqual([]);
      expect(write(invoice).xml).toBe(xml);
      c.expect(xml);
    });
  }

  test("sub-lines are carried by their parent's total and reported lost", () => {
    const { lost } = write(scenario("sub-lines"));
    expect(lost).toContainEqual({ bt: "BG-DEX-01", xpath: "/FatturaElettronicaBody/DatiBeniServizi/DettaglioLinee[1]" });
  });

  test("a semplificata document type is refused in the ordinaria", () => {
    expect(() => write({ ...scenario("domestic, one rate"), italy: { tipoDocumento: "TD07" } })).toThrow(expect.objectContaining({ status: 400, details: { fields: [expect.objectContaining({ path: "/invoice/italy/tipoDocumento" })] } }));
  });
});

describe("FatturaPA semplificata FSM10", () => {
  const small = (): InvoiceInput => {
    const base = scenario("domestic, two rates");
    return { ...base, lines: base.lines.slice(1) };
  };

  test("a small invoice is valid, TD07, deterministic", async () => {
    const { xml, lost } = write(small(), "semplificata");
    expect(await xsdErrors(xml, "semplificata")).toEqual([]);
    expect(write(small(), "semplificata").xml).toBe(xml);
    expect(values(xml, "TipoDocumento")).toEqual(["TD07"]);
    expect(values(xml, "Importo")).toEqual(["131.67", "0.73"]);
    expect(lost).toContainEqual({ bt: "BG-16", xpath: "/FatturaElettronicaBody" });
  });

  test("zero-rated lines carry their Natura", async () => {
    const exempt = scenario("exempt (E) with reason");
    const { xml } = write({ ...exempt, lines: [{ ...exempt.lines[0]!, unitPrice: 150 }] }, "semplificata");
    expect(await xsdErrors(xml, "semplificata")).toEqual([]);
    expect(values(xml, "Natura")).toEqual(["N4"]);
  });

  test("over 400 EUR with VAT is a 422 naming the total", () => {
    const invoice = scenario("domestic, one rate");
    expect(() => write(invoice, "semplificata")).toThrow(expect.objectContaining({ status: 422, code: "VALIDATION_ERROR", message: expect.stringContaining("1568.31") }));
  });

  test("exactly 400.00 passes, 400.01 does not", () => {
    const at = (unitPrice: number): InvoiceInput => ({ ...small(), lines: [{ ...small().lines[0]!, quantity: 1, unitPrice, vatRate: 0, vatCategoryCode: "E" }] });
    expect(() => write(at(400), "semplificata")).not.toThrow();
    expect(() => write(at(400.01), "semplificata")).toThrow(expect.objectContaining({ status: 422 }));
  });

  test("a forfettario (RF19) may exceed 400 EUR", async () => {
    const { xml } = write({ ...scenario("domestic, one rate"), italy: { regimeFiscale: "RF19" } }, "semplificata");
    expect(await xsdErrors(xml, "semplificata")).toEqual([]);
    expect(values(xml, "RegimeFiscale")).toEqual(["RF19"]);
  });

  test("an ordinaria document type is refused", () => {
    expect(() => write({ ...small(), italy: { tipoDocumento: "TD01" } }, "semplificata")).toThrow(expect.objectContaining({ status: 400 }));
  });
});

test("IT locale is Italian on both sides", () => {
  expect([IT.seller.address.countryCode, IT.buyer.address.countryCode]).toEqual(["IT", "IT"]);
});
