import { describe, expect, test } from "bun:test";
import { secondsUntil, windowFor } from "../../src/accounts/windows";

const iso = (w: { start: Date; end: Date }) => [w.start.toISOString(), w.end.toISOString()];

describe("quota windows", () => {
  test("a live window runs from the billing day to the same day next month", () => {
    expect(iso(windowFor(true, 15, new Date("2026-03-20T08:00:00Z")))).toEqual(["2026-03-15T00:00:00.000Z", "2026-04-15T00:00:00.000Z"]);
    expect(iso(windowFor(true, 15, new Date("2026-03-14T23:59:59Z")))).toEqual(["2026-02-15T00:00:00.000Z", "2026-03-15T00:00:00.000Z"]);
    expect(iso(windowFor(true, 15, new Date("2026-03-15T00:00:00Z")))).toEqual(["2026-03-15T00:00:00.000Z", "2026-04-15T00:00:00.000Z"]);
  });

  test("windows cross year ends", () => {
    expect(iso(windowFor(true, 28, new Date("2026-01-05T00:00:00Z")))).toEqual(["2025-12-28T00:00:00.000Z", "2026-01-28T00:00:00.000Z"]);
    expect(iso(windowFor(true, 28, new Date("2026-12-30T00:00:00Z")))).toEqual(["2026-12-28T00:00:00.000Z", "2027-01-28T00:00:00.000Z"]);
  });

  test("test keys count per UTC calendar month", () => {
    expect(iso(windowFor(false, 15, new Date("2026-02-28T23:00:00Z")))).toEqual(["2026-02-01T00:00:00.000Z", "2026-03-01T00:00:00.000Z"]);
  });

  test("Retry-After never says zero", () => {
    expect(secondsUntil(new Date("2026-01-01T00:00:10Z"), new Date("2026-01-01T00:00:00.500Z"))).toBe(10);
    expect(secondsUntil(new Date("2026-01-01T00:00:00Z"), new Date("2026-01-01T00:00:00Z"))).toBe(1);
  });
});
