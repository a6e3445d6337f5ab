// One XML reading policy for every route (src/syntax/xml-policy.ts): what validate refuses as
// malformed, parse refuses too; what validate's parser (libxml2) reads, the policy decodes to the
// same text; and a document in UTF-16 without a byte-order mark is judged like its UTF-8 twin.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ParseOption, XmlDocument } from "libxml2-wasm";
import { rulesetBundle } from "../../src/assets/bundle";
import { createEngine } from "../../src/validation/engine";
import { validateDocument, type Engine } from "../../src/validation/validate";
import { generateXml } from "../../src/generate/generate";
import { parseDocument } from "../../src/generate/parse";
import { DomainError } from "../../src/errors/domain-error";
import { readXmlText, XML_LIMITS } from "../../src/syntax/xml-policy";
import { XmlRefused } from "../../src/syntax/xml-refused";
import { parseXml } from "../../src/syntax/xml-reader";
import { rulesetRequest } from "../../src/rulesets/selection";
import type { ValidationResult } from "../../src/validation/result";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";

// The options validate parses instances with (src/validation/xsd.ts).
const LIBXML2_OPTIONS = ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE | ParseOption.XML_PARSE_BIG_LINES;

/** The root's text content as libxml2 reads it, or undefined when it refuses the document. */
function libxml2Text(bytes: Uint8Array): string | undefined {
  try {
    const doc = XmlDocument.fromBuffer(bytes, { option: LIBXML2_OPTIONS });
    try {
      return doc.root.content;
    } finally {
      doc.dispose();
    }
  } catch {
    return undefined;
  }
}

function policyText(bytes: Uint8Array): string | undefined {
  try {
    return parseXml(bytes).documentElement?.textContent ?? "";
  } catch (error) {
    if (error instanceof XmlRefused) return undefined;
    throw error;
  }
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const latin = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
function utf16(text: string, order: "le" | "be"): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const [hi, lo] = [text.charCodeAt(i) >> 8, text.charCodeAt(i) & 0xff];
    bytes.set(order === "le" ? [lo, hi] : [hi, lo], i * 2);
  }
  return bytes;
}
const declared = (encoding: string, body: string) => `<?xml version="1.0" encoding="${encoding}"?>${body}`;

