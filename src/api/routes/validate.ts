import { Type } from "@sinclair/typebox";
import { defineRoute, type BinaryBody } from "../route";
import { metered } from "../metering";
import { badRequest } from "../errors";
import { DOCUMENT_BODY_MAX_BYTES } from "../limits";
import { resultHeaders } from "../../validation/result";
import { ValidationResultSchema } from "../schemas/validation-result";
import type { FormatHint } from "../../syntax/detect";

const ValidateQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Union(["auto", "cii", "ubl", "fatturapa", "facturae", "eslog", "sdi_messaggio"].map((f) => Type.Literal(f)), {
        description: "syntax hint; auto (default) detects from the root element, namespace and customization id",
      }),
    ),
  },
  { additionalProperties: false },
);

export const validateRoute = defineRoute<BinaryBody, { format?: FormatHint }>({
  method: "POST",
  path: "/v1/validate",
  auth: "key",
  body: { kind: "binary", contentTypes: ["application/xml", "text/xml", "application/pdf", "application/octet-stream"], maxBytes: DOCUMENT_BODY_MAX_BYTES },
  query: ValidateQuery,
  doc: {
    summary: "Validate an XML or hybrid PDF invoice",
    description:
      "The raw document is the body. Detection picks the profile; XSD, then the EN 16931 rules, then the CIUS or network rules run as the authority's reference validator runs them. A hybrid PDF is judged through its embedded invoice XML. `valid: false` is a verdict, not an error. The result is sealed: `sha256` of the body and `rulesetSha256` over the artifacts that judged, verifiable against `GET /v1/rulesets`.",
    tags: ["documents"],
    errors: ["VALIDATION_ERROR"],
    headers: ["x-syntax", "x-profile-detected", "x-schematron-version", "x-validation", "x-ruleset-sha256", "x-ruleset-artifacts"],
    response: { data: ValidationResultSchema },
    metered: true,
  },
  async handle(ctx, { body, query }) {
    if (body.bytes.byteLength === 0) throw badRequest("the request body is empty; send the invoice XML or hybrid PDF as the raw body");
    const hint = query.format && query.format !== "auto" ? query.format : undefined;
    const outcome = await metered(ctx, (signal) => ctx.deps.validation().validate({ bytes: body.bytes, hint }, signal));
    if (outcome.kind === "rejected") throw badRequest(outcome.message);
    for (const [name, value] of Object.entries(resultHeaders(outcome.result))) ctx.headers.set(name, value);
    return outcome.result;
  },
});
