import { Type } from "@sinclair/typebox";
import { defineRoute, type BinaryBody } from "../route";
import { metered } from "../metering";
import { badRequest } from "../errors";
import { DOCUMENT_BODY_MAX_BYTES } from "../limits";
import { resultHeaders } from "../../validation/result";
import { ValidationResultSchema } from "../../validation/result-schema";
import { rulesetChoice } from "../ruleset-choice";
import { withDriftCheck } from "./validate";
import { Parsed } from "./parse";

const Received = Type.Object({ validationResult: ValidationResultSchema, parse: Type.Optional(Parsed) }, { title: "ReceiveResult" });

/**
 * An inbound document checked where it lands: the verdict validate gives and, where parse maps the
 * document, the invoice parse gives, from one engine job. It needs no network and no storage, so it
 * answers whether or not transmission is enabled on the deployment.
 */
export const receiveRoute = defineRoute<BinaryBody>({
  method: "POST",
  path: "/v1/receive",
  auth: "key",
  body: { kind: "binary", contentTypes: ["application/xml", "text/xml", "application/pdf", "application/octet-stream"], maxBytes: DOCUMENT_BODY_MAX_BYTES },
  doc: {
    summary: "Receive an inbound invoice: its verdict and, where parse maps it, its invoice (preview)",
    description:
      "Preview. The raw document is the body, as on validate. The answer holds `validationResult`, the verdict validate gives (under the organization's ruleset channel), and `parse`, what parse answers, when the document is a UBL, CII or hybrid PDF invoice that parse maps; for any other (FatturaPA, Facturae, e-SLOG, SDI messages, a document parse refuses) `parse` is absent and the verdict still comes back. `valid: false` is a finding, not an error. Nothing is sent or stored. One unit, as validate.",
    tags: ["documents"],
    errors: ["VALIDATION_ERROR"],
    headers: ["x-syntax", "x-profile-detected", "x-schematron-version", "x-validation", "x-ruleset-sha256", "x-ruleset-artifacts"],
    response: { data: Received },
    metered: true,
  },
  async handle(ctx, { body }) {
    if (body.bytes.byteLength === 0) throw badRequest("the request body is empty; send the invoice XML or hybrid PDF as the raw body");
    const ruleset = rulesetChoice(ctx, null);
    const outcome = await metered(ctx, (signal) => ctx.deps.workers().receive({ bytes: body.bytes, ruleset }, signal));
    if (!outcome.ok) throw badRequest(outcome.message);
    const validationResult = withDriftCheck(outcome.result, await ctx.deps.drift.checkedAt(outcome.result.rulesetArtifacts ?? [], ctx.deps.clock().getTime()));
    for (const [name, value] of Object.entries(resultHeaders(validationResult))) ctx.headers.set(name, value);
    return { validationResult, ...(outcome.parse && { parse: outcome.parse }) };
  },
});
