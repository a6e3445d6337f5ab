// The segments e-SLOG repeats everywhere (DTM, RFF, MOA, FTX, TAX), each one small builder, and the
// M_INVOIC sequence of the XSD that orders the message's top-level parts.

import { always, group, leaf, type XmlNode } from "../xml-writer.ts";
import { FIXED } from "./qualifiers.ts";

/** M_INVOIC's children in the XSD's order (eSLOG20_INVOIC_v200.xsd), the only order it accepts. */
export const MESSAGE_SEQUENCE = [
  "S_UNH", "S_BGM", "S_DTM", "S_PAI", "S_ALI", "S_FTX", "G_SG1", "G_SG2", "G_SG6", "G_SG7", "G_SG8", "G_SG9", "G_SG12",
  "G_SG14", "G_SG16", "G_SG24", "G_SG26", "S_UNS", "S_CNT", "G_SG50", "G_SG52", "G_SG53", "S_UNT",
] as const;

/** Free text (C_C108) holds one D_4440 and four continuations, 512 characters each. */
export const TEXT_PART = 512;
const TEXT_ELEMENTS = ["D_4440", "D_4440_2", "D_4440_3", "D_4440_4", "D_4440_5"];
export const TEXT_PARTS = TEXT_ELEMENTS.length;

/** Characters as the XSD counts them (code points, not UTF-16 units). */
export const charLength = (value: string): number => [...value].length;

/**
 * A text over the continuation elements, split only at part boundaries; the length table
 * (limits.ts) has already refused a text longer than all parts hold, so nothing is ever cut.
 */
function textParts(text: string): XmlNode[] {
  const chars = [...text];
  return TEXT_ELEMENTS.map((name, i) => leaf(name, chars.slice(i * TEXT_PART, (i + 1) * TEXT_PART).join("") || undefined)).filter((n): n is XmlNode => !!n);
}

export function dtm(qualifier: string, date: string | undefined): XmlNode | undefined {
  return date === undefined ? undefined : always("S_DTM", always("C_C507", leaf("D_2005", qualifier), leaf("D_2380", date)));
}

export function rff(qualifier: string, value: string | undefined): XmlNode | undefined {
  return value === undefined ? undefined : always("S_RFF", always("C_C506", leaf("D_1153", qualifier), leaf("D_1154", value)));
}

export function moa(qualifier: string, amount: string): XmlNode {
  return always("S_MOA", always("C_C516", leaf("D_5025", qualifier), leaf("D_5004", amount)));
}

/** S_FTX with a subject, an optional coded part (C_C107) and the text; absent when both are. */
export function ftx(subject: string, text: string | undefined, code?: string): XmlNode | undefined {
  if (text === undefined && code === undefined) return undefined;
  return always("S_FTX", leaf("D_4451", subject), group("C_C107", leaf("D_4441", code)), text === undefined ? undefined : always("C_C108", textParts(text)));
}

/** S_TAX for VAT of one category and rate (a category without a rate, O, writes none). */
export function vat(categoryCode: string, rate: string | undefined): XmlNode {
  return always(
    "S_TAX",
    leaf("D_5283", FIXED.taxFunction),
    always("C_C241", leaf("D_5153", FIXED.taxType)),
    group("C_C243", leaf("D_5278", rate)),
    leaf("D_5305", categoryCode),
  );
}