describe("decoding agrees with libxml2", () => {
  const body = "<a>caf\u00e9 \u20ac \u{1F600}</a>";
  const documents: [string, Uint8Array][] = [
    ["UTF-8, no declaration", utf8(body)],
    ["UTF-8 with NEL, LINE SEPARATOR and CR LF (XML 1.0 line ends only)", utf8("<a>1\u0085 2\u2028 3\u2029 4\r\n5\r6</a>")],
    ["UTF-8 with a byte-order mark that contradicts the declaration", utf8("\uFEFF" + declared("ISO-8859-1", body))],
    ["UTF-16LE, byte-order mark, no declaration", utf16("\uFEFF" + body, "le")],
    ["UTF-16BE, byte-order mark, declaration", utf16("\uFEFF" + declared("UTF-16", body), "be")],
    ["UTF-16LE without byte-order mark", utf16(declared("UTF-16", body), "le")],
    ["UTF-16BE without byte-order mark", utf16(declared("UTF-16", body), "be")],
    ["UTF-16LE without byte-order mark, declaring UTF-8", utf16(declared("UTF-8", body), "le")],
    ["UTF-16LE with a byte-order mark, declaring UTF-7", utf16("\uFEFF" + declared("UTF-7", body), "le")],
    ["ISO-8859-1 with a C1 control", latin(declared("ISO-8859-1", "<a>caf\u00e9 \u0085 \u0080</a>"))],
    ["latin1 alias", latin(declared("latin1", "<a>caf\u00e9</a>"))],
    ["ISO-8859-9 with a C1 control", latin(declared("ISO-8859-9", "<a>\u00dd\u00fd\u0080</a>"))],
    ["ISO-8859-15 (euro at A4)", latin(declared("ISO-8859-15", "<a>\u00a4</a>"))],
    ["windows-1252 (euro at 80)", latin(declared("windows-1252", "<a>\u0080 \u00e9</a>"))],
    ["KOI8-R", latin(declared("KOI8-R", "<a>\u00c1\u00c2</a>"))],
    ["US-ASCII", latin(declared("US-ASCII", "<a>plain</a>"))],
  ];
  for (const [name, bytes] of documents) {
    test(name, () => {
      const expected = libxml2Text(bytes);
      expect(expected).toBeDefined();
      expect(policyText(bytes)).toBe(expected!);
    });
  }

  const refusedByBoth: [string, Uint8Array][] = [
    ["US-ASCII with a byte over 0x7F", latin(declared("US-ASCII", "<a>caf\u00e9</a>"))],
    ["ISO-8859-3 with a byte the table leaves undefined", latin(declared("ISO-8859-3", "<a>\u00a5</a>"))],
    ["UTF-16 declared in a document whose first bytes are ASCII", utf8(declared("UTF-16", "<a/>"))],
    ["UTF-16LE without byte-order mark or declaration", utf16("<a>x</a>", "le")],
    ["UTF-16LE with a lone surrogate", utf16("\uFEFF<a>\uD800</a>", "le")],
    ["UTF-16LE of odd length", new Uint8Array([...utf16("\uFEFF<a>x</a>", "le"), 0x41])],
    ["EBCDIC", new Uint8Array([0x4c, 0x6f, 0xa7, 0x94, 0x93, 0x40])],
  ];
  for (const [name, bytes] of refusedByBoth) {
    test(`refused by both: ${name}`, () => {
      expect(libxml2Text(bytes)).toBeUndefined();
      expect(policyText(bytes)).toBeUndefined();
    });
  }

  test("encoding names: the policy reads a name exactly when libxml2 does, among the names seen in practice", () => {
    const accepted = ["UTF-8", "utf8", "US-ASCII", "ISO-8859-1", "iso-8859-2", "ISO-8859-9", "ISO-8859-11", "ISO-8859-15", "ISO-8859-16", "ISO_8859-1", "latin1", "windows-1250", "windows-1252", "cp1252", "KOI8-R", "Shift_JIS", "EUC-JP", "GBK", "Big5", "EUC-KR"];
    const refused = ["UTF-7", "EBCDIC", "HTML", "x-klingon", "ISO-8859-12", "ISO-10646-UCS-4", "UTF-16", "UCS-2", ""];
    const reads = (name: string) => ({ libxml2: libxml2Text(latin(declared(name, "<a>x</a>"))) !== undefined, policy: policyText(latin(declared(name, "<a>x</a>"))) !== undefined });
    for (const name of accepted) expect([name, reads(name)]).toEqual([name, { libxml2: true, policy: true }]);
    for (const name of refused) expect([name, reads(name)]).toEqual([name, { libxml2: false, policy: false }]);
  });

  test("a refused encoding is named in the message, with what to send instead", () => {
    expect(() => readXmlText(utf8(declared("UTF-7", "<a/>")))).toThrow(/names encoding "UTF-7", which is not accepted; use UTF-8/);
  });

  test("invalid UTF-8 is located and explained", () => {
    const bytes = new Uint8Array([...utf8("<a>\n\uFFFD ok\n"), 0xc3, 0x28, ...utf8("</a>")]);
    expect(() => readXmlText(bytes)).toThrow("the document is not valid UTF-8: an invalid byte sequence at byte 11 (line 3); no encoding is declared");
  });
});

// Each document is a valid generated UBL invoice, broken in one way.
const invoice = SCENARIOS[0].build(LOCALES.de);
const generated = generateXml({ standard: "xrechnung", syntax: "ubl", invoice }, { livemode: true });
const ubl = new TextDecoder().decode(generated.bytes);
const NOTE = "<cbc:Note>";
const inNote = (insert: string) => ubl.replace(NOTE, NOTE + insert);
const bytesInNote = (bytes: number[]) => {
  const at = utf8(ubl.slice(0, ubl.indexOf(NOTE) + NOTE.length)).length;
  return new Uint8Array([...generated.bytes.subarray(0, at), ...bytes, ...generated.bytes.subarray(at)]);
};
const withDeclaration = (encoding: string) => ubl.replace('encoding="UTF-8"', `encoding="${encoding}"`);

