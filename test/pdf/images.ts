// Small images made from bytes for logo tests: PNG of any colour type with node:zlib.

import { deflateSync } from "node:zlib";

export function chunk(type: string, body: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(Bun.hash.crc32(Buffer.concat([head.subarray(4), body])) >>> 0, 0);
  return Buffer.concat([head, body, crc]);
}

interface PngSpec {
  width: number;
  height: number;
  colourType: 0 | 2 | 3 | 4 | 6;
  depth?: number;
  /** Sample values of one pixel (8 and 16 bits), or the packed bytes of row y (1, 2, 4 bits; not interlaced). */
  pixel: (x: number, y: number) => number[];
  interlaced?: boolean;
  extra?: Buffer[];
  /** Filtered image data to use instead of the pixels'. */
  data?: Buffer;
}

export function png({ width, height, colourType, depth = 8, pixel, interlaced = false, extra = [], data }: PngSpec): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([depth, colourType, 0, 0, interlaced ? 1 : 0], 8);
  const bytesPerSample = depth / 8;
  const rows = (xs: number[], ys: number[]) =>
    depth < 8
      ? ys.flatMap((y) => [0, ...pixel(0, y)])
      : ys.flatMap((y) => [0, ...xs.flatMap((x) => pixel(x, y).flatMap((v) => (bytesPerSample === 2 ? [v, v] : [v])))]);
  const range = (from: number, to: number, step: number) => Array.from({ length: Math.max(0, Math.ceil((to - from) / step)) }, (_, i) => from + i * step);
  const raw = interlaced
    ? [
        [0, 0, 8, 8],
        [4, 0, 8, 8],
        [0, 4, 4, 8],
        [2, 0, 4, 4],
        [0, 2, 2, 4],
        [1, 0, 2, 2],
        [0, 1, 1, 2],
      ].flatMap(([x0, y0, dx, dy]) => {
        const xs = range(x0, width, dx);
        return xs.length ? rows(xs, range(y0, height, dy)) : [];
      })
    : rows(range(0, width, 1), range(0, height, 1));
  const plte = colourType === 3 ? [chunk("PLTE", new Uint8Array([31, 78, 121, 255, 255, 255, 200, 40, 40]))] : [];
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk("IHDR", ihdr),
      ...plte,
      ...extra,
      chunk("IDAT", deflateSync(data ?? Buffer.from(raw))),
      chunk("IEND", new Uint8Array()),
    ]),
  );
}

