// An ICC v2 display profile for sRGB IEC 61966-2.1, built in code: PDF/A needs an embedded output
// intent profile, and building it here keeps licensing and provenance trivial. The bytes are fixed
// (no clock, fixed creation date), so every PDF carrying it stays byte-for-byte reproducible.

const HEADER_SIZE = 128;
const TRC_POINTS = 1024;

/** D50, the profile connection space illuminant, as s15Fixed16 words (ICC.1:2001-04, 6.1). */
const D50 = [0x0000f6d6, 0x00010000, 0x0000d32d];

/**
 * sRGB primaries adapted to D50 (Bradford), as s15Fixed16 words: the colorant values of the ICC's
 * own sRGB profiles. Their sum is D50 within the rounding of the format.
 */
const COLORANTS = {
  rXYZ: [0x00006fa2, 0x000038f5, 0x00000390],
  gXYZ: [0x00006299, 0x0000b785, 0x000018da],
  bXYZ: [0x000024a0, 0x00000f84, 0x0000b6cf],
};

export const SRGB_DESCRIPTION = "sRGB IEC61966-2.1";
const COPYRIGHT = "No copyright, use freely";

/** IEC 61966-2.1 decoding: non-linear sRGB value to linear light, both in 0..1. */
export function srgbToLinear(v: number): number {
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

class Writer {
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }
  u8(at: number, v: number) { this.view.setUint8(at, v); }
  u16(at: number, v: number) { this.view.setUint16(at, v); }
  u32(at: number, v: number) { this.view.setUint32(at, v); }
  ascii(at: number, text: string) { for (let i = 0; i < text.length; i++) this.bytes[at + i] = text.charCodeAt(i); }
}

type TagBody = (w: Writer, at: number) => void;
interface Tag { size: number; write: TagBody }

function xyzTag(words: number[]): Tag {
  return { size: 20, write: (w, at) => { w.ascii(at, "XYZ "); words.forEach((v, i) => w.u32(at + 8 + 4 * i, v)); } };
}

function textTag(text: string): Tag {
  return { size: 8 + text.length + 1, write: (w, at) => { w.ascii(at, "text"); w.ascii(at + 8, text); } };
}

/** textDescriptionType (ICC.1:2001-04, 6.5.17): ASCII part, empty Unicode and ScriptCode parts. */
function descTag(text: string): Tag {
  const ascii = text.length + 1;
  return {
    size: 12 + ascii + 4 + 4 + 2 + 1 + 67,
    write: (w, at) => {
      w.ascii(at, "desc");
      w.u32(at + 8, ascii);
      w.ascii(at + 12, text);
      // Unicode language code and count, ScriptCode code and count: all zero (left as allocated).
    },
  };
}

function curveTag(): Tag {
  return {
    size: 12 + 2 * TRC_POINTS,
    write: (w, at) => {
      w.ascii(at, "curv");
      w.u32(at + 8, TRC_POINTS);
      for (let i = 0; i < TRC_POINTS; i++) w.u16(at + 12 + 2 * i, Math.round(srgbToLinear(i / (TRC_POINTS - 1)) * 65535));
    },
  };
}

const align4 = (n: number) => (n + 3) & ~3;

function build(): Uint8Array {
  const trc = curveTag();
  // The three tone curves are identical; one copy is shared by three tag table entries.
  const entries: [string, Tag][] = [
    ["desc", descTag(SRGB_DESCRIPTION)],
    ["cprt", textTag(COPYRIGHT)],
    ["wtpt", xyzTag(D50)],
    ["rXYZ", xyzTag(COLORANTS.rXYZ)],
    ["gXYZ", xyzTag(COLORANTS.gXYZ)],
    ["bXYZ", xyzTag(COLORANTS.bXYZ)],
    ["rTRC", trc],
    ["gTRC", trc],
    ["bTRC", trc],
  ];
  const offsets = new Map<Tag, number>();
  let end = align4(HEADER_SIZE + 4 + 12 * entries.length);
  for (const [, tag] of entries) {
    if (offsets.has(tag)) continue;
    offsets.set(tag, end);
    end = align4(end + tag.size);
  }
  const w = new Writer(end);
  w.u32(0, end);
  w.u32(8, 0x02100000); // version 2.1
  w.ascii(12, "mntr");
  w.ascii(16, "RGB ");
  w.ascii(20, "XYZ ");
  [2000, 1, 1, 0, 0, 0].forEach((v, i) => w.u16(24 + 2 * i, v)); // fixed date: reproducible bytes
  w.ascii(36, "acsp");
  w.u32(64, 0); // perceptual
  D50.forEach((v, i) => w.u32(68 + 4 * i, v));
  w.u32(HEADER_SIZE, entries.length);
  entries.forEach(([signature, tag], i) => {
    const row = HEADER_SIZE + 4 + 12 * i;
    w.ascii(row, signature);
    w.u32(row + 4, offsets.get(tag)!);
    w.u32(row + 8, tag.size);
  });
  for (const [tag, at] of offsets) tag.write(w, at);
  return w.bytes;
}

let profile: Uint8Array | undefined;

/** The profile bytes (about 2.5 KB); built once, never mutate the result. */
export function srgbIccProfile(): Uint8Array {
  profile ??= build();
  return profile;
}