const BAD_DOCUMENTS: [string, Uint8Array, "XML_MALFORMED" | "XML_REFUSED"][] = [
  ["invalid UTF-8", bytesInNote([0xff, 0xfe]), "XML_MALFORMED"],
  ["an overlong UTF-8 sequence", bytesInNote([0xc0, 0x80]), "XML_MALFORMED"],
  ["a UTF-8-encoded surrogate", bytesInNote([0xed, 0xa0, 0x80]), "XML_MALFORMED"],
  ["Latin-1 bytes without a declaration", bytesInNote([0xe9]), "XML_MALFORMED"],
  ["a NUL byte", bytesInNote([0x00]), "XML_MALFORMED"],
  ["a C0 control", bytesInNote([0x01]), "XML_MALFORMED"],
  ["U+FFFE", utf8(inNote("\uFFFE")), "XML_MALFORMED"],
  ['encoding="UTF-7"', utf8(withDeclaration("UTF-7")), "XML_MALFORMED"],
  ["an unknown encoding", utf8(withDeclaration("x-klingon")), "XML_MALFORMED"],
  ["UTF-16 declared, ASCII bytes", utf8(withDeclaration("UTF-16")), "XML_MALFORMED"],
  ["a DOCTYPE", utf8(ubl.replace("?>", '?><!DOCTYPE Invoice [<!ENTITY e "x">]>')), "XML_REFUSED"],
  [`elements nested ${XML_LIMITS.maxDepth + 1} levels deep`, utf8(inNote("<x>".repeat(XML_LIMITS.maxDepth) + "</x>".repeat(XML_LIMITS.maxDepth))), "XML_MALFORMED"],
  ["a name longer than libxml2 reads", utf8(inNote(`<${"n".repeat(XML_LIMITS.maxNameLength + 1)}/>`)), "XML_MALFORMED"],
  ["a bare ampersand", utf8(inNote("fish & chips")), "XML_MALFORMED"],
  ["an undefined entity", utf8(inNote("&nbsp;")), "XML_MALFORMED"],
  ["a character reference to U+0001", utf8(inNote("&#1;")), "XML_MALFORMED"],
  ["a character reference to a surrogate", utf8(inNote("&#xD800;")), "XML_MALFORMED"],
  ["a character reference past U+10FFFF", utf8(inNote("&#x110000;")), "XML_MALFORMED"],
  ["]]> in text", utf8(inNote("a ]]> b")), "XML_MALFORMED"],
  ["an unquoted attribute", utf8(ubl.replace(/currencyID="EUR"/, "currencyID=EUR")), "XML_MALFORMED"],
  ["attributes without whitespace between them", utf8(ubl.replace(/<cbc:EndpointID schemeID="([^"]*)"/, '<cbc:EndpointID schemeID="$1"x="1"')), "XML_MALFORMED"],
  ["'<' in an attribute value", utf8(ubl.replace(/currencyID="EUR"/, 'currencyID="E<R"')), "XML_MALFORMED"],
  ["an unterminated comment", utf8(inNote("<!-- never closed")), "XML_MALFORMED"],
];

describe("parse refuses exactly what validate refuses", () => {
  let engine: Engine;
  beforeAll(() => {
    engine = createEngine(rulesetBundle());
  });
  afterAll(() => engine.xsd.dispose());

  test("the unbroken document is read by both", async () => {
    expect((await parseDocument(generated.bytes)).format).toBe("ubl");
    const outcome = await validateDocument(engine, { bytes: generated.bytes });
    expect(outcome.ok && outcome.result.valid).toBe(true);
  }, 60_000);

  for (const [name, bytes, ruleId] of BAD_DOCUMENTS) {
    test(`${name}: validate ${ruleId}, parse PARSE_FAILED`, async () => {
      const outcome = await validateDocument(engine, { bytes });
      expect(outcome.ok).toBe(true);
      const result = (outcome as { result: ValidationResult }).result;
      expect(result.valid).toBe(false);
      expect(result.errors[0]).toMatchObject({ ruleId, severity: "fatal" });

      const refusal = await parseDocument(bytes).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(DomainError);
      expect(refusal).toMatchObject({ status: 400, code: "PARSE_FAILED" });
    }, 60_000);
  }
});

describe("UTF-16 without a byte-order mark is judged like its UTF-8 twin", () => {
  let engine: Engine;
  beforeAll(() => {
    engine = createEngine(rulesetBundle());
  });
  afterAll(() => engine.xsd.dispose());

  const verdict = async (bytes: Uint8Array) => {
    const outcome = await validateDocument(engine, { bytes, ruleset: { request: rulesetRequest("latest", "latest"), day: "2026-11-22" } });
    if (!outcome.ok) throw new Error(outcome.message);
    const { sha256: _, ...rest } = outcome.result;
    return rest;
  };

  const twins = (standard: "xrechnung" | "peppol-bis", syntax: "cii" | "ubl", broken: boolean) => {
    const request = { standard, syntax, invoice: broken ? { ...invoice, totalGrossAmount: invoice.totalGrossAmount + 1 } : invoice } as const;
    const text = new TextDecoder().decode(generateXml(request, { livemode: true }).bytes);
    const wide = text.replace('encoding="UTF-8"', 'encoding="UTF-16"');
    return { utf8: utf8(text), le: utf16(wide, "le"), be: utf16(wide, "be") };
  };

  for (const [standard, syntax, broken] of [
    ["xrechnung", "cii", false],
    ["xrechnung", "ubl", true],
    ["peppol-bis", "ubl", false],
  ] as const) {
    test(`${standard} ${syntax}, ${broken ? "breaking BR-CO-15" : "valid"}`, async () => {
      const docs = twins(standard, syntax, broken);
      const expected = await verdict(docs.utf8);
      expect(expected.valid).toBe(!broken);
      expect(expected.errors.length).toBeGreaterThanOrEqual(broken ? 1 : 0);
      expect(await verdict(docs.le)).toEqual(expected);
      expect(await verdict(docs.be)).toEqual(expected);
    }, 60_000);
  }
});
