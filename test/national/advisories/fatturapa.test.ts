// Each SDI control in the FatturaPA advisory table fires on a minimal mutation of our own document
// and not on the document itself; the verdict stays valid (the mutations keep the schema).

import { describe, expect, test } from "bun:test";
import { FATTURAPA_RULES } from "../../../src/validation/national-advisories/fatturapa.ts";
import { scenario, write } from "../fatturapa/support.ts";
import { advisoryIds, generated, judge, mutate } from "./support.ts";

// Line 1 is 120.00 at 0% with Natura N3.6, line 2 300.00 at 22%, one summary row each.
const base = generated("fatturapa", "zero rated (Z) and standard")!;
const LINE_2 = "<AliquotaIVA>22.00</AliquotaIVA>\n      </DettaglioLinee>";
const ROW_22 = "<AliquotaIVA>22.00</AliquotaIVA>\n        <ImponibileImporto>300.00</ImponibileImporto>\n        <Imposta>66.00</Imposta>";
const NUMERO = "</Numero>";

const fund = (rate: string, natura = "") =>
  `</Numero>\n<DatiCassaPrevidenziale><TipoCassa>TC22</TipoCassa><AlCassa>4.00</AlCassa><ImportoContributoCassa>12.00</ImportoContributoCassa><AliquotaIVA>${rate}</AliquotaIVA>${natura && `<Natura>${natura}</Natura>`}</DatiCassaPrevidenziale>`;
/** The 22% row once the 12.00 contribution at 22% counts in it. */
const ROW_22_WITH_FUND = "<AliquotaIVA>22.00</AliquotaIVA>\n        <ImponibileImporto>312.00</ImponibileImporto>\n        <Imposta>68.64</Imposta>";
const TEN_PERCENT = "<Tipo>SC</Tipo><Percentuale>10.00</Percentuale>";
const discounted = (total: string, discount = TEN_PERCENT) =>
  mutate(
    mutate(base, "<PrezzoUnitario>300.00</PrezzoUnitario>\n        <PrezzoTotale>300.00</PrezzoTotale>", `<PrezzoUnitario>300.00</PrezzoUnitario><ScontoMaggiorazione>${discount}</ScontoMaggiorazione><PrezzoTotale>${total}</PrezzoTotale>`),
    ROW_22,
    "<AliquotaIVA>22.00</AliquotaIVA><ImponibileImporto>270.00</ImponibileImporto><Imposta>59.40</Imposta>",
  );
const withFund = (xml: string, rate: string, natura?: string) => mutate(mutate(xml, NUMERO, fund(rate, natura)), ROW_22, ROW_22_WITH_FUND);

const small = () => {
  const invoice = scenario("domestic, two rates");
  return { ...invoice, lines: invoice.lines.slice(1) };
};
const semplificata = write(small(), "semplificata").xml;
const SEMPLIFICATA = "fatturapa:italy-fatturapa-semplificata-fsm10";

/** The buyer's identity made the seller's. */
const selfInvoice = (xml: string, tipo: string) => {
  const seller = /<CedentePrestatore>\s*<DatiAnagrafici>\s*(<IdFiscaleIVA>[\s\S]*?<\/IdFiscaleIVA>)/.exec(xml)![1]!;
  const buyerId = /<CessionarioCommittente>\s*<DatiAnagrafici>\s*(<IdFiscaleIVA>[\s\S]*?<\/IdFiscaleIVA>)/.exec(xml)![1]!;
  const typed = mutate(xml, "<TipoDocumento>TD01</TipoDocumento>", `<TipoDocumento>${tipo}</TipoDocumento>`);
  return typed.replace(`<CessionarioCommittente>`, "<CessionarioCommittente>").replace(buyerId, seller);
};
/** The buyer identified by a fiscal code only. */
const withoutBuyerVat = (xml: string) => xml.replace(/(<CessionarioCommittente>\s*<DatiAnagrafici>\s*)<IdFiscaleIVA>[\s\S]*?<\/IdFiscaleIVA>/, "$1<CodiceFiscale>RSSMRA80A01H501U</CodiceFiscale>");

