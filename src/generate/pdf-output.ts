// The `pdf` output of generate: the generated XML read back into the model (so the pages show what
// the legal XML carries), then drawn as a hybrid PDF/A-3 (ZUGFeRD, Factur-X) or as a visualization
// beside the XML (every other standard).

import { writeHybridPdf } from "../pdf/hybrid.ts";
import { recordById } from "../profiles/lookup.ts";
import { writeVisualizationPdf } from "../pdf/visualization.ts";
import { bindingOf } from "../syntax/registry.ts";
import type { En16931Syntax } from "../profiles/ids.ts";
import { pdfKindOf, type GeneratedXml } from "./generate.ts";
import { DomainError } from "../errors/domain-error.ts";
import type { TemplateDefinitionInput } from "../pdf/design.ts";

export type PdfKind = "hybrid" | "visualization";

interface PdfRequest {
  template?: "standard";
  /** A stored template's definition (it implies the standard layout). */
  design?: TemplateDefinitionInput;
  livemode: boolean;
  now: Date;
}

/** A visualization without a template would be an empty page beside the XML: refused up front. */
export function checkPdfRequest(standard: GeneratedXml["standard"], hasTemplate: boolean): PdfKind {
  const kind = pdfKindOf(standard);
  if (kind === "visualization" && !hasTemplate) {
    throw new DomainError(400, "VALIDATION_ERROR", `a ${standard} PDF is a visualization of the XML and needs template "standard" or a pdfTemplateId`, {
      fields: [{ path: "template", message: "required for a visualization PDF", keyword: "required" }],
    });
  }
  return kind;
}

export async function renderPdfOutput(generated: GeneratedXml, kind: PdfKind, request: PdfRequest): Promise<Uint8Array> {
  const model = generated.model ?? bindingOf(generated.syntax as En16931Syntax).read(generated.bytes);
  const common = { xml: generated.bytes, model, livemode: request.livemode, template: request.template, design: request.design, now: request.now };
  return kind === "hybrid" ? writeHybridPdf({ ...common, record: recordById(generated.record) }) : writeVisualizationPdf(common);
}
