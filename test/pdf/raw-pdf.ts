// A PDF written byte by byte, for the hostile inputs pdf-lib would never write: filter chains,
// object streams, oversized metadata, absurd nesting. Objects are numbered from 1 in the order
// given; the catalog is the first object, so `rawPdf` needs only the objects.

import { Zlib } from "fflate";
import { deflateSync } from "node:zlib";

const encoder = new TextEncoder();
const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

export interface RawStream {
  /** Dictionary entries besides /Length, e.g. `/Filter /FlateDecode`. */
  dict: string;
  data: Uint8Array;
}

export type RawObject = string | RawStream;

export function rawPdf(objects: RawObject[]): Uint8Array {
  const parts: Uint8Array[] = [latin1("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")];
  let length = parts[0]!.byteLength;
  const push = (bytes: Uint8Array) => {
    parts.push(bytes);
    length += bytes.byteLength;
  };
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(length);
    if (typeof object === "string") return push(latin1(`${i + 1} 0 obj\n${object}\nendobj\n`));
    push(latin1(`${i + 1} 0 obj\n<< ${object.dict} /Length ${object.data.byteLength} >>\nstream\n`));
    push(object.data);
    push(latin1("\nendstream\nendobj\n"));
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  push(latin1(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(parts, length);
}

/** zlib-compressed (FlateDecode) bytes; text is written as UTF-8. */
export const flate = (data: Uint8Array | string): Uint8Array => new Uint8Array(deflateSync(typeof data === "string" ? encoder.encode(data) : data, { level: 9 }));

/** zlib data that inflates to `size` zero bytes, compressed a slice at a time: the zeros never exist here. */
export function zeros(size: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  const deflate = new Zlib({ level: 9 }, (chunk) => chunks.push(chunk));
  const slice = new Uint8Array(1024 * 1024);
  for (let left = size; left > 0; left -= slice.byteLength) deflate.push(slice.subarray(0, Math.min(left, slice.byteLength)), left <= slice.byteLength);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  chunks.reduce((at, c) => (out.set(c, at), at + c.byteLength), 0);
  return out;
}

/**
 * A hybrid-looking PDF: catalog with /Names /EmbeddedFiles and /AF naming factur-x.xml, whose
 * embedded file stream is `file`, and an optional /Metadata stream. Extra objects follow.
 */
export function hybridPdf(file: RawStream, options: { metadata?: RawStream; extra?: RawObject[] } = {}): Uint8Array {
  const metadata = options.metadata ? " /Metadata 5 0 R" : "";
  return rawPdf([
    `<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(factur-x.xml) 3 0 R] >> >> /AF [3 0 R]${metadata} >>`,
    "<< /Type /Pages /Kids [] /Count 0 >>",
    "<< /Type /Filespec /F (factur-x.xml) /UF (factur-x.xml) /AFRelationship /Alternative /EF << /F 4 0 R /UF 4 0 R >> >>",
    { ...file, dict: `/Type /EmbeddedFile /Subtype /text#2Fxml ${file.dict}` },
    options.metadata ? { ...options.metadata, dict: `/Type /Metadata /Subtype /XML ${options.metadata.dict}` } : "null",
    ...(options.extra ?? []),
  ]);
}

/** An object stream (ISO 32000-1, 7.5.7) holding `objects`, numbered from `firstNumber`, compressed. */
export function objectStream(objects: string[], firstNumber: number): RawStream {
  const index: string[] = [];
  let offset = 0;
  for (const [i, o] of objects.entries()) {
    index.push(`${firstNumber + i} ${offset}`);
    offset += o.length + 1;
  }
  const header = `${index.join(" ")}\n`;
  return { dict: `/Type /ObjStm /N ${objects.length} /First ${header.length} /Filter /FlateDecode`, data: flate(header + objects.join("\n")) };
}
