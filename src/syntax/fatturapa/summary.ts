// DatiRiepilogo (2.2.2): one row per AliquotaIVA and Natura the lines use (00443/00444), summed
// from the lines' own PrezzoTotale, so the row and the lines can never disagree (values.ts).

import type { InvoiceInput } from "../../invoice/schema.ts";
import { always, leaf, type XmlNode } from "../xml-writer.ts";
import type { FieldCheck } from "./limits.ts";
import type { NationalLine } from "./lines.ts";
import { legalBasisOf } from "./natura.ts";
import { taxOn, total } from "./values.ts";

export interface SummaryRow {
  aliquota: string;
  natura?: string;
  imponibile: string;
  imposta: string;
  riferimentoNormativo?: string;
}

/** Rows in the order their rate first appears on the lines, so the output is deterministic. */
export function summaryRows(lines: readonly NationalLine[], invoice: InvoiceInput, check: FieldCheck): SummaryRow[] {
  const groups = new Map<string, NationalLine[]>();
  for (const line of lines) {
    const key = `${line.aliquota}|${line.natura ?? ""}`;
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0]!;
    const imponibile = total(group.map((l) => l.prezzoTotale));
    return {
      aliquota: first.aliquota,
      ...(first.natura && { natura: first.natura }),
      imponibile,
      imposta: taxOn(imponibile, first.aliquota),
      ...(first.natura && { riferimentoNormativo: legalReference(first, invoice, check) }),
    };
  });
}

/** The caller's exemption reason (BT-120) for the category, else the provision the Natura rests on. */
function legalReference(line: NationalLine, invoice: InvoiceInput, check: FieldCheck): string | undefined {
  const j = invoice.taxSummary?.findIndex((t) => t.vatCategoryCode === line.category && t.vatRate === 0 && t.exemptionReasonText !== undefined) ?? -1;
  if (j < 0) return legalBasisOf(line.natura!);
  return check.text(invoice.taxSummary![j]!.exemptionReasonText!, `/invoice/taxSummary/${j}/exemptionReasonText`, "RiferimentoNormativo");
}

/**
 * Split payment (S) moves the VAT to the buyer's payment to the Treasury; a row with a Natura bears
 * no VAT, and SDI refuses S beside a reverse-charge Natura (00420), so such a row states none.
 */
export function datiRiepilogo(row: SummaryRow, esigibilita: string): XmlNode {
  return always(
    "DatiRiepilogo",
    leaf("AliquotaIVA", row.aliquota),
    leaf("Natura", row.natura),
    leaf("ImponibileImporto", row.imponibile),
    leaf("Imposta", row.imposta),
    leaf("EsigibilitaIVA", row.natura && esigibilita === "S" ? undefined : esigibilita),
    leaf("RiferimentoNormativo", row.riferimentoNormativo),
  );
}
