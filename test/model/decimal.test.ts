import { describe, expect, test } from "bun:test";
import {
  add,
  compare,
  decimalPlaces,
  equals,
  isDecimal,
  multiply,
  negate,
  normalize,
  percentOf,
  round,
  subtract,
  sum,
  toFixed,
} from "../../src/model/decimal.ts";

describe("decimal", () => {
  test("recognises xs:decimal literals only", () => {
    for (const ok of ["0", "-1.50", "+3", ".5", "3.", " 12.00 "]) expect(isDecimal(ok)).toBe(true);
    for (const bad of ["", "1e3", "1,5", "NaN", "--1", ".", "1.2.3"]) expect(isDecimal(bad)).toBe(false);
    expect(() => add("1e3", "1")).toThrow(RangeError);
  });

  test("adds and subtracts exactly where floats do not", () => {
    expect(add("0.1", "0.2")).toBe("0.3");
    expect(add("1.5", "2.25")).toBe("3.75");
    expect(subtract("1", "1.01")).toBe("-0.01");
    expect(subtract("-0.5", "-0.5")).toBe("0.0");
    expect(add("99999999999999999999.99", "0.01")).toBe("100000000000000000000.00");
    expect(sum(["19.99", "0.01", "-5"])).toBe("15.00");
    expect(sum([])).toBe("0");
  });

  test("multiplies exactly, decimals adding up", () => {
    expect(multiply("1.5", "1.25")).toBe("1.875");
    expect(multiply("-0.5", "0.5")).toBe("-0.25");
    expect(multiply("0.1", "3")).toBe("0.3");
    expect(percentOf("200", "19")).toBe("38.00");
    expect(percentOf("33.33", "7")).toBe("2.3331");
  });

  test("compares by value, not by spelling", () => {
    expect(compare("1.0", "1")).toBe(0);
    expect(compare("-2", "1")).toBe(-1);
    expect(compare("10.01", "10.009")).toBe(1);
    expect(equals("+.50", "0.5")).toBe(true);
  });

  test("rounds half-up (away from zero) and half-ceiling (XPath round)", () => {
    expect(round("2.345", 2)).toBe("2.35");
    expect(round("-2.345", 2)).toBe("-2.35");
    expect(round("-2.345", 2, "half-ceiling")).toBe("-2.34");
    expect(round("2.345", 2, "half-ceiling")).toBe("2.35");
    expect(round("2.344999", 2)).toBe("2.34");
    expect(round("-0.004", 2)).toBe("0.00");
    expect(round("9.995", 2)).toBe("10.00");
    expect(round("1.5", 0)).toBe("2");
    expect(round("7", 2)).toBe("7.00");
    expect(() => round("1", -1)).toThrow(RangeError);
  });

  test("formats with fixed decimals", () => {
    expect(toFixed("5", 2)).toBe("5.00");
    expect(toFixed("0.125", 2)).toBe("0.13");
    expect(toFixed("-12.3456", 3)).toBe("-12.346");
  });

  test("negates, normalizes and counts decimals", () => {
    expect(negate("1.50")).toBe("-1.50");
    expect(negate("-0")).toBe("0");
    expect(normalize("01.500")).toBe("1.5");
    expect(normalize("-0.00")).toBe("0");
    expect(normalize("100")).toBe("100");
    expect(decimalPlaces("1.50")).toBe(2);
    expect(decimalPlaces("3")).toBe(0);
  });
});
