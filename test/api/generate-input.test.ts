// Caller input that no step after the schema check can carry is a 400 VALIDATION_ERROR naming the
// field, never a 500: characters XML 1.0 does not allow, numbers JSON reads as infinity, nesting
// past the bound, impossible dates; and odd but valid values (huge quantities, 40-digit amounts,
// the longest strings) go through. The check is the pipeline's, so it holds for every JSON route.

import { afterAll, describe, expect, test } from "bun:test";
import { envelope, startHarness } from "../support/harness";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";
import { MAX_JSON_DEPTH } from "../../src/api/schema-check";

const h = startHarness();
afterAll(() => {
  h.deps.close();
  h.close();
});
const org = await h.org("input", "scale");
const live = await h.key(org, "live");

const invoice = SCENARIOS[0].build(LOCALES.de);
const line = invoice.lines[0]!;
const body = (patch: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ standard: "xrechnung", output: "xml", verify: false, ...extra, invoice: { ...invoice, ...patch } });
const post = (path: string, text: string) => h.post(path, text, { authorization: `Bearer ${live}`, "content-type": "application/json" });
const generate = (text: string) => post("/v1/generate", text);

async function refusal(res: Response) {
  const { error } = await envelope(res);
  return { status: res.status, code: error?.code as string, message: error?.message as string, fields: (error?.details?.fields ?? []) as { path: string; message: string; keyword: string }[] };
}

