// Deterministic hostile mutations of request bodies for the fuzz test: each mutator takes a seed
// body and the generator, and returns the bytes to send. The kinds follow what the hostile-input
// campaign of issue 14 found (decompression bombs, many findings, undecodable text, values JSON
// turns into infinity) plus plain corruption.

import { deflateSync } from "node:zlib";
import type { Rng } from "../support/rng.ts";

const MAX_BODY = 1024 * 1024;
const encoder = new TextEncoder();
const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);

function cap(bytes: Uint8Array): Uint8Array {
  return bytes.byteLength > MAX_BODY ? bytes.subarray(0, MAX_BODY) : bytes;
}

const concat = (...parts: Uint8Array[]): Uint8Array => Buffer.concat(parts);

/** Offset just after the root element's start tag (where inserted children land), or the middle. */
function afterRootStart(bytes: Uint8Array): number {
  const text = latin1(bytes.subarray(0, 4096));
  const match = /<(?![?!])[^>]*>/.exec(text);
  return match ? match.index + match[0].length : bytes.byteLength >> 1;
}

function insertAt(bytes: Uint8Array, at: number, piece: Uint8Array): Uint8Array {
  return cap(concat(bytes.subarray(0, at), piece, bytes.subarray(at)));
}

type Mutator = (seed: Uint8Array, r: Rng) => Uint8Array;

const byteMutators: Record<string, Mutator> = {
  flipBytes(seed, r) {
    const out = seed.slice();
    for (let i = r.int(1, 24); i > 0; i--) out[r.int(0, out.length - 1)] = r.int(0, 255);
    return out;
  },
  truncate: (seed, r) => seed.subarray(0, r.int(0, seed.byteLength - 1)),
  duplicateSegment(seed, r) {
    const from = r.int(0, seed.byteLength - 1);
    const piece = seed.subarray(from, Math.min(seed.byteLength, from + r.int(1, 4096)));
    const copies = Array.from({ length: r.int(2, 200) }, () => piece);
    return insertAt(seed, from, concat(...copies));
  },
};

const xmlPieces: Record<string, (r: Rng) => string> = {
  manyUnknownElements: (r) => "<X/>".repeat(r.int(1_000, 200_000)),
  deepNesting: (r) => {
    const depth = r.int(200, 20_000);
    return "<d>".repeat(depth) + "</d>".repeat(depth);
  },
  entityExpansion: () => '<!DOCTYPE a [<!ENTITY e "eeeeeeeeee"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;">]>&f;',
  externalEntity: () => '<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]>&x;',
  nul: () => "\u0000",
  controlCharacters: () => "\u0001\u0008\u000b\u001f",
  manyAttributes: (r) => `<Y ${Array.from({ length: r.int(100, 20_000) }, (_, i) => `a${i}="v"`).join(" ")}/>`,
  manyNamespaces: (r) => `<Z ${Array.from({ length: r.int(100, 5_000) }, (_, i) => `xmlns:n${i}="urn:x:${i}"`).join(" ")}/>`,
  longText: (r) => `<L>${"x".repeat(r.int(10_000, 900_000))}</L>`,
  processingInstructions: (r) => "<?pi data?><!--c-->".repeat(r.int(100, 20_000)),
};

const invalidUtf8 = new Uint8Array([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc]);

const xmlMutators: Record<string, Mutator> = {
  ...byteMutators,
  ...Object.fromEntries(Object.entries(xmlPieces).map(([name, piece]) => [name, (seed: Uint8Array, r: Rng) => insertAt(seed, afterRootStart(seed), encoder.encode(piece(r)))])),
  invalidUtf8: (seed, r) => insertAt(seed, r.int(afterRootStart(seed), seed.byteLength - 1), invalidUtf8),
  utf7Declaration: (seed) => encoder.encode(new TextDecoder().decode(seed).replace(/^(<\?xml[^>]*?)(\s+encoding\s*=\s*["'][^"']*["'])?(\s*\?>)/, '$1 encoding="UTF-7"$3')),
  utf16WithoutBom(seed, r) {
    const text = new TextDecoder().decode(seed).replace(/encoding\s*=\s*["'][^"']*["']/, 'encoding="UTF-16"');
    const le = r.next() < 0.5;
    const out = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      out[2 * i + (le ? 0 : 1)] = c & 0xff;
      out[2 * i + (le ? 1 : 0)] = c >> 8;
    }
    return cap(out);
  },
};

