// Test helper: pulls the embedded CII invoice out of a Factur-X / ZUGFeRD PDF, so the rewrite
// proof can run the Factur-X stylesheets over the corpus PDFs. A byte scan for Flate streams is
// enough for these files; the service's own PDF reader lives elsewhere.

import { unzlibSync } from "fflate";

const decoder = new TextDecoder();

export function embeddedCii(pdf: Uint8Array): string | null {
  const text = Buffer.from(pdf).toString("latin1");
  let from = 0;
  while (true) {
    const s = text.indexOf("stream", from);
    if (s < 0) return null;
    from = s + 6;
    if (text.startsWith("endstream", s - 3)) continue;
    let start = s + 6;
    if (text[start] === "\r") start++;
    if (text[start] === "\n") start++;
    const end = text.indexOf("endstream", start);
    if (end < 0) return null;
    const raw = pdf.subarray(start, end);
    let xml: string;
    try {
      xml = decoder.decode(unzlibSync(raw));
    } catch {
      xml = decoder.decode(raw);
    }
    if (/<([\w-]+:)?CrossIndustry(Invoice|Document)[\s>]/.test(xml)) return xml.slice(xml.indexOf("<"));
    from = end;
  }
}
