// The PDF budget seen from the routes: a bomb is a 400 with the reader's message, through the
// validation workers (validate) and wherever parse reads the PDF, and concurrent bombs do not add
// up to the memory they ask for. Workers are threads of this process, so its high-water mark
// (maxRSS) counts their memory too.

import { describe, expect, test } from "bun:test";
import { envelope, startValidatingHarness } from "../support/harness.ts";
import { flate, hybridPdf, zeros } from "./raw-pdf.ts";

const h = startValidatingHarness();
const key = await h.key(await h.org("bomber", "scale"), "live");
const post = (route: string, body: Uint8Array) => h.post(route, body as BodyInit, { authorization: `Bearer ${key}`, "content-type": "application/pdf" });

const INVOICE = { dict: "", data: new TextEncoder().encode(`<?xml version="1.0"?><rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>`) };
const BOMB = zeros(256 * 1024 * 1024);
const OBJECT_STREAM_BOMB = hybridPdf(INVOICE, { extra: [{ dict: "/Type /ObjStm /N 1 /First 0 /Filter /FlateDecode", data: BOMB }] });
const CHAIN_BOMB = hybridPdf({ dict: "/Filter [/FlateDecode /FlateDecode]", data: flate(BOMB) });

describe("a PDF over the reading budget", () => {
  test("validate: an object-stream bomb is a 400, not a verdict", async () => {
    const start = performance.now();
    const res = await post("/v1/validate", OBJECT_STREAM_BOMB);
    expect(res.status).toBe(400);
    expect((await envelope(res)).error).toMatchObject({ code: "VALIDATION_ERROR", message: expect.stringContaining("the PDF's compressed streams would inflate past 16 MiB") });
    expect(performance.now() - start).toBeLessThan(5_000);
  });

  test("parse: the same refusal", async () => {
    const res = await post("/v1/parse", OBJECT_STREAM_BOMB);
    expect(res.status).toBe(400);
    expect((await envelope(res)).error).toMatchObject({ code: "PARSE_FAILED", message: expect.stringContaining("would inflate past 16 MiB") });
  });

  test("three concurrent filter-chain bombs stay within a small fraction of what they ask for", async () => {
    const peak = process.resourceUsage().maxRSS;
    const answers = await Promise.all([1, 2, 3].map(() => post("/v1/validate", CHAIN_BOMB)));
    expect(answers.map((r) => r.status)).toEqual([400, 400, 400]);
    expect((process.resourceUsage().maxRSS - peak) / 1024).toBeLessThan(128);
  });
});
