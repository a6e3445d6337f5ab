// POST /v1/generate without HTTP: request -> XML bytes, pure, synchronous and byte-for-byte
// deterministic (no clock, no randomness; the writers order everything by schema). Validation of
// the output is the caller's next step, under `pipelineProfile`.

import type { Invoice } from "../model/index.ts";
import { toModel } from "../invoice/to-model.ts";
import { writeUbl } from "../syntax/ubl/write.ts";
import { writeCii, type LostField } from "../syntax/cii/write.ts";
import { CREDIT_NOTE_CAPABLE, STANDARD_TABLE, type Profile, type ProfileRow, type Standard } from "../standards/table.ts";
import { checkRequest } from "./checks.ts";
import { GenerateError } from "./errors.ts";
import { completeParties } from "./parties.ts";
import { resolveProfile, writerRow } from "./profile.ts";
import type { GenerateRequestInput } from "./request.ts";
import { markTestMode } from "./test-mode.ts";
import { applyFranceCtc } from "./france-ctc.ts";
import { trimForMinimum } from "./trim.ts";

export interface GeneratedXml {
  bytes: Uint8Array;
  syntax: "cii" | "ubl";
  standard: Standard;
  profile: Profile;
  /** Profile key of src/validation/pipelines.ts that judges `bytes` (validateDocument's `profile`). */
  pipelineProfile: string;
  /** BT-24 as written. */
  customizationId: string;
  contentType: "application/xml";
  /** Terms of the request the target cannot carry, dropped from the output. */
  lost: LostField[];
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

const franceCtcApplies = (row: ProfileRow, invoice: GenerateInput["invoice"]) =>
  row.franceCtc === "always" || (row.franceCtc === "opt-in" && invoice.franceCtc === true);

export function generateXml(request: GenerateInput, options: { livemode: boolean }): GeneratedXml {
  const { standard, invoice } = request;
  const profile = resolveProfile(request);
  if (invoice.documentType === "creditnote" && !CREDIT_NOTE_CAPABLE.includes(standard)) {
    throw new GenerateError(422, "DOCUMENT_TYPE_STANDARD_MISMATCH", `${standard} accepts invoices only; credit notes can be generated for ${CREDIT_NOTE_CAPABLE.join(", ")}`, {
      standard,
      documentType: invoice.documentType,
      creditNoteCapableStandards: [...CREDIT_NOTE_CAPABLE],
    });
  }
  const { row, syntax } = writerRow(request, profile);
  checkRequest(invoice, syntax, row.overlay);

  const keepsSubLines = row.subLines.includes(syntax);
  const customizationId = (keepsSubLines && invoice.lines.some((l) => l.subLines?.length) && row.extensionCustomizationId) || row.customizationId;
  const model = toModel(invoice, { specificationIdentifier: customizationId, businessProcessType: row.profileId });
  completeParties(model, invoice, row, standard);
  if (franceCtcApplies(row, invoice)) applyFranceCtc(model, invoice.businessProcessId);
  const lost = keepsSubLines ? [] : dropSubLines(model);
  if (row.trim === "minimum") lost.push(...trimForMinimum(model));

  let xml: string;
  if (syntax === "ubl") {
    xml = writeUbl(model);
  } else {
    const target = row.target.syntax === "cii" && row.target.version === "D22B" ? { version: "D22B" as const, profile: row.target.level } : { version: "D16B" as const };
    const written = writeCii(model, target);
    xml = written.xml;
    lost.push(...written.lost);
  }
  if (!options.livemode) xml = markTestMode(xml);
  return {
    bytes: new TextEncoder().encode(xml),
    syntax,
    standard,
    profile,
    pipelineProfile: row.pipelineProfile,
    customizationId,
    contentType: "application/xml",
    lost,
  };
}

/** The `pdf` output kind of a standard (the PDF layer builds it from the XML). */
export const pdfKindOf = (standard: Standard) => STANDARD_TABLE[standard].pdfKind;
