// XML bytes to text the way validate's parser (libxml2) reads them, so that a document the XSD
// step accepts is one the rule engines can read, and parse reads what validate reads. XML 1.0
// Appendix F: a byte-order mark decides; else the first four bytes (`<?` in UTF-16 needs no mark);
// else the encoding declaration; else UTF-8. Where the bytes decide, libxml2 does not consult the
// declaration, and neither do we. Decoding is strict: an invalid byte sequence is a refusal, never
// a replacement character.

import { XmlRefused } from "./xml-refused.ts";

type Decode = (bytes: Uint8Array) => string;

/** What the bytes alone say; `encoding` absent: an ASCII-compatible document whose declaration decides. */
interface Sniffed {
  encoding?: "UTF-8" | "UTF-16LE" | "UTF-16BE" | "UCS-4" | "EBCDIC";
  /** Length of the byte-order mark, which is not part of the text. */
  bom: number;
}

/** Appendix F's table, in libxml2's order (so FF FE 00 00 is UTF-16LE, as there). */
const SIGNATURES: readonly { bytes: readonly number[]; encoding: NonNullable<Sniffed["encoding"]>; bom: boolean }[] = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: "UTF-8", bom: true },
  { bytes: [0xfe, 0xff], encoding: "UTF-16BE", bom: true },
  { bytes: [0xff, 0xfe], encoding: "UTF-16LE", bom: true },
  { bytes: [0x3c, 0x00, 0x3f, 0x00], encoding: "UTF-16LE", bom: false },
  { bytes: [0x00, 0x3c, 0x00, 0x3f], encoding: "UTF-16BE", bom: false },
  { bytes: [0x00, 0x00, 0x00, 0x3c], encoding: "UCS-4", bom: false },
  { bytes: [0x3c, 0x00, 0x00, 0x00], encoding: "UCS-4", bom: false },
  { bytes: [0x00, 0x00, 0x3c, 0x00], encoding: "UCS-4", bom: false },
  { bytes: [0x00, 0x3c, 0x00, 0x00], encoding: "UCS-4", bom: false },
  { bytes: [0x4c, 0x6f, 0xa7, 0x94], encoding: "EBCDIC", bom: false },
];

export function sniffEncoding(bytes: Uint8Array): Sniffed {
  const signature = SIGNATURES.find((s) => s.bytes.every((b, i) => bytes[i] === b));
  return signature ? { encoding: signature.encoding, bom: signature.bom ? signature.bytes.length : 0 } : { bom: 0 };
}

// --- decoders ---------------------------------------------------------------------------------

class InvalidBytes extends Error {
  constructor(readonly offset?: number) {
    super("invalid byte sequence");
  }
}

/** The runtime's (WHATWG) decoder, strict. */
function whatwg(label: string): Decode {
  const decoder = new TextDecoder(label, { fatal: true, ignoreBOM: true });
  return (bytes) => {
    try {
      return decoder.decode(bytes);
    } catch {
      throw new InvalidBytes(label === "utf-8" ? firstInvalidUtf8(bytes) : undefined);
    }
  };
}

/** Where strict UTF-8 decoding fails: the first replacement character that the bytes did not spell. */
function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  let offset = 0;
  let from = 0;
  for (let i = text.indexOf("\uFFFD"); i >= 0; i = text.indexOf("\uFFFD", i + 1)) {
    offset += Buffer.byteLength(text.slice(from, i), "utf8");
    from = i;
    if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd) return offset;
  }
  return undefined;
}

/**
 * A single-byte encoding by its own table, built on first use. ISO-8859-n maps 0x80–0x9F to the C1
 * controls, as libxml2 reads it; the runtime's decoders read ISO-8859-1, -9 and -11 as
 * windows-1252, -1254 and -874, which differ exactly there.
 */
function singleByte(codeOf: (byte: number) => number | undefined): Decode {
  let table: Int32Array | undefined;
  return (bytes) => {
    table ??= Int32Array.from({ length: 256 }, (_, b) => codeOf(b) ?? -1);
    const units = new Uint16Array(bytes.length);
    for (let i = 0; i < bytes.length; i++) {
      const code = table[bytes[i]!]!;
      if (code < 0) throw new InvalidBytes(i);
      units[i] = code;
    }
    return new TextDecoder("utf-16le").decode(units);
  };
}

function iso8859(part: number): Decode {
  const decoder = new TextDecoder(`iso-8859-${part}`, { fatal: true });
  return singleByte((b) => {
    if (b < 0xa0) return b; // ASCII, then the C1 controls
    try {
      return decoder.decode(Uint8Array.of(b)).charCodeAt(0);
    } catch {
      return undefined;
    }
  });
}

const ascii = singleByte((b) => (b < 0x80 ? b : undefined));

// --- the encodings a declaration may name -----------------------------------------------------

/**
 * Declared encodings read, by name (compared case-insensitively): the ones libxml2 reads for
 * validate and the runtime can decode the same way. Every other name is refused, by name.
 */
