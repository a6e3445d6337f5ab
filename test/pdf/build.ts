// Builds the hybrids the PDF tests inspect: generate the CII with the real generator, read it back
// into the model the pages are drawn from, wrap both.

import { generateXml } from "../../src/generate/generate.ts";
import type { InvoiceInput } from "../../src/invoice/schema.ts";
import { writeHybridPdf } from "../../src/pdf/hybrid.ts";
import type { Template } from "../../src/pdf/render.ts";
import type { RequestProfile } from "../../src/profiles/ids.ts";
import { recordById } from "../../src/profiles/lookup.ts";
import { readCii } from "../../src/syntax/cii/read.ts";

export const FACTURX_LEVELS = [
  { profile: "minimum", conformanceLevel: "MINIMUM", relationship: "Data" },
  { profile: "basicwl", conformanceLevel: "BASIC WL", relationship: "Data" },
  { profile: "basic", conformanceLevel: "BASIC", relationship: "Alternative" },
  { profile: "en16931", conformanceLevel: "EN 16931", relationship: "Alternative" },
  { profile: "extended", conformanceLevel: "EXTENDED", relationship: "Alternative" },
] as const satisfies { profile: RequestProfile; conformanceLevel: string; relationship: string }[];

export interface Built {
  xml: Uint8Array;
  pdf: Uint8Array;
  ms: number;
}

export async function buildHybrid(
  invoice: InvoiceInput,
  profile: RequestProfile,
  options: { livemode?: boolean; template?: Template; now?: Date; standard?: "facturx" | "zugferd" | "xrechnung" } = {},
): Promise<Built> {
  const { livemode = true, now, standard = "facturx" } = options;
  const template = "template" in options ? options.template : "standard";
  const generated = generateXml({ standard, profile, invoice } as Parameters<typeof generateXml>[0], { livemode });
  const model = readCii(generated.bytes);
  const started = performance.now();
  const pdf = await writeHybridPdf({ xml: generated.bytes, model, record: recordById(generated.record), livemode, template, now });
  return { xml: generated.bytes, pdf, ms: performance.now() - started };
}
