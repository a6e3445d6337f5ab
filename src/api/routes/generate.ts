import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route";
import { metered, unmetered } from "../metering";
import { ApiError } from "../errors";
import { DOCUMENT_BODY_MAX_BYTES } from "../limits";
import { GenerateRequest, type GenerateRequestInput } from "../../generate/request";
import type { GeneratedXml } from "../../generate/generate";
import type { PdfKind } from "../../generate/pdf-output";
import { resultHeaders, type ValidationResult } from "../../validation/result";
import { sha256Hex } from "../../rulesets/seal";
import { judgedProfileName, recordById } from "../../profiles/lookup";
import { ValidationResultSchema } from "../../validation/result-schema";
import { rulesetChoice } from "../ruleset-choice";
import { findTemplate, storedDefinition, type StoredTemplate } from "../../templates/store";
import type { TemplateDefinitionInput } from "../../pdf/design";
import type { RequestContext } from "../route";

const VERSION_FIELDS = ["schematronVersion", "ciusVersion", "peppolVersion", "romaniaRoCiusVersion", "netherlandsNlciusVersion"] as const;

/** `x-version-block`: the artifact versions that judged the output, plus the Factur-X level; omitted when empty. */
function versionBlock(result: ValidationResult, generated: GeneratedXml): string | undefined {
  const block: Record<string, string> = {};
  for (const field of VERSION_FIELDS) if (result[field]) block[field] = result[field]!;
  if (generated.standard === "zugferd" || generated.standard === "facturx") block.facturxProfile = generated.profile;
  return Object.keys(block).length ? JSON.stringify(block) : undefined;
}

function storedTemplate(ctx: RequestContext, ref: string): StoredTemplate {
  const stored = findTemplate(ctx.deps.store.db, ctx.caller!.org.id, ref);
  if (!stored) throw new ApiError(404, "PDF_TEMPLATE_NOT_FOUND", `no PDF template '${ref}' in this organization`);
  return stored;
}

interface Prepared {
  generated: GeneratedXml;
  pdf?: { kind: PdfKind; template?: "standard"; design?: TemplateDefinitionInput };
}

/**
 * The free steps, in the order their refusals are answered: the stored template (its logo is
 * decoded again), the PDF kind, the XML. All read the caller's input, so they run in a worker.
 */
async function prepare(ctx: RequestContext, body: GenerateRequestInput, stored: StoredTemplate | undefined, signal: AbortSignal): Promise<Prepared> {
  const engine = ctx.deps.workers();
  let design: TemplateDefinitionInput | undefined;
  if (stored) {
    const checked = storedDefinition(stored);
    const problems = checked.ok ? (await engine.designProblems(checked.definition, signal)).map((p) => `${p.path} ${p.message}`) : checked.problems;
    if (problems.length || !checked.ok) throw new ApiError(422, "PDF_TEMPLATE_INVALID", `the stored PDF template ${stored.ref} cannot be used: ${problems.join("; ")}`, { problems });
    design = checked.definition;
  }
  // A stored template wins over `template`.
  const template = design || body.template ? "standard" : undefined;
  const wanted = body.output === "pdf" ? { hasTemplate: template !== undefined } : undefined;
  const { generated, pdfKind } = await engine.generate(body, ctx.caller!.livemode, wanted, signal);
  return { generated, ...(pdfKind && { pdf: { kind: pdfKind, template, design } }) };
}

/** With `verify: false` nothing judged the output: the result says so and carries no seal. */
function unverified(generated: GeneratedXml): ValidationResult & { verified: false } {
  return { valid: false, verified: false, format: generated.syntax, profileDetected: judgedProfileName(recordById(generated.record)), sha256: sha256Hex(generated.bytes), errors: [], warnings: [] };
}

const GenerateEnvelope = Type.Object(
  {
    output: Type.String({ contentEncoding: "base64", description: "the generated file" }),
    sha256: Type.String({ description: "SHA-256 of the generated file" }),
    contentType: Type.String(),
    outputFormat: Type.Union([Type.Literal("xml"), Type.Literal("pdf")]),
    standard: Type.String(),
    profile: Type.String(),
    droppedFields: Type.Array(Type.Object({ bt: Type.Optional(Type.String()), xpath: Type.String() }), {
      description: "request fields the target profile cannot carry, left out of the output (e.g. lines in Factur-X MINIMUM)",
    }),
    validationResult: ValidationResultSchema,
  },
  { title: "GenerateResult" },
);

