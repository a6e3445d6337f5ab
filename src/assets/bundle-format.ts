import { gzipSync } from "fflate";

/**
 * One file holds every asset the engine reads at run time (pinned schemas, compiled stylesheets,
 * code lists, the build index), so the executable embeds a single file and development runs read
 * the very same bytes. Layout: u32 little-endian header length, JSON header, then the entries.
 * Entries are gzip-compressed (compiled stylesheets shrink about tenfold) and inflated on first read,
 * by Bun's zlib: fflate's JavaScript inflate took some thirty times as long, a tenth of a second of
 * every offline validation's start (the schemas, the rule models and code lists it reads).
 */
interface HeaderEntry {
  offset: number;
  length: number;
  gzip: boolean;
}

export function packBundle(files: Map<string, Uint8Array>): Uint8Array {
  const header: Record<string, HeaderEntry> = {};
  const bodies: Uint8Array[] = [];
  let offset = 0;
  for (const [path, bytes] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    const packed = bytes.byteLength > 4096 ? gzipSync(bytes, { level: 9, mtime: 0 }) : bytes;
    header[path] = { offset, length: packed.byteLength, gzip: packed !== bytes };
    bodies.push(packed);
    offset += packed.byteLength;
  }
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(4 + headerBytes.byteLength + offset);
  new DataView(out.buffer).setUint32(0, headerBytes.byteLength, true);
  out.set(headerBytes, 4);
  let at = 4 + headerBytes.byteLength;
  for (const body of bodies) {
    out.set(body, at);
    at += body.byteLength;
  }
  return out;
}

export class Bundle {
  private readonly header: Record<string, HeaderEntry>;
  private readonly base: number;

  constructor(private readonly bytes: Uint8Array) {
    const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);
    this.header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length)));
    this.base = 4 + length;
  }

  has(path: string): boolean {
    return Object.hasOwn(this.header, path);
  }

  paths(): string[] {
    return Object.keys(this.header);
  }

  read(path: string): Uint8Array {
    const entry = this.header[path];
    if (!entry) throw new Error(`asset '${path}' is not in the ruleset bundle; run the ruleset build (npm run rulesets)`);
    const raw = this.bytes.subarray(this.base + entry.offset, this.base + entry.offset + entry.length);
    return entry.gzip ? Bun.gunzipSync(raw as Uint8Array<ArrayBuffer>) : raw;
  }

  text(path: string): string {
    return new TextDecoder().decode(this.read(path));
  }
}
