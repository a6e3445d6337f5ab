// DettaglioLinee (2.2.1): the invoice lines (BG-25) with the national values computed once, so the
// ordinaria and the semplificata write the same numbers and the summary sums what the lines say.
// Sub-lines have no FatturaPA place: the parent line carries their total, and they are reported lost.

import type { LostField } from "../binding.ts";
import type { NationalInput } from "../national.ts";
import { always, leaf, type XmlNode } from "../xml-writer.ts";
import type { FieldCheck } from "./limits.ts";
import { naturaOf } from "./natura.ts";
import { sameDecimal } from "../../model/decimal.ts";
import { eightDecimals, lineTotal, twoDecimals } from "./values.ts";

/** One line as FatturaPA states it. */
export interface NationalLine {
  numero: number;
  descrizione: string;
  quantita: string;
  unitaMisura: string;
  prezzoUnitario: string;
  prezzoTotale: string;
  aliquota: string;
  /** The EN 16931 category (BT-151) the Natura came from, for the summary's legal reference. */
  category: string;
  natura?: string;
}

/** NumeroLineaType allows 1..9999. */
const MAX_LINES = 9999;

/** The exemption code (BT-121) the caller gave for a zero-rated category, from its VAT breakdown. */
function exemptionCode(input: NationalInput, category: string): string | undefined {
  return input.invoice.taxSummary?.find((t) => t.vatCategoryCode === category && t.vatRate === 0)?.exemptionReasonCode;
}

export function nationalLines(input: NationalInput, check: FieldCheck): NationalLine[] {
  const { invoice, model } = input;
  if (invoice.lines.length > MAX_LINES) check.refuse({ path: "/invoice/lines", message: `must not have more than ${MAX_LINES} items (FatturaPA NumeroLinea)`, keyword: "maxItems" });
  return model.lines.map((line, i) => {
    const at = `/invoice/lines/${i}`;
    const quantita = check.number(eightDecimals(line.quantity), `${at}/quantity`, "Quantita");
    const prezzoUnitario = check.number(eightDecimals(line.price.netPrice), `${at}/unitPrice`, "PrezzoUnitario");
    const aliquota = twoDecimals(line.vat.rate ?? "0");
    const zero = sameDecimal(aliquota, "0");
    const natura = zero ? naturaOf(line.vat.categoryCode, exemptionCode(input, line.vat.categoryCode)) : undefined;
    if (zero && !natura) check.refuse({ path: `${at}/vatCategoryCode`, message: `has no FatturaPA Natura for a zero rate; use E, Z, AE, K, G or O`, keyword: "enum" });
    return {
      numero: i + 1,
      descrizione: check.text(invoice.lines[i]!.description, `${at}/description`, "Descrizione"),
      quantita,
      unitaMisura: check.text(line.unitCode, `${at}/unitCode`, "UnitaMisura"),
      prezzoUnitario,
      prezzoTotale: check.number(lineTotal(prezzoUnitario, quantita), at, "PrezzoTotale"),
      aliquota,
      category: line.vat.categoryCode,
      ...(natura && { natura }),
    };
  });
}

/** Sub-lines (BG-DEX-01) the format has no place for. */
export function lostSubLines(input: NationalInput): LostField[] {
  return input.model.lines.flatMap((line, i) => (line.subLines?.length ? [{ bt: "BG-DEX-01", xpath: `/FatturaElettronicaBody/DatiBeniServizi/DettaglioLinee[${i + 1}]` }] : []));
}

export function dettaglioLinee(line: NationalLine): XmlNode {
  return always(
    "DettaglioLinee",
    leaf("NumeroLinea", String(line.numero)),
    leaf("Descrizione", line.descrizione),
    leaf("Quantita", line.quantita),
    leaf("UnitaMisura", line.unitaMisura),
    leaf("PrezzoUnitario", line.prezzoUnitario),
    leaf("PrezzoTotale", line.prezzoTotale),
    leaf("AliquotaIVA", line.aliquota),
    leaf("Natura", line.natura),
  );
}