export const generateRoute = defineRoute<GenerateRequestInput>({
  method: "POST",
  path: "/v1/generate",
  auth: "key",
  body: { kind: "json", schema: GenerateRequest, contentTypes: ["application/json"], maxBytes: DOCUMENT_BODY_MAX_BYTES },
  doc: {
    summary: "Generate an e-invoice from the JSON invoice",
    description:
      "Writes the standard's XML (XRechnung CII by default or UBL with syntax: ubl; ZUGFeRD / Factur-X CII D22B at the requested level; Peppol BIS 3 UBL with the Romanian and Dutch overlays), then validates it under its own profile unless verify is false. A finding of error level answers 422 INVALID_INVOICE with the verdict. The default answer is the raw file with the seal in headers; with `Accept: application/json` it is the envelope. `output: pdf` gives a hybrid PDF/A-3 for zugferd and facturx (the CII embedded as factur-x.xml, or xrechnung.xml; a blank visible page unless a template is named) and a visualization PDF for the other standards (needs `template` or `pdfTemplateId`; the legal artifact stays the XML); `x-pdf-kind` says which. A hybrid is validated whole, container checks included. Test keys get output marked as test mode (an XML comment after the declaration; a SANDBOX / SPECIMEN watermark on every PDF page).",
    tags: ["documents"],
    errors: ["VALIDATION_ERROR", "INVALID_REQUEST", "INVALID_INVOICE", "PROFILE_STANDARD_MISMATCH", "DOCUMENT_TYPE_STANDARD_MISMATCH", "PDF_TEMPLATE_AUTH_REQUIRED", "PDF_TEMPLATE_NOT_FOUND", "PDF_TEMPLATE_INVALID"],
    headers: ["x-pdf-kind", "x-version-block", "x-ruleset-sha256", "x-ruleset-artifacts", "x-syntax", "x-profile-detected", "x-schematron-version", "x-validation"],
    response: { data: GenerateEnvelope },
    metered: true,
  },
  async handle(ctx, { body }) {
    const livemode = ctx.caller.livemode;
    const stored = body.output === "pdf" && body.pdfTemplateId ? storedTemplate(ctx, body.pdfTemplateId) : undefined;
    // Under the deadline like the metered step, but it costs no unit: refusing the request is free.
    const { generated, pdf } = await unmetered(ctx, (signal) => prepare(ctx, body, stored, signal));
    const { output, result } = await metered(ctx, async (signal) => {
      // Drawing a long invoice takes a while: it happens in an engine worker, not on the HTTP thread.
      const file = pdf ? await ctx.deps.workers().renderPdf(generated, pdf.kind, { template: pdf.template, design: pdf.design, livemode, now: ctx.deps.clock() }, signal) : generated.bytes;
      if (body.verify === false) return { output: file, result: unverified(generated) };
      // A hybrid is judged whole (its XML and its container); a visualization's legal artifact is the XML.
      const judged = pdf?.kind === "hybrid" ? file : generated.bytes;
      // Generated output is judged under the organization's default channel.
      const ruleset = rulesetChoice(ctx, null);
      const outcome = await ctx.deps.workers().validate({ bytes: judged, record: generated.record, ruleset }, signal);
      if (outcome.kind === "rejected") throw new Error(`the generated document could not be judged: ${outcome.message}`);
      return { output: file, result: { ...outcome.result, verified: true } };
    });
    if (result.verified && !result.valid) {
      throw new ApiError(422, "INVALID_INVOICE", `the generated ${generated.standard} document breaks ${result.errors.length} rule(s), first ${result.errors[0]?.ruleId}: ${result.errors[0]?.message}`, {
        validationResult: result,
      });
    }
    const headers: Record<string, string> = { ...resultHeaders(result) };
    const block = versionBlock(result, generated);
    if (block) headers["x-version-block"] = block;
    for (const [name, value] of Object.entries(headers)) ctx.headers.set(name, value);
    if (pdf) ctx.headers.set("x-pdf-kind", pdf.kind);
    const contentType = pdf ? "application/pdf" : generated.contentType;
    if (ctx.request.headers.get("accept")?.includes("application/json")) {
      return {
        output: Buffer.from(output).toString("base64"),
        sha256: sha256Hex(output),
        contentType,
        outputFormat: pdf ? "pdf" : "xml",
        standard: generated.standard,
        profile: generated.profile,
        droppedFields: generated.lost,
        validationResult: result,
      };
    }
    return new Response(output as BodyInit, { headers: { "content-type": pdf ? contentType : `${contentType}; charset=utf-8` } });
  },
});
