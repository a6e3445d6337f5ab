import { Type, type Static } from "@sinclair/typebox";
import { defineRoute } from "../route";
import { meteredFromSpend } from "../metering";
import { ApiError } from "../errors";
import { DOCUMENT_BODY_MAX_BYTES } from "../limits";
import { GenerateRequest, type GenerateRequestInput } from "../../generate/request";
import type { GeneratedInvoice, InvoiceOrder } from "../../generate/generate-invoice";
import { GENERATED_SYNTAXES, REQUEST_PROFILES, STANDARDS } from "../../profiles/ids";
import { resultHeaders } from "../../validation/result";
import { sha256Hex } from "../../rulesets/seal";
import { ValidationResultSchema } from "../../validation/result-schema";
import { rulesetChoice } from "../ruleset-choice";
import { lostElementsHeader, versionBlock } from "../output-headers";
import { findTemplate, storedDefinition, type StoredTemplate } from "../../templates/store";
import type { RequestContext } from "../route";

async function storedTemplate(ctx: RequestContext<"key">, ref: string): Promise<StoredTemplate> {
  const stored = await findTemplate(ctx.deps.storage, ctx.caller.org.id, ref);
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

const LostFieldSchema = Type.Object(
  {
    bt: Type.Optional(Type.String({ description: "business term of the dropped element (e.g. BT-27, BG-25), when it names one" })),
    xpath: Type.String({ description: "where it would have been written (in the output), or the request path it came from (sub-lines)" }),
  },
  { additionalProperties: false },
);

const GenerateEnvelope = Type.Object(
  {
    invoiceId: Type.String({ description: "the invoice number (BT-1) as sent" }),
    format: Type.Union(GENERATED_SYNTAXES.map((s) => Type.Literal(s)), { description: "the syntax written" }),
    standard: Type.Union(STANDARDS.map((s) => Type.Literal(s))),
    profile: Type.Union(REQUEST_PROFILES.map((p) => Type.Literal(p)), { description: "the profile written, the standard's default when none was sent" }),
    validationResult: ValidationResultSchema,
    output: Type.String({ contentEncoding: "base64", description: "the generated file" }),
    outputFormat: Type.Union([Type.Literal("xml"), Type.Literal("pdf")]),
    contentType: Type.Union([Type.Literal("application/xml"), Type.Literal("application/pdf")]),
    sha256: Type.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256 of the generated file" }),
    pdfKind: Type.Optional(Type.Union([Type.Literal("hybrid"), Type.Literal("visualization")], { description: "with outputFormat pdf only, as x-pdf-kind" })),
    droppedFields: Type.Array(LostFieldSchema, {
      description: "request fields the target profile cannot carry, left out of the output (e.g. lines in Factur-X MINIMUM, sub-lines outside XRechnung UBL and Factur-X EXTENDED); x-lost-elements on a raw answer",
    }),
  },
  { title: "GenerateResult", additionalProperties: false },
);

/** The file with the verdict in headers, or with `Accept: application/json` the envelope. */
function answer(ctx: RequestContext<"key">, invoiceId: string, { file, generated, pdfKind, result }: GeneratedInvoice) {
  const headers: Record<string, string> = {
    ...resultHeaders(result),
    "x-lost-elements-count": String(generated.lost.length),
    "x-lost-elements": lostElementsHeader(generated.lost),
  };
  const block = versionBlock(result, generated.standard === "zugferd" || generated.standard === "facturx" ? generated.profile : undefined);
  if (block) headers["x-version-block"] = block;
  if (pdfKind) headers["x-pdf-kind"] = pdfKind;
  for (const [name, value] of Object.entries(headers)) ctx.headers.set(name, value);
  const outputFormat = pdfKind ? "pdf" : "xml";
  const contentType = pdfKind ? "application/pdf" : generated.contentType;
  if (ctx.request.headers.get("accept")?.includes("application/json")) {
    const data: Static<typeof GenerateEnvelope> = {
      invoiceId,
      format: generated.syntax,
      standard: generated.standard,
      profile: generated.profile,
      validationResult: result,
      output: Buffer.from(file).toString("base64"),
      outputFormat,
      contentType,
      sha256: sha256Hex(file),
      ...(pdfKind && { pdfKind }),
      droppedFields: generated.lost,
    };
    return data;
  }
  // The body's own envelope, told without sniffing it; a JSON answer's is its content type.
  ctx.headers.set("x-output-envelope", outputFormat);
  return new Response(file as BodyInit, { headers: { "content-type": pdfKind ? contentType : `${contentType}; charset=utf-8` } });
}

export const generateRoute = defineRoute<GenerateRequestInput>({
  method: "POST",
  path: "/v1/generate",
  auth: "key",
  body: { kind: "json", schema: GenerateRequest, contentTypes: ["application/json"], maxBytes: DOCUMENT_BODY_MAX_BYTES },
  doc: {
    summary: "Generate an e-invoice from the JSON invoice",
    description:
      "Writes the standard's XML (XRechnung CII by default or UBL with syntax: ubl; ZUGFeRD / Factur-X CII D22B at the requested level; Peppol BIS 3 UBL with the Romanian and Dutch overlays), then validates it under its own profile unless verify is false. A finding of error level answers 422 INVALID_INVOICE with the verdict. The default answer is the raw file with the seal in headers; with `Accept: application/json` it is the envelope. `output: pdf` gives a hybrid PDF/A-3 for zugferd and facturx (the CII embedded as factur-x.xml, or xrechnung.xml; a blank visible page unless a template is named) and a visualization PDF for the other standards (needs `template` or `pdfTemplateId`; the legal artifact stays the XML); `x-pdf-kind` says which (and the envelope's `pdfKind`). A hybrid is validated whole, container checks included. Test keys get output marked as test mode (an XML comment after the declaration; a SANDBOX / SPECIMEN watermark on every PDF page). A raw answer carries `x-output-envelope`: `xml` or `pdf`, the envelope of its body, matching its content type. Every answer carries `x-lost-elements-count`, how many request fields the target profile could not carry (exact), and `x-lost-elements`, those fields as the envelope's `droppedFields` lists them (`{bt?, xpath}`, compact JSON, `[]` when none), capped at 6 KB: above the cap it holds the first entries that fit and ends with `{truncated: true, more: N}`.",
    tags: ["documents"],
    errors: ["VALIDATION_ERROR", "INVALID_REQUEST", "INVALID_INVOICE", "PROFILE_STANDARD_MISMATCH", "DOCUMENT_TYPE_STANDARD_MISMATCH", "PDF_TEMPLATE_AUTH_REQUIRED", "PDF_TEMPLATE_NOT_FOUND", "PDF_TEMPLATE_INVALID"],
    headers: ["x-output-envelope", "x-lost-elements", "x-lost-elements-count", "x-pdf-kind", "x-version-block", "x-ruleset-sha256", "x-ruleset-artifacts", "x-syntax", "x-profile-detected", "x-schematron-version", "x-validation"],
    response: { data: GenerateEnvelope, raw: { mediaTypes: ["application/xml", "application/pdf"], description: "the generated file, the seal in headers" } },
    metered: true,
  },
  async handle(ctx, { body }) {
    const stored = body.output === "pdf" && body.pdfTemplateId ? await storedTemplate(ctx, body.pdfTemplateId) : undefined;
    // One job in a worker: a refused request costs nothing, a generated document its unit.
    const made = await meteredFromSpend(ctx, (signal, spend) => ctx.deps.workers().generate(orderOf(ctx, body, stored), spend, signal));
    if (made.result.verified && !made.result.valid) throw invalidInvoice(made);
    return answer(ctx, body.invoice.number, made);
  },
});
