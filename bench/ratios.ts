/**
 * The documents of issue 23's ratios (einvoice over HTTP against Saxon-HE running the same rule
 * files alone): the typical XRechnung UBL invoice and many-line invoices made from corpus ones, each
 * within the API's body cap (fewer lines than wanted when the wanted count would not fit).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DOCUMENT_BODY_MAX_BYTES } from "../src/api/limits";
import { mostLinesWithin, multiplyCiiLines, multiplyLines } from "./lines";
import { LINES_SOURCE, PROFILE_DOCUMENTS, type BenchDocument } from "./validation";

export interface RatioDocument extends BenchDocument {
  lines: number;
  /** Why the expected verdict is what it is, when that is not obvious. */
  note?: string;
}

const corpusFile = (name: string) => PROFILE_DOCUMENTS.find((d) => d.name === name)!.file;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

/** `wanted` lines of `label` made by `make`, or the most that fit the body cap; written to `dir`. */
function linesDocument(dir: string, label: string, wanted: number, make: (lines: number) => string): Pick<RatioDocument, "name" | "file" | "lines"> {
  const { lines, xml } = mostLinesWithin(make, wanted, DOCUMENT_BODY_MAX_BYTES);
  const file = join(dir, `ratio-${lines}-${label.replace(/\W+/g, "-")}.xml`);
  writeFileSync(file, xml);
  const cut = lines < wanted ? `; ${wanted} lines would be over the ${kib(DOCUMENT_BODY_MAX_BYTES)} cap` : "";
  return { name: `${lines}-line ${label} (${kib(Buffer.byteLength(xml))}${cut})`, file, lines };
}

/** Totals of the CII sources are not recomputed: the totals rules fail, and judging that is the same work. */
const CII_TOTALS = "totals left as the source's, so invalid";

export function ratioDocuments(dir: string): RatioDocument[] {
  const ubl = readFileSync(LINES_SOURCE, "utf8");
  const cii = readFileSync(corpusFile("XRechnung CII"), "utf8");
  const extended = readFileSync(corpusFile("Factur-X EXTENDED (CII)"), "utf8");
  // The 900-line row is "XSD + EN 16931 rules": the same invoice declared plain EN 16931
  // (no CIUS), so the service detects en16931 and runs the EN 16931 rule file alone.
  const plainEn16931 = (xml: string) => xml.replace(/(<cbc:CustomizationID>)[^<]*/, "$1urn:cen.eu:en16931:2017");
  return [
    { name: `typical XRechnung UBL (2 lines, ${kib(Buffer.byteLength(ubl))})`, file: LINES_SOURCE, lines: 2, profile: "xrechnung" },
    { ...linesDocument(dir, "UBL declared plain EN 16931", 900, (n) => plainEn16931(multiplyLines(ubl, n))), profile: "en16931" },
    { ...linesDocument(dir, "XRechnung CII", 900, (n) => multiplyCiiLines(cii, n)), profile: "xrechnung", valid: false, note: CII_TOTALS },
    { ...linesDocument(dir, "Factur-X EXTENDED CII", 500, (n) => multiplyCiiLines(extended, n)), profile: "facturx:extended", valid: false, note: CII_TOTALS },
  ];
}
