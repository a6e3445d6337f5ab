// The logo of a stored PDF template, checked before it is stored and again before it is drawn. The
// pages are PDF/A: no transparency, and colour only as sRGB or grey (the output intent is sRGB).
// A PNG alpha channel or tRNS chunk would become a soft mask (transparency), a CMYK JPEG would need
// a CMYK output intent, and 12-bit, lossless or arithmetic-coded JPEGs are not what DCTDecode
// readers decode. Those are refused with a message saying what to change; so is anything whose
// structure does not hold together, and anything too large to draw a logo from.

import { inflateSync } from "node:zlib";
import type { Result } from "../errors/result.ts";

type LogoCheck = Result<{ width: number; height: number }>;

/** The stored definition allows about 300 KB; the same bound for the decoded bytes. */
export const MAX_LOGO_BYTES = 300_000;
/** Pixels per side, and in all: a 80 mm logo at 600 dpi is under 1900 pixels wide. */
const MAX_LOGO_SIDE = 4096;
const MAX_LOGO_PIXELS = 8_388_608;

const fail = (message: string): LogoCheck => ({ ok: false, message });

function sized(width: number, height: number): LogoCheck {
  if (width < 1 || height < 1) return fail("the image has no pixels (width or height 0)");
  if (width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE || width * height > MAX_LOGO_PIXELS)
    return fail(`the image is ${width} x ${height} pixels; at most ${MAX_LOGO_SIDE} pixels per side and ${MAX_LOGO_PIXELS} in all`);
  return { ok: true, width, height };
}

function checkLogo(mediaType: string, bytes: Uint8Array): LogoCheck {
  if (bytes.length === 0) return fail("the logo is empty");
  if (bytes.length > MAX_LOGO_BYTES) return fail(`the logo has ${bytes.length} bytes; at most ${MAX_LOGO_BYTES}`);
  if (mediaType === "image/png") return checkPng(bytes);
  if (mediaType === "image/jpeg") return checkJpeg(bytes);
  return fail(`media type ${mediaType} is not supported; use image/png or image/jpeg`);
}

/** Decodes a stored logo's base64 strictly (a stray character is an error, not skipped) and checks it. */
export function decodeLogo(logo: { mediaType: string; data: string }): Result<{ bytes: Uint8Array; width: number; height: number }> {
  const data = logo.data.replace(/\s+/g, "");
  if (data.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(data)) return { ok: false, message: "logo data is not valid base64" };
  // A copy with its own buffer: pdf-lib's JPEG reader views `bytes.buffer` from offset 0.
  const bytes = new Uint8Array(Buffer.from(data, "base64"));
  const check = checkLogo(logo.mediaType, bytes);
  return check.ok ? { ok: true, bytes, width: check.width, height: check.height } : check;
}

// --- PNG ------------------------------------------------------------------------------------------

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Allowed bit depths per colour type (PNG 11.2.2); 4 and 6 carry alpha and are refused apart. */
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

let crcTable: Uint32Array | undefined;
function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Bytes of the filtered image data: one filter byte per row, per Adam7 pass when interlaced. */
function rawSize(width: number, height: number, bitsPerPixel: number, interlaced: boolean): number {
  const rows = (w: number, h: number) => (w && h ? h * (1 + Math.ceil((w * bitsPerPixel) / 8)) : 0);
  if (!interlaced) return rows(width, height);
  const passes = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ];
  return passes.reduce((sum, [x0, y0, dx, dy]) => sum + rows(Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy)), 0);
}