describe("characters XML 1.0 does not allow", () => {
  const cases: [string, string, string][] = [
    ["U+0001 in the note", "/invoice/note", "a\u0001b"],
    ["NUL in the seller name", "/invoice/seller/name", "ACME\u0000"],
    ["U+001F in a line description", "/invoice/lines/0/description", "\u001f"],
    ["U+FFFE in the buyer city", "/invoice/buyer/address/city", "Berlin\uFFFE"],
    ["U+FFFF in the order reference", "/invoice/orderReference", "\uFFFF"],
    ["a lone high surrogate in the number", "/invoice/number", "INV-\uD800"],
    ["a lone low surrogate in payment terms", "/invoice/paymentTerms", "net \uDC00 30"],
  ];
  const set = (path: string, value: string) => {
    const request = structuredClone(body({}));
    const steps = path.split("/").slice(1);
    let target: any = request;
    for (const step of steps.slice(0, -1)) target = target[step];
    target[steps.at(-1)!] = value;
    return JSON.stringify(request);
  };

  for (const [name, path, value] of cases) {
    test(`${name} is 400 VALIDATION_ERROR naming the field and the character`, async () => {
      const r = await refusal(await generate(set(path, value)));
      expect([r.status, r.code]).toEqual([400, "VALIDATION_ERROR"]);
      const field = r.fields.find((f) => f.path === path);
      expect(field).toMatchObject({ keyword: "xmlChar" });
      const char = [...value].find((c) => /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(c))!;
      expect(field!.message).toContain(`U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`);
      expect(r.message).toContain(path);
    });
  }

  test("TAB, LF and CR, astral characters and U+FFFD are accepted", async () => {
    const res = await generate(JSON.stringify(body({ note: "tab\there\nnew line\r\nemoji \u{1F600} and \uFFFD", seller: { ...invoice.seller, name: "Müller \u00e9\u0301 GmbH" } })));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("emoji \u{1F600}");
  });

  test("every JSON body route refuses them the same way (pdf-templates)", async () => {
    const res = await post("/v1/pdf-templates", JSON.stringify({ name: "bad\u0007name", definition: {} }));
    const r = await refusal(res);
    expect([r.status, r.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(r.fields).toContainEqual(expect.objectContaining({ path: "/name", keyword: "xmlChar" }));
  });
});

describe("numbers JSON reads as infinity", () => {
  for (const [name, path, text] of [
    ["1e309 as the net total", "/invoice/totalNetAmount", (s: string) => s.replace(/"totalNetAmount":[-\d.e+]+/, '"totalNetAmount":1e309')],
    ["-1e309 as a line total", "/invoice/lines/0/lineTotal", (s: string) => s.replace(/"lineTotal":[-\d.e+]+/, '"lineTotal":-1e309')],
    ["1e400 as a quantity", "/invoice/lines/0/quantity", (s: string) => s.replace(/"quantity":[-\d.e+]+/, '"quantity":1e400')],
  ] as const) {
    test(`${name} is 400 VALIDATION_ERROR naming the field`, async () => {
      const r = await refusal(await generate(text(JSON.stringify(body({ lines: [line] })))));
      expect([r.status, r.code]).toEqual([400, "VALIDATION_ERROR"]);
      expect(r.fields).toContainEqual(expect.objectContaining({ path, keyword: "finite" }));
    });
  }
});

describe("schema-valid extremes never answer 5xx", () => {
  const nested = (levels: number) => {
    let current: Record<string, unknown> = { ...line };
    for (let i = 0; i < levels; i++) current = { ...line, subLines: [current] };
    return current;
  };

  test("sub-lines nested past the bound are a 400 naming where, however deep", async () => {
    for (const levels of [20, 5_000]) {
      const text = JSON.stringify(body({ lines: [nested(levels)] }, { syntax: "ubl" }));
      expect(text.length).toBeLessThan(1024 * 1024);
      const r = await refusal(await generate(text));
      expect([r.status, r.code]).toEqual([400, "VALIDATION_ERROR"]);
      expect(r.fields[0]).toMatchObject({ keyword: "maxDepth" });
      expect(r.fields[0]!.path.split("/").length - 1).toBe(MAX_JSON_DEPTH);
    }
  });

  test("sub-lines within the bound are written", async () => {
    const res = await generate(JSON.stringify(body({ lines: [nested(10)] }, { syntax: "ubl" })));
    expect(res.status).toBe(200);
    expect((await res.text()).match(/<cac:SubInvoiceLine>/g)?.length).toBe(10);
  });

  test("a date that is not on the calendar is a 400 naming it", async () => {
    const r = await refusal(await generate(JSON.stringify(body({ issueDate: "2024-02-30", dueDate: "2023-02-29" }))));
    expect([r.status, r.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(r.fields.map((f) => f.path).sort()).toEqual(["/invoice/dueDate", "/invoice/issueDate"]);
    expect((await generate(JSON.stringify(body({ issueDate: "2024-02-29" })))).status).toBe(200);
  });

  test("quantities, prices and amounts past 2^53 - 1 are a 400 naming the field, the largest double included", async () => {
    const r = await refusal(
      await generate(
        JSON.stringify(
          body({
            lines: [{ ...line, quantity: 1e300, unitPrice: 2 ** 53, lineTotal: -1.7976931348623157e308 }],
            totalNetAmount: 1234567890123456789012345678901234567890,
            totalGrossAmount: 1.7976931348623157e308,
          }),
        ),
      ),
    );
    expect([r.status, r.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(r.fields.map((f) => f.path).sort()).toEqual([
      "/invoice/lines/0/lineTotal",
      "/invoice/lines/0/quantity",
      "/invoice/lines/0/unitPrice",
      "/invoice/totalGrossAmount",
      "/invoice/totalNetAmount",
    ]);
  });

  test("the largest exact amounts, tiny prices and the longest strings are written, not a 500", async () => {
    const extremes = [
      body({ lines: [{ ...line, quantity: Number.MAX_SAFE_INTEGER, unitPrice: Number.MAX_SAFE_INTEGER, lineTotal: -Number.MAX_SAFE_INTEGER }] }),
      body({ lines: [{ ...line, unitPrice: 1e-300, quantity: 5e-324 }] }),
      body({ note: "\u{1F600}".repeat(2500), lines: [{ ...line, description: "x".repeat(1000) }] }),
    ];
    for (const request of extremes) expect((await generate(JSON.stringify(request))).status).toBe(200);
  });

  test("a body with thousands of bad values answers a bounded list of fields", async () => {
    const lines = Array.from({ length: 2_000 }, () => ({ ...line, description: "\u0001" }));
    const r = await refusal(await generate(JSON.stringify(body({ lines }))));
    expect([r.status, r.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(r.fields.length).toBe(100);
    expect(r.message).toContain("details.fields lists the first 100");
  });
});