const CASES: { rule: string; what: string; xml: () => string; record?: typeof SEMPLIFICATA }[] = [
  { rule: "00400", what: "a 0% line without Natura", xml: () => mutate(base, "<Natura>N3.6</Natura>\n      </DettaglioLinee>", "</DettaglioLinee>") },
  { rule: "00401", what: "a 22% line with Natura", xml: () => mutate(base, LINE_2, "<AliquotaIVA>22.00</AliquotaIVA><Natura>N3.6</Natura></DettaglioLinee>") },
  { rule: "00413", what: "a 0% fund contribution without Natura", xml: () => mutate(base, NUMERO, fund("0.00")) },
  { rule: "00414", what: "a 22% fund contribution with Natura", xml: () => withFund(base, "22.00", "N3.6") },
  { rule: "00429", what: "a 0% summary row without Natura", xml: () => mutate(base, "<Natura>N3.6</Natura>\n        <ImponibileImporto>", "<ImponibileImporto>") },
  { rule: "00430", what: "a 22% summary row with Natura", xml: () => mutate(base, ROW_22, ROW_22.replace("</AliquotaIVA>", "</AliquotaIVA><Natura>N3.6</Natura>")) },
  { rule: "00421", what: "Imposta two cents off", xml: () => mutate(base, "<Imposta>66.00</Imposta>", "<Imposta>66.02</Imposta>") },
  { rule: "00422", what: "ImponibileImporto 1.50 above its lines", xml: () => mutate(base, ROW_22, ROW_22.replace("300.00", "301.50").replace("66.00", "66.33")) },
  { rule: "00423", what: "PrezzoTotale two cents off", xml: () => mutate(base, "<PrezzoTotale>300.00</PrezzoTotale>", "<PrezzoTotale>300.02</PrezzoTotale>") },
  { rule: "00423", what: "PrezzoTotale ignoring the line's 10% discount", xml: () => discounted("300.00") },
  { rule: "00443", what: "a summary row at 10% for lines at 22%", xml: () => mutate(base, ROW_22, ROW_22.replace("22.00", "10.00").replace("66.00", "30.00")) },
  { rule: "00444", what: "a summary row's Natura on no line", xml: () => mutate(base, "<Natura>N3.6</Natura>\n        <ImponibileImporto>", "<Natura>N3.5</Natura><ImponibileImporto>") },
  { rule: "00471", what: "a TD01 whose buyer is its seller", xml: () => selfInvoice(base, "TD01") },
  { rule: "00472", what: "a TD21 with another buyer", xml: () => mutate(base, "<TipoDocumento>TD01</TipoDocumento>", "<TipoDocumento>TD21</TipoDocumento>") },
  { rule: "00473", what: "a TD17 from an Italian seller", xml: () => mutate(base, "<TipoDocumento>TD01</TipoDocumento>", "<TipoDocumento>TD17</TipoDocumento>") },
  { rule: "00475", what: "a TD16 to a buyer without a VAT id", xml: () => withoutBuyerVat(mutate(base, "<TipoDocumento>TD01</TipoDocumento>", "<TipoDocumento>TD16</TipoDocumento>")) },
  { rule: "00460", what: "a semplificata over 400 EUR", xml: () => mutate(semplificata, "<Importo>131.67</Importo>", "<Importo>400.00</Importo>"), record: SEMPLIFICATA },
];

describe("FatturaPA SDI advisories", () => {
  test("our document draws none", async () => {
    expect(advisoryIds(await judge(base))).toEqual([]);
    expect(advisoryIds(await judge(semplificata, SEMPLIFICATA))).toEqual([]);
  });

  test.each(CASES)("$rule fires on $what, as a warning, and the verdict stays valid", async ({ rule, xml, record }) => {
    const result = await judge(xml(), record);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    const finding = result.warnings.find((w) => w.ruleId === `FATTURAPA_${rule}_NOT_ENFORCED`);
    expect(finding).toMatchObject({ severity: "warning", location: expect.stringMatching(/^\/p:FatturaElettronica/), message: expect.stringContaining(`(${rule})`) });
  });

  test("every rule of the table has a case", () => {
    expect(new Set(CASES.map((c) => `FATTURAPA_${c.rule}_NOT_ENFORCED`))).toEqual(new Set(FATTURAPA_RULES.map((r) => r.id)));
  });

  test("fixed documents draw none: a discount applied, a fund contribution summarised, RF19 over 400 EUR", async () => {
    expect(advisoryIds(await judge(discounted("270.00")))).toEqual([]);
    // Tipo gives the direction whatever the sign of Importo; with both, either reading may hold.
    expect(advisoryIds(await judge(discounted("270.00", "<Tipo>SC</Tipo><Importo>-30.00</Importo>")))).toEqual([]);
    expect(advisoryIds(await judge(discounted("270.00", "<Tipo>SC</Tipo><Percentuale>10.00</Percentuale><Importo>25.00</Importo>")))).toEqual([]);
    expect(advisoryIds(await judge(withFund(base, "22.00")))).toEqual([]);
    const rf19 = mutate(mutate(semplificata, "<Importo>131.67</Importo>", "<Importo>400.00</Importo>"), /<RegimeFiscale>RF\d\d<\/RegimeFiscale>/.exec(semplificata)![0], "<RegimeFiscale>RF19</RegimeFiscale>");
    expect(advisoryIds(await judge(rf19, SEMPLIFICATA))).toEqual([]);
  });

  test("TD16 may state Natura beside a rate (no 00401)", async () => {
    const td16 = mutate(CASES[1]!.xml(), "<TipoDocumento>TD01</TipoDocumento>", "<TipoDocumento>TD16</TipoDocumento>");
    expect(advisoryIds(await judge(td16))).not.toContain("FATTURAPA_00401_NOT_ENFORCED");
  });

  test("a value that is no number is passed over, never thrown on", async () => {
    const odd = mutate(mutate(base, "<PrezzoTotale>300.00</PrezzoTotale>", "<PrezzoTotale>trecento</PrezzoTotale>"), "<Imposta>66.00</Imposta>", `<Imposta>${"9".repeat(5000)}</Imposta>`);
    const result = await judge(odd);
    expect(result.valid).toBe(false);
    expect(advisoryIds(result)).not.toContain("FATTURAPA_00423_NOT_ENFORCED");
    expect(advisoryIds(result)).not.toContain("FATTURAPA_00421_NOT_ENFORCED");
  });
});
