// POST /v1/generate as one job in an engine worker: the invoice written in its standard's XML, drawn
// as a PDF when one is asked for, and judged under the record that wrote it. The refusals come
// first and cost the caller nothing; the request's unit is spent before the drawing and the judging.

import { generateXml, type GeneratedXml, type GenerateInput } from "./generate";
import { citesNoInvoice } from "./checks";
import type { PdfKind } from "./pdf-output";
import { DomainError } from "../errors/domain-error";
import { judgedProfileName, recordById } from "../profiles/lookup";
import { sha256Hex } from "../rulesets/seal";
import type { storedDefinition } from "../templates/store";
import type { TemplateDefinitionInput } from "../pdf/design";
import type { ValidationFinding, ValidationResult } from "../validation/result";
import type { ValidateOutcome, ValidateRequest } from "../validation/validate";

export interface InvoiceOrder {
  request: GenerateInput;
  livemode: boolean;
  /** Asked for with `output: pdf`. */
  pdf?: PdfOrder;
  /** Absent with `verify: false`. */
  judge?: { ruleset: ValidateRequest["ruleset"] };
}

interface PdfOrder {
  template?: "standard";
  /** A stored template as read from the store; it wins over `template`. */
  stored?: { ref: string; checked: ReturnType<typeof storedDefinition> };
  now: Date;
}

export interface GeneratedInvoice {
  file: Uint8Array;
  /** What was written, without the XML itself: the answer is the file. */
  generated: Omit<GeneratedXml, "bytes">;
  pdfKind?: PdfKind;
  /** The verdict on the file, or with `verify: false` a result saying that nothing judged it. */
  result: ValidationResult;
}

/** What the worker lends the use case. */
interface InvoiceSteps {
  /** Spends the request's unit; rejects when it cannot, and the job ends there. */
  spend(): Promise<void>;
  judge(request: ValidateRequest): Promise<ValidateOutcome>;
}

export async function generateInvoice(order: InvoiceOrder, steps: InvoiceSteps): Promise<GeneratedInvoice> {
  const { request, livemode } = order;
  // The refusals in the order they are answered: the stored template, the PDF kind, the invoice,
  // and when it will be judged a credit note naming no invoice it credits (BR-55).
  const pdf = order.pdf && (await pdfStep(order.pdf, request.standard, livemode));
  const generated = generateXml(request, { livemode, judged: order.judge !== undefined });
  if (order.judge && citesNoInvoice(request.invoice)) throw uncitedCreditNote(generated);
  await steps.spend();
  const file = pdf ? await pdf.render(generated) : generated.bytes;
  const { bytes: _, model: __, ...written } = generated;
  if (!order.judge) return { file, generated: written, pdfKind: pdf?.kind, result: unsealed(generated, false, []) };
  // A hybrid is judged whole (its XML and its container); a visualization's legal artifact is the XML.
  const judged = pdf?.kind === "hybrid" ? file : generated.bytes;
  const outcome = await steps.judge({ bytes: judged, record: generated.record, ruleset: order.judge.ruleset });
  if (!outcome.ok) throw new Error(`the generated document could not be judged: ${outcome.message}`);
  return { file, generated: written, pdfKind: pdf?.kind, result: { ...outcome.result, verified: true } };
}

/** The PDF asked for, checked before anything is written: its template usable, its kind possible. */
async function pdfStep(order: PdfOrder, standard: GenerateInput["standard"], livemode: boolean) {
  // pdf-output brings pdf-lib, needed only when a PDF is asked for.
  const { checkPdfRequest, renderPdfOutput } = await import("./pdf-output");
  const design = order.stored && (await usableDesign(order.stored));
  const template = design || order.template ? "standard" : undefined;
  const kind = checkPdfRequest(standard, template !== undefined);
  return { kind, render: (generated: GeneratedXml) => renderPdfOutput(generated, kind, { template, design, livemode, now: order.now }) };
}

/** A stored definition may no longer fit the schema, or its logo may not be drawable. */
async function usableDesign({ ref, checked }: NonNullable<PdfOrder["stored"]>): Promise<TemplateDefinitionInput> {
  const { designProblems } = await import("../pdf/design-check");
  const problems = checked.ok ? designProblems(checked.definition).map((p) => `${p.path} ${p.message}`) : checked.problems;
  if (!checked.ok || problems.length) {
    throw new DomainError(422, "PDF_TEMPLATE_INVALID", `the stored PDF template ${ref} cannot be used: ${problems.join("; ")}`, { problems });
  }
  return checked.definition;
}

/**
 * A result no rule file sealed: the written XML's SHA-256, format and profile, valid false, and the
 * findings said of it. With `verify: false` (`verified` false) nothing judged the output.
 */
function unsealed(generated: GeneratedXml, verified: boolean, errors: ValidationFinding[]): ValidationResult {
  return { valid: false, verified, format: generated.syntax, profileDetected: judgedProfileName(recordById(generated.record)), sha256: sha256Hex(generated.bytes), errors, warnings: [] };
}

/** The rule as the EN 16931 Schematron (CEN 1.3.16) states it, severity and text. */
const BR_55: ValidationFinding = {
  ruleId: "BR-55",
  severity: "fatal",
  message: "[BR-55]-Each Preceding Invoice reference (BG-3) shall contain a Preceding Invoice reference (BT-25).",
};

/**
 * While `verify` is true, credit-note output naming no preceding invoice is refused by BR-55, in
 * every standard: 422 INVALID_INVOICE with a Validation result naming the rule. The rule files'
 * BR-55 fires only on a BG-3 lacking BT-25, so they would pass a credit note with no BG-3 at all;
 * the request tells, so the refusal is decided here, before the unit and the judge, free like the
 * other refusals. The verdict stays what the rule files give: a finding of ours inside a sealed
 * verdict would claim the sealed files found it. So the result is the written XML's (its SHA-256,
 * format and profile), valid false, that one finding, and no seal, since no rule file ran.
 */
function uncitedCreditNote(generated: GeneratedXml): DomainError {
  return new DomainError(
    422,
    "INVALID_INVOICE",
    `the generated ${generated.standard} credit note breaks BR-55: it names no preceding invoice; send invoice.precedingInvoiceReference with its id (BT-25)`,
    { validationResult: unsealed(generated, true, [BR_55]) },
  );
}