const DECLARED = new Map<string, { name: string; decode: Decode }>();
function accept(decode: Decode, name: string, ...aliases: string[]): void {
  for (const label of [name, ...aliases]) DECLARED.set(label.toLowerCase(), { name, decode });
}
const utf8 = whatwg("utf-8");
accept(utf8, "UTF-8", "UTF8");
accept(ascii, "US-ASCII", "ASCII");
for (const part of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16]) {
  const latin = part === 1 ? ["LATIN1", "ISO-LATIN-1", "L1", "CP819", "IBM819"] : part === 15 ? ["LATIN-9", "LATIN9"] : [];
  accept(iso8859(part), `ISO-8859-${part}`, `ISO_8859-${part}`, `ISO8859-${part}`, ...latin);
}
for (let page = 1250; page <= 1258; page++) accept(whatwg(`windows-${page}`), `windows-${page}`, `CP${page}`);
accept(whatwg("ibm866"), "CP866");
accept(whatwg("koi8-r"), "KOI8-R");
accept(whatwg("koi8-u"), "KOI8-U");
accept(whatwg("shift_jis"), "Shift_JIS", "SJIS");
for (const name of ["EUC-JP", "ISO-2022-JP", "GBK", "GB18030", "Big5", "EUC-KR"]) accept(whatwg(name.toLowerCase()), name);

const ACCEPTED_NAMES = "UTF-8, UTF-16, US-ASCII, ISO-8859-1 to -16, windows-1250 to -1258, CP866, KOI8-R, KOI8-U, Shift_JIS, EUC-JP, ISO-2022-JP, GBK, GB18030, Big5 or EUC-KR";

/** Names of 16- and 32-bit encodings: declared by a document whose first bytes are ASCII, they cannot be true. */
const WIDE = /^(?:utf-?16(?:le|be)?|ucs-?2|iso-10646-ucs-2|ucs-?4|iso-10646-ucs-4|utf-?32(?:le|be)?)$/i;

const BY_BYTES: Record<"UTF-8" | "UTF-16LE" | "UTF-16BE", Decode> = {
  "UTF-8": utf8,
  "UTF-16LE": whatwg("utf-16le"),
  "UTF-16BE": whatwg("utf-16be"),
};

const DECLARATION = /^<\?xml[\t\n\r ][^>]*?\bencoding[\t\n\r ]*=[\t\n\r ]*(?:"([^"]*)"|'([^']*)')/;

/** The encoding an ASCII-compatible document declares, if any. */
function declaredEncoding(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  const match = DECLARATION.exec(head);
  return match ? (match[1] ?? match[2]!) : undefined;
}

const lineOf = (bytes: Uint8Array, offset: number) => bytes.subarray(0, offset).reduce((lines, b) => (b === 0x0a ? lines + 1 : lines), 1);

/** How a document is to be decoded: by its bytes where they decide, else by its declaration. */
function decoderOf(bytes: Uint8Array, sniffed: Sniffed): { name: string; decode: Decode; declared?: string } {
  switch (sniffed.encoding) {
    case "EBCDIC":
      throw new XmlRefused("XML_MALFORMED", "the document is in EBCDIC, which is not accepted; send it in UTF-8");
    case "UCS-4":
      throw new XmlRefused("XML_MALFORMED", "the document is in UCS-4 (32-bit characters), which is not accepted; send it in UTF-8 or UTF-16");
    case undefined:
      break;
    default:
      return { name: sniffed.encoding, decode: BY_BYTES[sniffed.encoding] };
  }
  const declared = declaredEncoding(bytes);
  if (declared === undefined) return { name: "UTF-8", decode: BY_BYTES["UTF-8"] };
  const known = DECLARED.get(declared.toLowerCase());
  if (known) return { ...known, declared };
  if (WIDE.test(declared)) {
    throw new XmlRefused("XML_MALFORMED", `the XML declaration names encoding "${declared}", but the document is not in it: a UTF-16 document starts with a byte-order mark or with "<?" in UTF-16`);
  }
  throw new XmlRefused("XML_MALFORMED", `the XML declaration names encoding "${declared}", which is not accepted; use ${ACCEPTED_NAMES} (UTF-8 is best)`);
}

/**
 * The text of an XML document. Throws `XmlRefused` (XML_MALFORMED) for an encoding that is not
 * accepted, a declaration the bytes contradict, and any invalid byte sequence.
 */
export function decodeXml(bytes: Uint8Array): string {
  const sniffed = sniffEncoding(bytes);
  const { name, decode, declared } = decoderOf(bytes, sniffed);
  try {
    return decode(bytes.subarray(sniffed.bom));
  } catch (error) {
    if (!(error instanceof InvalidBytes)) throw error;
    const offset = error.offset === undefined ? undefined : error.offset + sniffed.bom;
    const where = offset === undefined ? "" : ` at byte ${offset} (line ${lineOf(bytes, offset)})`;
    const hint = sniffed.encoding === undefined && declared === undefined ? "; no encoding is declared, so it is read as UTF-8: declare the encoding it is written in" : "";
    throw new XmlRefused("XML_MALFORMED", `the document is not valid ${name}: an invalid byte sequence${where}${hint}`);
  }
}