/** A minimal PDF whose one embedded file is `payload`, compressed by `filters` rounds of Flate. */
function pdfWithEmbedded(name: string, payload: Uint8Array, rounds: number, decodeParms: boolean): Uint8Array {
  let data = payload;
  for (let i = 0; i < rounds; i++) data = deflateSync(data, { level: 9 });
  const filter = rounds === 1 ? "/FlateDecode" : `[${" /FlateDecode".repeat(rounds)} ]`;
  const parms = decodeParms ? (rounds === 1 ? "/DecodeParms << /Predictor 1 >>" : `/DecodeParms [${" null".repeat(rounds)} ]`) : "";
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(NAME) 4 0 R] >> >> /AF [4 0 R] >>".replace("NAME", name),
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
    `<< /Type /Filespec /F (${name}) /UF (${name}) /AFRelationship /Data /EF << /F 5 0 R >> >>`,
  ];
  const parts: Uint8Array[] = [encoder.encode("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")];
  const offsets: number[] = [];
  let length = parts[0].byteLength;
  const push = (piece: Uint8Array) => {
    parts.push(piece);
    length += piece.byteLength;
  };
  objects.forEach((body, i) => {
    offsets.push(length);
    push(encoder.encode(`${i + 1} 0 obj\n${body}\nendobj\n`));
  });
  offsets.push(length);
  push(encoder.encode(`5 0 obj\n<< /Type /EmbeddedFile /Subtype /text#2Fxml /Filter ${filter} ${parms} /Length ${data.byteLength} >>\nstream\n`));
  push(data);
  push(encoder.encode("\nendstream\nendobj\n"));
  const xref = length;
  const rows = offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  push(encoder.encode(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${rows}trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`));
  return concat(...parts);
}

const pdfMutators: Record<string, Mutator> = {
  ...byteMutators,
  flateChainBomb: (_seed, r) => pdfWithEmbedded("factur-x.xml", new Uint8Array(r.int(64, 512) * 1024 * 1024), r.int(2, 3), false),
  decodeParmsBomb: (_seed, r) => pdfWithEmbedded("factur-x.xml", new Uint8Array(r.int(64, 256) * 1024 * 1024), 1, true),
  embeddedHostileXml: (seed, r) => {
    const xml = encoder.encode(`<?xml version="1.0"?><rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">${xmlPieces.manyUnknownElements(r)}</rsm:CrossIndustryInvoice>`);
    return pdfWithEmbedded("factur-x.xml", xml, 1, false);
  },
  rewriteFilters: (seed) => encoder.encode(latin1(seed).replaceAll("/FlateDecode", "[/FlateDecode /FlateDecode]")),
};

/** JSON values that break writers, decimal arithmetic or schema checkers when placed anywhere. */
const hostileJson: ((r: Rng) => string)[] = [
  () => "1e309",
  () => "-1e309",
  () => '"\\u0000\\u0001\\u001f"',
  () => '"\\ud800"',
  () => '"\\uffff\\ufffe"',
  (r) => JSON.stringify("x".repeat(r.int(1_000, 200_000))),
  (r) => "[".repeat(r.int(100, 50_000)) + "]".repeat(0),
  (r) => { const d = r.int(100, 5_000); return "[".repeat(d) + "]".repeat(d); },
  (r) => `{${Array.from({ length: r.int(100, 20_000) }, (_, i) => `"k${i}":${i}`).join(",")}}`,
  () => "123456789012345678901234567890123456789.123456789",
  () => '"2024-02-30"',
  () => "-0",
  () => "null",
  () => "true",
  () => "{}",
  () => "[]",
];

function pathsOf(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...prefix, i], out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, k], out);
  return out;
}

const PLACEHOLDER = "\u0000__FUZZ__\u0000";

/** Replaces one value (chosen among every path of the seed) with a hostile JSON text. */
function replaceValue(seed: unknown, r: Rng): Uint8Array {
  const paths = pathsOf(seed).filter((p) => p.length > 0);
  const path = r.pick(paths);
  const copy = structuredClone(seed) as Record<string | number, unknown>;
  let parent = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  parent[path[path.length - 1]] = PLACEHOLDER;
  const text = JSON.stringify(copy).replace(JSON.stringify(PLACEHOLDER), r.pick(hostileJson)(r));
  return cap(encoder.encode(text));
}

export type BodyKind = "xml" | "pdf" | "json";

/** One mutated body of `kind` from `seed`; names the mutator so a failure can be replayed. */
export function mutate(kind: BodyKind, seed: Uint8Array, r: Rng): { mutator: string; bytes: Uint8Array } {
  if (kind === "json") {
    if (r.next() < 0.8) return { mutator: "replaceValue", bytes: replaceValue(JSON.parse(new TextDecoder().decode(seed)), r) };
    const name = r.pick(Object.keys(byteMutators));
    return { mutator: name, bytes: byteMutators[name](seed, r) };
  }
  const table = kind === "pdf" ? pdfMutators : xmlMutators;
  const name = r.pick(Object.keys(table));
  return { mutator: name, bytes: table[name](seed, r) };
}
