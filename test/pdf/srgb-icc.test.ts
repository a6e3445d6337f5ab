import { describe, expect, test } from "bun:test";
import { parse } from "icc";
import { SRGB_DESCRIPTION, srgbIccProfile, srgbToLinear } from "../../src/pdf/srgb-icc.ts";

const profile = srgbIccProfile();
const view = new DataView(profile.buffer, profile.byteOffset, profile.byteLength);
const ascii = (at: number, n = 4) => new TextDecoder("latin1").decode(profile.subarray(at, at + n));

function tags(): Map<string, { offset: number; size: number }> {
  const out = new Map<string, { offset: number; size: number }>();
  for (let i = 0; i < view.getUint32(128); i++) {
    const row = 132 + 12 * i;
    out.set(ascii(row), { offset: view.getUint32(row + 4), size: view.getUint32(row + 8) });
  }
  return out;
}

const xyz = (tag: string) => {
  const { offset } = tags().get(tag)!;
  return [0, 1, 2].map((i) => view.getInt32(offset + 8 + 4 * i) / 65536);
};

describe("sRGB ICC profile", () => {
  test("the icc parser reads it as a v2 RGB display profile with a D50 white point", () => {
    const parsed = parse(Buffer.from(profile));
    expect(parsed).toMatchObject({ version: "2.1", deviceClass: "Monitor", colorSpace: "RGB", connectionSpace: "XYZ", intent: "Perceptual", description: SRGB_DESCRIPTION });
    expect(parsed.copyright).toBeString();
    const [x, y, z] = parsed.whitepoint as number[];
    expect([x, y, z].map((v) => Math.round(v * 1e4) / 1e4)).toEqual([0.9642, 1, 0.8249]);
  });

  test("has every tag a matrix/TRC display profile needs, 4-byte aligned and inside the file", () => {
    const t = tags();
    expect([...t.keys()].sort()).toEqual(["bTRC", "bXYZ", "cprt", "desc", "gTRC", "gXYZ", "rTRC", "rXYZ", "wtpt"]);
    for (const { offset, size } of t.values()) {
      expect(offset % 4).toBe(0);
      expect(offset + size).toBeLessThanOrEqual(profile.byteLength);
    }
    expect(ascii(36)).toBe("acsp");
    expect(view.getUint32(0)).toBe(profile.byteLength);
  });

  test("the colorants add up to the D50 white (the matrix maps RGB white to PCS white)", () => {
    const sum = [0, 1, 2].map((i) => xyz("rXYZ")[i] + xyz("gXYZ")[i] + xyz("bXYZ")[i]);
    const white = xyz("wtpt");
    sum.forEach((v, i) => expect(Math.abs(v - white[i])).toBeLessThan(0.001));
    // Luminance weights of sRGB (Y row): about 0.2225, 0.7169, 0.0606.
    expect(xyz("rXYZ")[1]).toBeCloseTo(0.2225, 3);
    expect(xyz("gXYZ")[1]).toBeCloseTo(0.7169, 3);
    expect(xyz("bXYZ")[1]).toBeCloseTo(0.0606, 3);
  });

  test("the tone curves are the sRGB transfer function", () => {
    for (const tag of ["rTRC", "gTRC", "bTRC"]) {
      const { offset } = tags().get(tag)!;
      expect(ascii(offset)).toBe("curv");
      const n = view.getUint32(offset + 8);
      expect(n).toBeGreaterThan(255);
      const at = (i: number) => view.getUint16(offset + 12 + 2 * i) / 65535;
      expect(at(0)).toBe(0);
      expect(at(n - 1)).toBe(1);
      for (const i of [1, 10, Math.floor(n / 4), Math.floor(n / 2), n - 2]) expect(Math.abs(at(i) - srgbToLinear(i / (n - 1)))).toBeLessThan(1 / 65535);
      // Linear toe, then the 2.4 power segment: mid grey 0.5 is about 21.4 % light.
      expect(srgbToLinear(0.5)).toBeCloseTo(0.214, 3);
      expect(srgbToLinear(0.04)).toBeCloseTo(0.04 / 12.92, 6);
    }
  });

  test("carries a fixed creation date, not the clock, so PDFs embedding it are reproducible", () => {
    expect([0, 1, 2, 3, 4, 5].map((i) => view.getUint16(24 + 2 * i))).toEqual([2000, 1, 1, 0, 0, 0]);
  });
});
