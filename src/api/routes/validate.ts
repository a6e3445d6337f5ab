import { Type } from "@sinclair/typebox";
import { defineRoute, type BinaryBody } from "../route";
import { metered } from "../metering";
import { badRequest } from "../errors";
import { DOCUMENT_BODY_MAX_BYTES } from "../limits";
import { resultHeaders, type ValidationResult } from "../../validation/result";
import { ValidationResultSchema } from "../../validation/result-schema";
import type { FormatHint } from "../../syntax/detect";
import { FORMAT_HINTS } from "../../profiles/ids";
import { rulesetChoice } from "../ruleset-choice";
import { LayerResultSchema } from "../../validation/layers/layer";

/** `driftCheckedAt` sits after the seal rows, where the spec's field table has it. */
export function withDriftCheck(result: ValidationResult, checkedAt: string | undefined): ValidationResult {
  if (!checkedAt) return result;
  const { valid, format, profileDetected, sha256, rulesetSha256, rulesetArtifacts, ...rest } = result;
  return { valid, format, ...(profileDetected ? { profileDetected } : {}), sha256, rulesetSha256, rulesetArtifacts, driftCheckedAt: checkedAt, ...rest };
}

const ValidateQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Union(FORMAT_HINTS.map((f) => Type.Literal(f)), {
        description: "syntax hint; auto (default) detects from the root element, namespace and customization id",
      }),
    ),
    layers: Type.Optional(
      Type.Union([Type.Literal("true"), Type.Literal("false")], {
        description: "true adds `layers` to the result: what each validation layer (source, xsd, rules, overlay, advisory, container) did, in the order it ran. Default false; the verdict is the same either way",
      }),
    ),
  },
  { additionalProperties: false },
);

/** The result with what each layer did, when the request asks for it (not part of the spec's result). */
const ValidateResponse = Type.Composite([ValidationResultSchema, Type.Object({ layers: Type.Optional(Type.Array(LayerResultSchema)) })], { title: "ValidationResultWithLayers" });

export const validateRoute = defineRoute<BinaryBody, { format?: FormatHint; layers?: "true" | "false" }>({
  method: "POST",
  path: "/v1/validate",
  auth: "key",
  body: { kind: "binary", contentTypes: ["application/xml", "text/xml", "application/pdf", "application/octet-stream"], maxBytes: DOCUMENT_BODY_MAX_BYTES },
  query: ValidateQuery,
  doc: {
    summary: "Validate an XML or hybrid PDF invoice",
    description:
      "The raw document is the body. Detection picks the profile; XSD, then the EN 16931 rules, then the CIUS or network rules run as the authority's reference validator runs them. A hybrid PDF is judged through its embedded invoice XML. `valid: false` is a verdict, not an error. The result is sealed: `sha256` of the body and `rulesetSha256` over the artifacts that judged, verifiable against `GET /v1/rulesets`. The `Service-Ruleset` header selects the rule versions.",
    tags: ["documents"],
    errors: ["VALIDATION_ERROR"],
    requestHeaders: ["Service-Ruleset"],
    headers: ["Service-Ruleset-Resolved", "x-syntax", "x-profile-detected", "x-schematron-version", "x-validation", "x-ruleset-sha256", "x-ruleset-artifacts"],
    response: { data: ValidateResponse },
    metered: true,
  },
  async handle(ctx, { body, query }) {
    if (body.bytes.byteLength === 0) throw badRequest("the request body is empty; send the invoice XML or hybrid PDF as the raw body");
    const hint = query.format && query.format !== "auto" ? query.format : undefined;
    const ruleset = rulesetChoice(ctx, ctx.request.headers.get("service-ruleset"));
    const outcome = await metered(ctx, (signal) => ctx.deps.workers().validate({ bytes: body.bytes, hint, ruleset }, signal));
    if (!outcome.ok) throw badRequest(outcome.message);
    const result = withDriftCheck(outcome.result, await ctx.deps.drift.checkedAt(outcome.result.rulesetArtifacts ?? [], ctx.deps.clock().getTime()));
    for (const [name, value] of Object.entries(resultHeaders(result))) ctx.headers.set(name, value);
    if (outcome.rulesetResolved) ctx.headers.set("Service-Ruleset-Resolved", outcome.rulesetResolved);
    return query.layers === "true" ? { ...result, layers: outcome.layers } : result;
  },
});
