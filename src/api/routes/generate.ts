import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route";
import { meteredFromSpend } from "../metering";
import { ApiError } from "../errors";
import { DOCUMENT_BODY_MAX_BYTES } from "../limits";
import { GenerateRequest, type GenerateRequestInput } from "../../generate/request";
import type { GeneratedInvoice, InvoiceOrder } from "../../generate/generate-invoice";
import { resultHeaders, type ValidationResult } from "../../validation/result";
import { sha256Hex } from "../../rulesets/seal";
import { ValidationResultSchema } from "../../validation/result-schema";
import { rulesetChoice } from "../ruleset-choice";
import { findTemplate, storedDefinition, type StoredTemplate } from "../../templates/store";
import type { RequestContext } from "../route";

const VERSION_FIELDS = ["schematronVersion", "ciusVersion", "peppolVersion", "romaniaRoCiusVersion", "netherlandsNlciusVersion"] as const;

/** `x-version-block`: the artifact versions that judged the output, plus the Factur-X level; omitted when empty. */
function versionBlock(result: ValidationResult, generated: GeneratedInvoice["generated"]): string | undefined {
  const block: Record<string, string> = {};
  for (const field of VERSION_FIELDS) if (result[field]) block[field] = result[field]!;
  if (generated.standard === "zugferd" || generated.standard === "facturx") block.facturxProfile = generated.profile;
  return Object.keys(block).length ? JSON.stringify(block) : undefined;
}

function storedTemplate(ctx: RequestContext<"key">, ref: string): StoredTemplate {
  const stored = findTemplate(ctx.deps.store.db, ctx.caller.org.id, ref);
  if (!stored) throw new ApiError(404, "PDF_TEMPLATE_NOT_FOUND", `no PDF template '${ref}' in this organization`);
  return stored;
}

/** The request as the worker takes it: the body, the caller's mode, the stored template as read, the rules that judge. */
function orderOf(ctx: RequestContext<"key">, body: GenerateRequestInput, stored: StoredTemplate | undefined): InvoiceOrder {
  return {
    request: body,
    livemode: ctx.caller.livemode,
    ...(body.output === "pdf" && { pdf: { template: body.template, stored: stored && { ref: stored.ref, checked: storedDefinition(stored) }, now: ctx.deps.clock() } }),
    // Generated output is judged under the organization's default channel.
    ...(body.verify !== false && { judge: { ruleset: rulesetChoice(ctx, null) } }),
  };
}

function invalidInvoice({ generated, result }: GeneratedInvoice): ApiError {
  const first = result.errors[0];
  return new ApiError(422, "INVALID_INVOICE", `the generated ${generated.standard} document breaks ${result.errors.length} rule(s), first ${first?.ruleId}: ${first?.message}`, {
    validationResult: result,
  });
}

/** The file with the verdict in headers, or with `Accept: application/json` the envelope. */
function answer(ctx: RequestContext<"key">, { file, generated, pdfKind, result }: GeneratedInvoice) {
  const headers: Record<string, string> = { ...resultHeaders(result) };
  const block = versionBlock(result, generated);
  if (block) headers["x-version-block"] = block;
  for (const [name, value] of Object.entries(headers)) ctx.headers.set(name, value);
  if (pdfKind) ctx.headers.set("x-pdf-kind", pdfKind);
  const contentType = pdfKind ? "application/pdf" : generated.contentType;
  if (ctx.request.headers.get("accept")?.includes("application/json")) {
    return {
      output: Buffer.from(file).toString("base64"),
      sha256: sha256Hex(file),
      contentType,
      outputFormat: pdfKind ? "pdf" : "xml",
      standard: generated.standard,
      profile: generated.profile,
      droppedFields: generated.lost,
      validationResult: result,
    };
  }
  return new Response(file as BodyInit, { headers: { "content-type": pdfKind ? contentType : `${contentType}; charset=utf-8` } });
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
    const stored = body.output === "pdf" && body.pdfTemplateId ? storedTemplate(ctx, body.pdfTemplateId) : undefined;
    // One job in a worker: a refused request costs nothing, a generated document its unit.
    const made = await meteredFromSpend(ctx, (signal, spend) => ctx.deps.workers().generate(orderOf(ctx, body, stored), spend, signal));
    if (made.result.verified && !made.result.valid) throw invalidInvoice(made);
    return answer(ctx, made);
  },
});
