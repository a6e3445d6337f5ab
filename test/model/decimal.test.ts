import { describe, expect, test } from "bun:test";
import { add, compare, decimalPlaces, isDecimal, multiply, negate, normalize, sum, toFixed } from "../../src/model/decimal.ts";

describe("decimal", () => {
  test("recognises xs:decimal literals only", () => {
    for (const ok of ["0", "-1.50", "+3", ".5", "3.", " 12.00 "]) expect(isDecimal(ok)).toBe(true);
    for (const bad of ["", "1e3", "1,5", "NaN", "--1", ".", "1.2.3"]) expect(isDecimal(bad)).toBe(false);
    expect(() => add("1e3", "1")).toThrow(RangeError);
  });

  test("adds exactly where floats do not", () => {
    expect(add("0.1", "0.2")).toBe("0.3");
    expect(add("1.5", "2.25")).toBe("3.75");
    expect(add("1", "-1.01")).toBe("-0.01");
    expect(add("99999999999999999999.99", "0.01")).toBe("100000000000000000000.00");
    expect(sum(["19.99", "0.01", "-5"])).toBe("15.00");
    expect(sum([])).toBe("0");
  });

  test("multiplies exactly, keeping the decimals of both factors", () => {
    expect(multiply("1.5", "0.25")).toBe("0.375");
    expect(multiply("0.1", "0.2")).toBe("0.02");
    expect(multiply("-12.50", "22")).toBe("-275.00");
    expect(multiply("99999999999999.99", "0.095")).toBe("9499999999999.99905");
    expect(multiply("-3", "19.99")).toBe("-59.97");
    expect(multiply("123456789.123", "1000000.01")).toBe("123456790357567.89123");
  });

  test("formats with fixed decimals, a tie rounded away from zero", () => {
    expect(toFixed("5", 2)).toBe("5.00");
    expect(toFixed("0.125", 2)).toBe("0.13");
    expect(toFixed("-12.3456", 3)).toBe("-12.346");
    expect(toFixed("2.345", 2)).toBe("2.35");
    expect(toFixed("-2.345", 2)).toBe("-2.35");
    expect(toFixed("2.344999", 2)).toBe("2.34");
    expect(toFixed("-0.004", 2)).toBe("0.00");
    expect(toFixed("9.995", 2)).toBe("10.00");
    expect(toFixed("1.5", 0)).toBe("2");
    expect(() => toFixed("1", -1)).toThrow(RangeError);
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
  test("multiply is exact and keeps both scales", () => {
    expect(multiply("1.5", "0.25")).toBe("0.375");
    expect(multiply("-249.99", "4.00")).toBe("-999.9600");
    expect(multiply("0.1", "0.2")).toBe("0.02");
  });

  test("compare ignores how a value is written", () => {
    expect(compare("400.00", "400")).toBe(0);
    expect(compare("400.01", "400.00")).toBe(1);
    expect(compare("-1", "0.5")).toBe(-1);
  });
});
