// writeEslog: every test invoice is valid under the pinned e-SLOG 2.0 XSD, the same input gives the
// same bytes, the segment layout follows the corpus documents, and a value too long is refused.

import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { rulesetBundle } from "../../../src/assets/bundle.ts";
import { createEngine } from "../../../src/validation/engine.ts";
import { validateDocument, type Engine } from "../../../src/validation/validate.ts";
import { DomainError } from "../../../src/errors/domain-error.ts";
import { writeEslog } from "../../../src/syntax/eslog/write.ts";
import { buildMissing, cannotRun } from "../../support/requirements.ts";
import { INVOICES, input } from "./invoices.ts";

const RECORD = "eslog:slovenia-eslog-v2-0";
const CORPUS = "/work/shared/corpus/media24si-eslog2/inv.xml";
const encode = (xml: string) => new TextEncoder().encode(xml);

describe.skipIf(cannotRun("e-SLOG output judged by the pinned XSD", buildMissing()))("XSD", () => {
  let engine: Engine;
  beforeAll(() => {
    engine = createEngine(rulesetBundle());
  });
  for (const [name, invoice] of Object.entries(INVOICES)) {
    test(`${name}: valid under eslog_xsd 2.0`, async () => {
      const outcome = await validateDocument(engine, { bytes: encode(writeEslog(input(invoice)).xml), record: RECORD });
      if (!outcome.ok) throw new Error(outcome.message);
      expect(outcome.result.errors).toEqual([]);
    });
  }
});

describe("document", () => {
  test("the same input gives the same bytes", () => {
    for (const invoice of Object.values(INVOICES)) expect(writeEslog(input(invoice)).xml).toBe(writeEslog(input(invoice)).xml);
  });

  test("root, namespace, signed Id, document code 380 / 381", () => {
    const invoice = writeEslog(input(INVOICES.domestic!)).xml;
    expect(invoice).toContain('<Invoice xmlns="urn:eslog:2.00">');
    expect(invoice).toContain('<M_INVOIC Id="data">');
    expect(invoice).toMatch(/<D_1001>380<\/D_1001>/);
    expect(writeEslog(input(INVOICES["credit note"]!)).xml).toMatch(/<D_1001>381<\/D_1001>/);
  });

  test("top-level segments come in the order the Slovenian corpus document has them", () => {
    const topLevel = (xml: string) => {
      const names: string[] = [];
      let depth = 0;
      for (const m of xml.slice(xml.indexOf("<M_INVOIC")).matchAll(/<(\/?)([A-Za-z_0-9]+)[^>]*?(\/?)>/g)) {
        if (m[1]) depth--;
        else if (!m[3]) {
          if (depth === 1 && names.at(-1) !== m[2]) names.push(m[2]!);
          depth++;
        }
      }
      return names;
    };
    expect(topLevel(writeEslog(input(INVOICES.domestic!)).xml)).toEqual(topLevel(readFileSync(CORPUS, "utf8")));
  });

  test("an exemption reason is written once per breakdown, O matched by category; contacts are written, not lost", () => {
    const o = writeEslog(input(INVOICES["not subject to VAT (O)"]!));
    expect(o.xml).toMatch(/<D_4451>AGM<\/D_4451>\s*<C_C108>\s*<D_4440>Not subject to VAT<\/D_4440>/);
    const domestic = writeEslog(input(INVOICES.domestic!));
    expect(domestic.xml).toContain("<D_3148>racuni@dobavitelj.example</D_3148>");
    expect(domestic.lost).toEqual([]);
  });

  test("summary qualifiers and one G_SG52 per rate", () => {
    const xml = writeEslog(input(INVOICES["several rates"]!)).xml;
    const qualifiers = [...xml.matchAll(/<G_SG50>\s*<S_MOA>\s*<C_C516>\s*<D_5025>(\d+)</g)].map((m) => m[1]);
    expect(qualifiers).toEqual(["79", "260", "259", "389", "176", "388", "9"]);
    expect([...xml.matchAll(/<G_SG52>[\s\S]*?<D_5278>([\d.]+)</g)].map((m) => m[1])).toEqual(["22", "9.5"]);
  });
});

describe("limits", () => {
  const refusal = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      if (e instanceof DomainError) return e;
      throw e;
    }
    throw new Error("not refused");
  };

  test("a name, a street and a line's item name too long are refused naming their pointers", () => {
    const base = INVOICES.domestic!;
    const invoice = {
      ...base,
      seller: { ...base.seller, name: "N".repeat(71) },
      buyer: { ...base.buyer, address: { ...base.buyer.address, street: "Š".repeat(36) } },
      lines: base.lines.map((l, i) => (i === 1 ? { ...l, description: "d".repeat(257) } : l)),
    };
    const e = refusal(() => writeEslog(input(invoice)));
    expect([e.status, e.code]).toEqual([400, "VALIDATION_ERROR"]);
    const fields = (e.details as { fields: { path: string; message: string; keyword: string }[] }).fields;
    expect(fields.map((f) => [f.path, f.keyword])).toEqual([
      ["/invoice/seller/name", "maxLength"],
      ["/invoice/buyer/address/street", "maxLength"],
      ["/invoice/lines/1/description", "maxLength"],
    ]);
    expect(fields[0]!.message).toContain("70 characters e-SLOG's D_3036");
  });

  test("values at the limit are written whole; a long note is split over the XSD's continuations", () => {
    const base = INVOICES.domestic!;
    const name = "Ž".repeat(70);
    const note = "x".repeat(512 * 5);
    const xml = writeEslog(input({ ...base, seller: { ...base.seller, name }, note })).xml;
    expect(xml).toContain(`<D_3036>${name}</D_3036>`);
    expect(xml).toContain(`<D_4440_5>${"x".repeat(512)}</D_4440_5>`);
    const e = refusal(() => writeEslog(input({ ...base, note: note + "x" })));
    expect((e.details as { fields: { path: string }[] }).fields.map((f) => f.path)).toEqual(["/invoice/note"]);
  });

  test("more VAT breakdowns than G_SG52 occurs is refused on the lines", () => {
    const base = INVOICES.domestic!;
    const lines = Array.from({ length: 11 }, (_, i) => ({ ...base.lines[0]!, vatRate: i + 1 }));
    const e = refusal(() => writeEslog(input({ ...base, lines, taxSummary: undefined })));
    expect((e.details as { fields: { path: string; keyword: string }[] }).fields).toMatchObject([{ path: "/invoice/lines", keyword: "maxItems" }]);
  });

  test("a price with more decimals than D_5118 holds is refused, not rounded", () => {
    const base = INVOICES.domestic!;
    const e = refusal(() => writeEslog(input({ ...base, lines: [{ ...base.lines[0]!, unitPrice: 1.0000001 }] })));
    expect((e.details as { fields: { path: string; keyword: string }[] }).fields).toMatchObject([{ path: "/invoice/lines/0/unitPrice", keyword: "multipleOf" }]);
  });
});