function checkPng(bytes: Uint8Array): LogoCheck {
  if (bytes.length < 8 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) return fail("not a PNG file (signature missing)");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 8;
  let header: { width: number; height: number; depth: number; colourType: number; interlaced: boolean } | undefined;
  let palette = false;
  let ended = false;
  const data: Uint8Array[] = [];
  while (pos < bytes.length) {
    if (pos + 12 > bytes.length) return fail("the PNG is truncated (incomplete chunk)");
    const length = view.getUint32(pos);
    const type = String.fromCharCode(...bytes.subarray(pos + 4, pos + 8));
    if (length > bytes.length - pos - 12) return fail(`the PNG is truncated (chunk ${JSON.stringify(type)} runs past the end)`);
    const body = bytes.subarray(pos + 8, pos + 8 + length);
    if (crc32(bytes.subarray(pos + 4, pos + 8 + length)) !== view.getUint32(pos + 8 + length)) return fail(`the PNG is damaged (checksum of chunk ${JSON.stringify(type)} wrong)`);
    pos += 12 + length;
    if (!header && type !== "IHDR") return fail("the PNG does not start with its IHDR header");
    switch (type) {
      case "IHDR": {
        if (header) return fail("the PNG has two IHDR headers");
        if (length !== 13) return fail("the PNG header (IHDR) has the wrong length");
        const h = new DataView(body.buffer, body.byteOffset, 13);
        const [depth, colourType, compression, filter, interlace] = [body[8], body[9], body[10], body[11], body[12]];
        if (!(colourType in DEPTHS)) return fail(`PNG colour type ${colourType} does not exist`);
        if (!DEPTHS[colourType].includes(depth)) return fail(`PNG bit depth ${depth} is not allowed with colour type ${colourType}`);
        if (colourType === 4 || colourType === 6)
          return fail(
            `the PNG has an alpha channel (colour type ${colourType}, ${colourType === 6 ? "RGBA" : "grey with alpha"}); transparency is not allowed in PDF/A. Save the logo without alpha channel (flattened onto white) or as JPEG`,
          );
        if (compression !== 0 || filter !== 0) return fail("the PNG uses an unknown compression or filter method");
        if (interlace > 1) return fail(`PNG interlace method ${interlace} does not exist`);
        header = { width: h.getUint32(0), height: h.getUint32(4), depth, colourType, interlaced: interlace === 1 };
        const size = sized(header.width, header.height);
        if (!size.ok) return size;
        break;
      }
      case "PLTE":
        palette = true;
        break;
      case "tRNS":
        return fail("the PNG has a transparency chunk (tRNS); transparency is not allowed in PDF/A. Save the logo without transparency (flattened onto white) or as JPEG");
      case "acTL":
        return fail("the PNG is animated (APNG); use a still image");
      case "IDAT":
        data.push(body);
        break;
      case "IEND":
        ended = true;
        break;
    }
    if (ended) break;
  }
  if (!header) return fail("the PNG has no IHDR header");
  if (!ended) return fail("the PNG is truncated (no IEND chunk)");
  if (header.colourType === 3 && !palette) return fail("the PNG is indexed-colour but has no palette (PLTE)");
  if (!data.length) return fail("the PNG has no image data (IDAT)");
  const expected = rawSize(header.width, header.height, header.depth * CHANNELS[header.colourType], header.interlaced);
  let inflated: Uint8Array;
  try {
    inflated = inflateSync(Buffer.concat(data), { maxOutputLength: expected + 1 });
  } catch {
    return fail("the PNG image data does not decompress (damaged, or larger than its header says)");
  }
  if (inflated.length !== expected) return fail(`the PNG image data has ${inflated.length} bytes where its header needs ${expected}`);
  return { ok: true, width: header.width, height: header.height };
}

// --- JPEG -----------------------------------------------------------------------------------------

/** Start-of-frame markers: baseline, extended sequential and progressive Huffman are drawn. */
const SOF_DRAWN = new Set([0xc0, 0xc1, 0xc2]);
const SOF_REFUSED: Record<number, string> = {
  0xc3: "lossless",
  0xc5: "hierarchical",
  0xc6: "hierarchical",
  0xc7: "hierarchical",
  0xc8: "of a reserved kind",
  0xc9: "arithmetic-coded",
  0xca: "arithmetic-coded",
  0xcb: "arithmetic-coded",
  0xcc: "arithmetic-coded",
  0xcd: "arithmetic-coded",
  0xce: "arithmetic-coded",
  0xcf: "arithmetic-coded",
};

function checkJpeg(bytes: Uint8Array): LogoCheck {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return fail("not a JPEG file (SOI marker missing)");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 2;
  // Segments up to the frame header, the way the PDF writer walks them: each a marker and a length.
  while (pos + 4 <= bytes.length) {
    if (bytes[pos] !== 0xff) return fail("the JPEG is damaged (expected a marker)");
    const marker = bytes[pos + 1];
    if (marker === 0xda || marker === 0xd9 || marker === 0xd8) return fail("the JPEG has no frame header (SOF) before its image data");
    const length = view.getUint16(pos + 2);
    if (length < 2 || pos + 2 + length > bytes.length) return fail("the JPEG is truncated (a segment runs past the end)");
    if (SOF_REFUSED[marker]) return fail(`the JPEG is ${SOF_REFUSED[marker]} (SOF marker 0xFF${marker.toString(16).toUpperCase()}); save it as a baseline or progressive JPEG`);
    if (SOF_DRAWN.has(marker)) {
      if (length < 8) return fail("the JPEG frame header is too short");
      const precision = bytes[pos + 4];
      const height = view.getUint16(pos + 5);
      const width = view.getUint16(pos + 7);
      const components = bytes[pos + 9];
      if (precision !== 8) return fail(`the JPEG has ${precision}-bit samples; save it with 8 bits per sample`);
      if (components === 4) return fail("the JPEG is CMYK; the PDF/A pages are sRGB: save the logo as an RGB (or greyscale) JPEG");
      if (components !== 1 && components !== 3) return fail(`the JPEG has ${components} colour components; only greyscale (1) and RGB (3) are drawn`);
      if (length < 8 + 3 * components) return fail("the JPEG frame header is too short");
      if (height === 0) return fail("the JPEG declares its height later (DNL marker); save it as a regular JPEG");
      return sized(width, height);
    }
    pos += 2 + length;
  }
  return fail("the JPEG is truncated (no frame header)");
}
