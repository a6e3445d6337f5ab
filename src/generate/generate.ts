// POST /v1/generate without HTTP: request -> XML bytes, pure, synchronous and byte-for-byte
// deterministic (no clock, no randomness; the writers order everything by schema). Validation of
// the output is the caller's next step, under the record that wrote it.

import type { Invoice } from "../model/index.ts";
import { toModel } from "../invoice/to-model.ts";
import { applyOverlays, overlaysFor } from "../overlays/registry.ts";
import type { LostField } from "../syntax/binding.ts";
import { bindingOf } from "../syntax/registry.ts";
import { STANDARD_ENTRIES } from "../profiles/catalogue.ts";
import type { GeneratedSyntax, RecordId, RequestProfile, Standard } from "../profiles/ids.ts";
import { creditNoteStandards } from "../profiles/lookup.ts";
import { checkRequest } from "./checks.ts";
import { DomainError } from "../errors/domain-error.ts";
import { resolveProfile, writerRecord } from "./profile.ts";
import type { GenerateRequestInput } from "./request.ts";
import { markTestMode } from "./test-mode.ts";
import { generateNational, nationalRecord } from "./national.ts";

export interface GeneratedXml {
  bytes: Uint8Array;
  syntax: GeneratedSyntax;
  standard: Standard;
  profile: RequestProfile;
  /** The catalogue record that wrote `bytes` and judges them (validateDocument's `record`). */
  record: RecordId;
  /** BT-24 as written; absent for the national formats. */
  customizationId?: string;
  contentType: "application/xml";
  /** Terms of the request the target cannot carry, dropped from the output. */
  lost: LostField[];
  /** The model a national document was written from: no binding reads it back (the PDF draws it). */
  model?: Invoice;
}

export type GenerateInput = Pick<GenerateRequestInput, "standard" | "profile" | "facturxProfile" | "syntax" | "invoice">;

/** Sub-lines where the target has none: the parent line carries the amount, the parts are reported lost. */
function dropSubLines(model: Invoice): LostField[] {
  const lost: LostField[] = [];
  model.lines = model.lines.map((line, i) => {
    if (!line.subLines?.length) return line;
    lost.push({ bt: "BG-DEX-01", xpath: `/invoice/lines/${i}/subLines` });
    const { subLines: _, ...parent } = line;
    return parent;
  });
  return lost;
}

/** `judged`: the caller judges the output next (`verify` true), which changes one refusal (checks.ts). */
export function generateXml(request: GenerateInput, options: { livemode: boolean; judged?: boolean }): GeneratedXml {
  const { standard, invoice } = request;
  const profile = resolveProfile(request);
  if (invoice.documentType === "creditnote" && !STANDARD_ENTRIES[standard].creditNotes) {
    const capable = creditNoteStandards();
    throw new DomainError(422, "DOCUMENT_TYPE_STANDARD_MISMATCH", `${standard} accepts invoices only; credit notes can be generated for ${capable.join(", ")}`, {
      standard,
      documentType: invoice.documentType,
      creditNoteCapableStandards: capable,
    });
  }
  const national = nationalRecord(request, profile);
  if (national) return generateNational(request, profile, national, options);
  const record = writerRecord(request, profile);
  const { write } = record;
  const binding = bindingOf(record.syntax);
  const overlays = overlaysFor(write, invoice);
  checkRequest(invoice, binding, overlays, options.judged ?? false);

  const customizationId = (write.subLines && invoice.lines.some((l) => l.subLines?.length) && write.extensionCustomizationId) || write.customizationId;
  const model = toModel(invoice, { specificationIdentifier: customizationId, businessProcessType: write.businessProcess });
  applyOverlays(overlays, model, { invoice, standard, write });
  const lost = write.subLines ? [] : dropSubLines(model);
  const written = binding.write(model, write);
  lost.push(...written.lost);
  const xml = options.livemode ? written.xml : markTestMode(written.xml);
  return {
    bytes: new TextEncoder().encode(xml),
    syntax: binding.id,
    standard,
    profile,
    record: record.id,
    customizationId,
    contentType: "application/xml",
    lost,
  };
}

/** The `pdf` output kind of a standard (the PDF layer builds it from the XML). */
export const pdfKindOf = (standard: Standard) => STANDARD_ENTRIES[standard].pdfKind;
