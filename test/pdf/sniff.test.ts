import { expect, test } from "bun:test";
import { isPdf } from "../../src/pdf/sniff";

const bytes = (s: string) => new TextEncoder().encode(s);

test("a PDF is a PDF whether its header is at byte 0 or after a little junk in the first KiB, as PDF readers accept", () => {
  expect(isPdf(bytes("%PDF-1.7\n%âãÏÓ\n1 0 obj"))).toBe(true);
  expect(isPdf(bytes("\r\n\r\nX-Gateway: scanned\r\n%PDF-1.4\n"))).toBe(true);
  expect(isPdf(bytes(`${" ".repeat(1100)}%PDF-1.4`))).toBe(false);
});

test("a body that begins as XML stays XML even when it mentions %PDF- near its start", () => {
  expect(isPdf(bytes(`<?xml version="1.0"?><!-- converted from %PDF-1.4 --><Invoice/>`))).toBe(false);
  expect(isPdf(bytes(`\uFEFF  <Invoice><cbc:Note>%PDF-</cbc:Note></Invoice>`))).toBe(false);
  expect(isPdf(bytes("<Invoice/>"))).toBe(false);
  expect(isPdf(new Uint8Array())).toBe(false);
});
