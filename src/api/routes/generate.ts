import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route";
import { metered } from "../metering";
import { ApiError } from "../errors";
import { DOCUMENT_BODY_MAX_BYTES } from "../limits";
import { carryDomainErrors } from "../domain-errors";
import { GenerateRequest, type GenerateRequestInput } from "../../generate/request";
import { generateXml, type GeneratedXml } from "../../generate/generate";
import { resultHeaders, type ValidationResult } from "../../validation/result";
import { sha256Hex } from "../../rulesets/seal";
import { ValidationResultSchema } from "../schemas/validation-result";
import { rulesetChoice } from "../ruleset-choice";

const VERSION_FIELDS = ["schematronVersion", "ciusVersion", "peppolVersion", "romaniaRoCiusVersion", "netherlandsNlciusVersion"] as const;

/** `x-version-block`: the artifact versions that judged the output, plus the Factur-X level; omitted when empty. */
function versionBlock(result: ValidationResult, generated: GeneratedXml): string | undefined {
  const block: Record<string, string> = {};
  for (const field of VERSION_FIELDS) if (result[field]) block[field] = result[field]!;
  if (generated.standard === "zugferd" || generated.standard === "facturx") block.facturxProfile = generated.profile;
  return Object.keys(block).length ? JSON.stringify(block) : undefined;
}

/** With `verify: false` nothing judged the output: the result says so and carries no seal. */
function unverified(generated: GeneratedXml): ValidationResult & { verified: false } {
  return { valid: false, verified: false, format: generated.syntax, profileDetected: generated.pipelineProfile, sha256: sha256Hex(generated.bytes), errors: [], warnings: [] };
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
      "Writes the standard's XML (XRechnung CII by default or UBL with syntax: ubl; ZUGFeRD / Factur-X CII D22B at the requested level; Peppol BIS 3 UBL with the Romanian and Dutch overlays), then validates it under its own profile unless verify is false. A finding of error level answers 422 INVALID_INVOICE with the verdict. The default answer is the raw file with the seal in headers; with `Accept: application/json` it is the envelope. Test keys get output marked as test mode (an XML comment after the declaration). PDF output arrives with the PDF feature; today output pdf is refused with a 422.",
    tags: ["documents"],
    errors: ["VALIDATION_ERROR", "INVALID_REQUEST", "INVALID_INVOICE", "PROFILE_STANDARD_MISMATCH", "DOCUMENT_TYPE_STANDARD_MISMATCH"],
    headers: ["x-version-block", "x-ruleset-sha256", "x-ruleset-artifacts", "x-syntax", "x-profile-detected", "x-schematron-version", "x-validation"],
    response: { data: GenerateEnvelope },
    metered: true,
  },
  async handle(ctx, { body }) {
    if (body.output === "pdf") {
      throw new ApiError(422, "VALIDATION_ERROR", "PDF output is not available in this build yet; request output xml", { output: "pdf" });
    }
    const livemode = ctx.caller!.livemode;
    const generated = await carryDomainErrors(() => generateXml(body, { livemode }));
    const result = await metered(ctx, async (signal) => {
      if (body.verify === false) return unverified(generated);
      // Generated output is judged under the organization's default channel.
      const ruleset = rulesetChoice(ctx, null);
      const outcome = await ctx.deps.validation().validate({ bytes: generated.bytes, profile: generated.pipelineProfile, ruleset }, signal);
      if (outcome.kind === "rejected") throw new Error(`the generated document could not be judged: ${outcome.message}`);
      return { ...outcome.result, verified: true };
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
    if (ctx.request.headers.get("accept")?.includes("application/json")) {
      return {
        output: Buffer.from(generated.bytes).toString("base64"),
        sha256: sha256Hex(generated.bytes),
        contentType: generated.contentType,
        outputFormat: "xml",
        standard: generated.standard,
        profile: generated.profile,
        droppedFields: generated.lost,
        validationResult: result,
      };
    }
    return new Response(generated.bytes as BodyInit, { headers: { "content-type": `${generated.contentType}; charset=utf-8` } });
  },
});
