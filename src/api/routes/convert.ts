import { Type } from "@sinclair/typebox";
import { defineRoute, type BinaryBody } from "../route";
import { metered } from "../metering";
import { badRequest } from "../errors";
import { DOCUMENT_BODY_MAX_BYTES } from "../limits";
import { lostElementsHeader, versionBlock } from "../output-headers";
import { rulesetChoice } from "../ruleset-choice";
import { CONVERT_FORMATS, FACTURX_REQUEST_PROFILES } from "../../profiles/ids";
import { resultHeaders } from "../../validation/result";
import type { ConvertQuery as ConvertQueryInput } from "../../convert/convert";

const literals = <T extends string>(values: readonly T[], description: string) => Type.Union(values.map((v) => Type.Literal(v)), { description });

const ConvertQuery = Type.Object(
  {
    sourceFormat: Type.Optional(
      literals(["auto", ...CONVERT_FORMATS], "auto (default) inspects the root and customization id; plain CII or UBL resolves to cii or ubl, ZUGFeRD and Factur-X to facturx (pass zugferd to name it)"),
    ),
    targetFormat: literals(CONVERT_FORMATS, "cii and ubl: the plain EN 16931 core in that syntax (XRechnung keeps its CIUS across syntaxes); xrechnung: in the source's syntax; peppol-bis: UBL; zugferd, facturx: CII D22B at targetProfile"),
    targetProfile: Type.Optional(literals(FACTURX_REQUEST_PROFILES, "for zugferd and facturx targets; en16931 by default; ignored otherwise")),
    dropFranceCtcOverlay: Type.Optional(literals(["true", "false"], "true accepts the loss of a France CTC business process code (BT-23) on a UBL target; default false")),
  },
  { additionalProperties: false },
);

type Query = { sourceFormat?: ConvertQueryInput["sourceFormat"]; targetFormat: ConvertQueryInput["targetFormat"]; targetProfile?: ConvertQueryInput["targetProfile"]; dropFranceCtcOverlay?: "true" | "false" };

export const convertRoute = defineRoute<BinaryBody, Query>({
  method: "POST",
  path: "/v1/convert",
  auth: "key",
  body: { kind: "binary", contentTypes: ["application/xml", "text/xml", "application/pdf", "application/octet-stream"], maxBytes: DOCUMENT_BODY_MAX_BYTES },
  query: ConvertQuery,
  doc: {
    summary: "Convert an invoice between the formats of the EN 16931 family",
    description:
      "The raw document is the body. It is read into the EN 16931 model by its syntax binding, written by the target's, read back and compared, then validated under the target's rules like POST /v1/validate (x-version-block names what judged). Every element of the source the target does not carry is a LostElement: the spec's acceptable losses (a Peppol source's endpoints on plain UBL, a hybrid PDF's envelope on an XML target, a France CTC process code on a UBL target with dropFranceCtcOverlay=true) are answered in x-lost-elements with the 200; any other fails closed with 422 CONVERSION_LOSSY_FAILCLOSED (details.unmappablePaths) and no body. A target the converted document does not satisfy answers 422 INVALID_INVOICE with details.validationResult. Test keys get output marked as test mode.",
    tags: ["documents"],
    errors: ["VALIDATION_ERROR", "CONVERSION_UNSUPPORTED_PAIR", "CONVERSION_LOSSY_FAILCLOSED", "INVALID_INVOICE", "CONVERSION_TOOL_UNAVAILABLE", "CONVERSION_TOOL_ERROR"],
    requestHeaders: ["Service-Ruleset"],
    headers: ["x-source-format", "x-target-format", "x-profile-detected", "x-lost-elements-count", "x-lost-elements", "x-conversion-tools", "x-output-envelope", "x-version-block", "x-ruleset-sha256", "x-ruleset-artifacts", "x-schematron-version", "x-validation"],
    response: { mediaTypes: ["application/xml", "application/pdf"], description: "the converted document, the target's seal in headers" },
    metered: true,
  },
  async handle(ctx, { body, query }) {
    if (body.bytes.byteLength === 0) throw badRequest("the request body is empty; send the invoice XML or hybrid PDF as the raw body");
    const order = {
      bytes: body.bytes,
      query: { ...query, dropFranceCtcOverlay: query.dropFranceCtcOverlay === "true" },
      livemode: ctx.caller.livemode,
      judge: { ruleset: rulesetChoice(ctx, ctx.request.headers.get("service-ruleset")) },
      now: ctx.deps.clock(),
    };
    const converted = await metered(ctx, (signal) => ctx.deps.workers().convert(order, signal));
    const { result } = converted;
    const { "x-syntax": _, "x-profile-detected": __, ...seal } = resultHeaders(result);
    const headers: Record<string, string> = {
      ...seal,
      "x-source-format": converted.sourceFormat,
      "x-target-format": converted.targetFormat,
      "x-profile-detected": converted.profileDetected ?? "",
      "x-lost-elements-count": String(converted.lost.length),
      "x-lost-elements": lostElementsHeader(converted.lost),
      "x-conversion-tools": converted.tools.join(","),
      "x-output-envelope": converted.contentType === "application/pdf" ? "pdf" : "xml",
    };
    const block = versionBlock(result, converted.facturxProfile);
    if (block) headers["x-version-block"] = block;
    for (const [name, value] of Object.entries(headers)) ctx.headers.set(name, value);
    const contentType = converted.contentType === "application/pdf" ? converted.contentType : `${converted.contentType}; charset=utf-8`;
    return new Response(converted.file as BodyInit, { headers: { "content-type": contentType } });
  },
});
