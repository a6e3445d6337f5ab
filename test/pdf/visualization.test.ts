// The visualization PDF of XML-only standards: same pages, PDF/A-3b, nothing embedded.

import { afterAll, describe, expect, test } from "bun:test";
import { generateXml } from "../../src/generate/generate.ts";
import { extractInvoiceXml } from "../../src/pdf/attachments.ts";
import { writeVisualizationPdf } from "../../src/pdf/visualization.ts";
import { readCii } from "../../src/syntax/cii/read.ts";
import { PDF_CASES } from "./fixtures.ts";
import { lacking, pageTexts, run, scratch } from "./tools.ts";

const tmp = scratch();
afterAll(() => tmp.remove());

async function visualize(livemode: boolean) {
  const xml = generateXml({ standard: "xrechnung", invoice: PDF_CASES[4].invoice } as Parameters<typeof generateXml>[0], { livemode }).bytes;
  const pdf = await writeVisualizationPdf({ xml, model: readCii(xml), livemode, template: "standard" });
  return { pdf, path: tmp.write(`visualization-${livemode}.pdf`, pdf) };
}

describe("visualization PDF", () => {
  test("PDF/A-3b XMP without the Factur-X schema, and no attachment", async () => {
    const { pdf } = await visualize(true);
    const x = await extractInvoiceXml(pdf);
    expect(x).toMatchObject({ ok: false, reason: "no-invoice-xml", attachments: [] });
    if (x.ok || x.reason !== "no-invoice-xml") return;
    expect(x.xmp).toContain("<pdfaid:part>3</pdfaid:part>");
    expect(x.xmp).toContain("<pdfaid:conformance>B</pdfaid:conformance>");
    expect(x.xmp).not.toContain("fx:");
  });

  test.skipIf(lacking("pdffonts", "qpdf", "pdfdetach"))("fonts embedded and subset, qpdf clean, nothing to detach", async () => {
    const { path } = await visualize(true);
    for (const line of run(["pdffonts", path]).trim().split("\n").slice(2)) expect(line).toMatch(/^[A-Z]{6}\+DejaVuSans(-Bold)?\s.*yes yes yes/);
    expect(run(["qpdf", "--check", path])).toContain("No syntax or stream encoding errors found");
    expect(run(["pdfdetach", "-list", path])).toContain("0 embedded files");
  });

  test.skipIf(lacking("pdftotext"))("non-Latin text is extractable as written; test keys get the watermark", async () => {
    const live = pageTexts((await visualize(true)).path);
    expect(live[0]).toContain("FabricadeCiocolatăȘtefan&ČapekSRL");
    expect(live[0]).toContain("Łódź");
    expect(live[0]).toContain("Ελληνικόμέλι/Русскийчай");
    expect(live[0]).not.toContain("SANDBOX");
    for (const page of pageTexts((await visualize(false)).path)) expect(page).toContain("SANDBOX·SPECIMEN");
  });
});
