// Decodes one stream of a caller's PDF under the document's budget: each filter of the chain in
// turn, each stopped the moment its output passes what the budget still allows (pdf-lib's own
// decoder inflates the whole stream first). FlateDecode is inflated by zlib with a hard output
// limit; the other filters pdf-lib knows are read through its decoders a slice at a time; any
// other filter, and any predictor, is refused by name.

import { inflateRawSync } from "node:zlib";
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, decodePDFRawStream, type PDFObject } from "pdf-lib";
import type { PdfBudget } from "./budget.ts";

/** Filters pdf-lib decodes a block at a time; a block is small, so slices bound the output. */
const SLICED_FILTERS = new Set(["LZWDecode", "ASCII85Decode", "ASCIIHexDecode", "RunLengthDecode"]);
const SLICE = 64 * 1024;

/**
 * The stream's decoded bytes. Over the budget's allowance it throws `PdfOverBudget`; over `cap`
 * alone (a limit for this kind of stream, below the document's) a plain error saying so.
 */
export function decodeStream(stream: PDFRawStream, budget: PdfBudget, cap = Infinity): Uint8Array {
  const { dict } = stream;
  const filters = asList(dict.lookup(PDFName.of("Filter")));
  const params = asList(dict.lookup(PDFName.of("DecodeParms")));
  let bytes = stream.contents;
  filters.forEach((filter, i) => {
    if (!(filter instanceof PDFName)) throw new Error("the stream's /Filter is not a name");
    const name = filter.decodeText();
    const parms = dict.context.lookup(params[i]);
    const limit = budget.allowance(cap);
    const over = () => (limit < cap ? budget.overInflated() : tooLarge(cap));
    refusePredictor(name, parms);
    if (name === "FlateDecode") bytes = inflate(bytes, limit, over);
    else if (SLICED_FILTERS.has(name)) bytes = sliced(stream, filter, parms, bytes, limit, over);
    else throw new Error(`the stream uses the /${name} filter, which is not read here (FlateDecode, LZWDecode, ASCII85Decode, ASCIIHexDecode and RunLengthDecode are)`);
    budget.inflate(bytes.byteLength);
  });
  if (bytes.byteLength > cap) tooLarge(cap);
  return bytes;
}

function asList(value: PDFObject | undefined): (PDFObject | undefined)[] {
  return value instanceof PDFArray ? value.asArray() : value ? [value] : [];
}

// pdf-lib never applied predictors (it returned the row-filtered bytes); rather than read those as
// data, say what is not supported.
function refusePredictor(filter: string, parms: PDFObject | undefined): void {
  const predictor = parms instanceof PDFDict ? parms.lookup(PDFName.of("Predictor")) : undefined;
  if (predictor instanceof PDFNumber && predictor.asNumber() > 1) {
    throw new Error(`the stream's /${filter} uses /Predictor ${predictor.asNumber()}, which is not read here`);
  }
}

/** zlib data (RFC 1950); the Adler-32 trailer is not checked, as pdf-lib never did. */
function inflate(data: Uint8Array, limit: number, over: () => never): Uint8Array {
  const [cmf = 0, flg = 0] = data;
  if ((cmf & 0x0f) !== 8 || cmf >> 4 > 7 || ((cmf << 8) | flg) % 31 !== 0 || flg & 0x20) throw new Error("the stream's FlateDecode data has no valid zlib header");
  try {
    return inflateRawSync(data.subarray(2), { maxOutputLength: Math.max(limit, 1) });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") over();
    throw new Error(`the stream's FlateDecode data is damaged (${(error as Error).message})`);
  }
}

function sliced(stream: PDFRawStream, filter: PDFName, parms: PDFObject | undefined, input: Uint8Array, limit: number, over: () => never): Uint8Array {
  const single = PDFDict.withContext(stream.dict.context);
  single.set(PDFName.of("Filter"), filter);
  if (parms) single.set(PDFName.of("DecodeParms"), parms);
  const decoder = decodePDFRawStream(PDFRawStream.of(single, input));
  const slices: Uint8Array[] = [];
  let total = 0;
  for (let slice = decoder.getBytes(SLICE); slice.byteLength > 0; slice = decoder.getBytes(SLICE)) {
    total += slice.byteLength;
    if (total > limit) over();
    slices.push(Uint8Array.from(slice));
  }
  return Buffer.concat(slices, total);
}

/** A stream longer than the cap of its kind (a plain error: the document may still be read). */
export class StreamOverCap extends Error {}

function tooLarge(cap: number): never {
  throw new StreamOverCap(`the stream decodes to more than ${cap.toLocaleString("en-US")} bytes`);
}
