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

/** The buyer with no identifier at all. */
const withoutBuyerIds = (xml: string) => xml.replace(/(<CessionarioCommittente>\s*<DatiAnagrafici>\s*)<IdFiscaleIVA>[\s\S]*?<\/IdFiscaleIVA>\s*/, "$1");
const SELLER_IT = "<IdPaese>IT</IdPaese>\n          <IdCodice>01234567890</IdCodice>";
const BUYER_IT = "<IdPaese>IT</IdPaese>\n          <IdCodice>09876543210</IdCodice>";
/** Seller and buyer both from another country. */
const bothForeign = (xml: string) => mutate(mutate(xml, SELLER_IT, SELLER_IT.replace("IT", "FR")), BUYER_IT, BUYER_IT.replace("IT", "DE"));
const ROUTE = "<CodiceDestinatario>0000000</CodiceDestinatario>";
const typed = (tipo: string) => mutate(base, "<TipoDocumento>TD01</TipoDocumento>", `<TipoDocumento>${tipo}</TipoDocumento>`);
const linked = (date: string) => mutate(base, "</DatiGeneraliDocumento>", `</DatiGeneraliDocumento><DatiFattureCollegate><IdDocumento>INV-2025-001</IdDocumento><Data>${date}</Data></DatiFattureCollegate>`);
/** The 0% line and row moved to reverse charge (N6.9), the row with the given EsigibilitaIVA. */
const reverseCharge = (esigibilita: string) =>
  mutate(
    mutate(base, "<Natura>N3.6</Natura>\n      </DettaglioLinee>", "<Natura>N6.9</Natura></DettaglioLinee>"),
    "<Natura>N3.6</Natura>\n        <ImponibileImporto>120.00</ImponibileImporto>\n        <Imposta>0.00</Imposta>\n        <EsigibilitaIVA>I</EsigibilitaIVA>",
    `<Natura>N6.9</Natura><ImponibileImporto>120.00</ImponibileImporto><Imposta>0.00</Imposta><EsigibilitaIVA>${esigibilita}</EsigibilitaIVA>`,
  );

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
  { rule: "00474", what: "a TD21 with a 0% line", xml: () => typed("TD21") },
  { rule: "00476", what: "a French seller invoicing a German buyer", xml: () => bothForeign(base) },
  { rule: "00476", what: "a semplificata between two foreign parties", xml: () => semplificata.replaceAll("<IdPaese>IT</IdPaese>", "<IdPaese>FR</IdPaese>"), record: SEMPLIFICATA },
  { rule: "00417", what: "a buyer with neither VAT id nor fiscal code", xml: () => withoutBuyerIds(base) },
  { rule: "00313", what: "CodiceDestinatario XXXXXXX for an Italian buyer", xml: () => mutate(base, ROUTE, "<CodiceDestinatario>XXXXXXX</CodiceDestinatario>") },
  { rule: "00426", what: "a PEC address beside a channel code", xml: () => mutate(base, ROUTE, "<CodiceDestinatario>ABC1234</CodiceDestinatario><PECDestinatario>fatture@pec.example.it</PECDestinatario>") },
  { rule: "00427", what: "a 6-character code in an FPR12", xml: () => mutate(base, ROUTE, "<CodiceDestinatario>ABC123</CodiceDestinatario>") },
  { rule: "00428", what: "FormatoTrasmissione FPA12 under versione FPR12", xml: () => mutate(base, "<FormatoTrasmissione>FPR12</FormatoTrasmissione>", "<FormatoTrasmissione>FPA12</FormatoTrasmissione>") },
  { rule: "00425", what: "a Numero without a digit", xml: () => mutate(base, "<Numero>INV-2025-005</Numero>", "<Numero>INV-A</Numero>") },
  { rule: "00425", what: "a semplificata Numero without a digit", xml: () => semplificata.replace(/<Numero>[^<]*<\/Numero>/, "<Numero>INV-A</Numero>"), record: SEMPLIFICATA },
  { rule: "00418", what: "a date before the linked invoice's", xml: () => linked("2025-04-01") },
  { rule: "00411", what: "a line with Ritenuta SI and no DatiRitenuta", xml: () => mutate(base, LINE_2, "<AliquotaIVA>22.00</AliquotaIVA><Ritenuta>SI</Ritenuta></DettaglioLinee>") },
  { rule: "00415", what: "a fund contribution with Ritenuta SI and no DatiRitenuta", xml: () => mutate(mutate(base, NUMERO, fund("22.00").replace("</AliquotaIVA>", "</AliquotaIVA><Ritenuta>SI</Ritenuta>")), ROW_22, ROW_22_WITH_FUND) },
  { rule: "00437", what: "a document discount with neither percentage nor amount", xml: () => mutate(base, NUMERO, "</Numero><ScontoMaggiorazione><Tipo>SC</Tipo></ScontoMaggiorazione>") },
  { rule: "00438", what: "a line discount with neither percentage nor amount", xml: () => discounted("270.00", "<Tipo>SC</Tipo>") },
  { rule: "00420", what: "reverse charge (N6.9) with split payment", xml: () => reverseCharge("S") },
  { rule: "00424", what: "a line rate written 0.22", xml: () => mutate(base, LINE_2, "<AliquotaIVA>0.22</AliquotaIVA></DettaglioLinee>") },
  { rule: "00445", what: "the generic Natura N3", xml: () => base.replaceAll("<Natura>N3.6</Natura>", "<Natura>N3</Natura>") },
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

  test("the new rules' near misses draw none", async () => {
    const none = async (xml: string, record?: typeof SEMPLIFICATA) => expect(advisoryIds(await judge(xml, record))).toEqual([]);
    // XXXXXXX for a buyer with a foreign VAT id; 0000000 with a PEC address; a linked invoice of the same day.
    await none(mutate(mutate(base, ROUTE, "<CodiceDestinatario>XXXXXXX</CodiceDestinatario>"), BUYER_IT, BUYER_IT.replace("IT", "DE")));
    await none(mutate(base, ROUTE, `${ROUTE}<PECDestinatario>fatture@pec.example.it</PECDestinatario>`));
    await none(linked("2025-03-14"));
    // A foreign seller to an Italian buyer; a foreign seller to a buyer known by fiscal code only (SDI reads the buyer's VAT id).
    await none(mutate(base, SELLER_IT, SELLER_IT.replace("IT", "FR")));
    await none(withoutBuyerVat(mutate(base, SELLER_IT, SELLER_IT.replace("IT", "FR"))));
    // Ritenuta SI with its DatiRitenuta; reverse charge with immediate VAT; a discount by amount at document level.
    const ritenuta = "</Numero><DatiRitenuta><TipoRitenuta>RT01</TipoRitenuta><ImportoRitenuta>60.00</ImportoRitenuta><AliquotaRitenuta>20.00</AliquotaRitenuta><CausalePagamento>A</CausalePagamento></DatiRitenuta>";
    await none(mutate(mutate(base, LINE_2, "<AliquotaIVA>22.00</AliquotaIVA><Ritenuta>SI</Ritenuta></DettaglioLinee>"), NUMERO, ritenuta));
    await none(reverseCharge("I"));
    await none(mutate(base, NUMERO, "</Numero><ScontoMaggiorazione><Tipo>SC</Tipo><Importo>10.00</Importo></ScontoMaggiorazione>"));
    // Our writer routes a buyer abroad with an Italian VAT number as an Italian buyer, not by XXXXXXX.
    const abroad = scenario("export outside the EU (G)");
    await none(write({ ...abroad, buyer: { ...abroad.buyer, vatId: "IT09876543210" } }).xml);
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

  test("caller text a message echoes is cut, however long", async () => {
    const result = await judge(mutate(base, "<Numero>INV-2025-005</Numero>", `<Numero>${"A".repeat(5000)}</Numero>`));
    expect(result.valid).toBe(false);
    const finding = result.warnings.find((w) => w.ruleId === "FATTURAPA_00425_NOT_ENFORCED");
    expect(finding?.message.length).toBeLessThan(200);
  });
});
