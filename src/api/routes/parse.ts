import { Type } from "@sinclair/typebox";
import { defineRoute, type BinaryBody } from "../route";
import { metered } from "../metering";
import { badRequest } from "../errors";
import { DOCUMENT_BODY_MAX_BYTES } from "../limits";
import { Invoice } from "../../invoice/schema";
import { EN16931_SYNTAXES, type En16931Syntax } from "../../profiles/ids";

const ParseQuery = Type.Object(
  { format: Type.Optional(Type.Union(["auto" as const, ...EN16931_SYNTAXES].map((f) => Type.Literal(f)), { description: "syntax hint; auto (default) detects it" })) },
  { additionalProperties: false },
);

export const Parsed = Type.Object(
  {
    format: Type.Union(EN16931_SYNTAXES.map((f) => Type.Literal(f))),
    profileDetected: Type.Optional(Type.String()),
    invoice: Invoice,
    warnings: Type.Array(
      Type.Object(
        {
          path: Type.String({ description: "JSON pointer of the field in invoice, e.g. /paymentMeans/bic" }),
          value: Type.Unknown({ description: "the value the document gave there (null when it gave none)" }),
          reason: Type.String({ description: "the generate schema's rule it breaks, named from path" }),
          action: Type.Union([Type.Literal("omitted"), Type.Literal("kept")], {
            description: "omitted: left out of invoice (an optional field, or a line or sub-line, whose whole value is here); kept: a required field no source of its profile fills (the lines and buyer address of Factur-X MINIMUM and BASIC WL), still in invoice and empty, which generate refuses until it is edited",
          }),
        },
        { additionalProperties: false },
      ),
      {
        description:
          "An addition the spec leaves open: each value of the document that invoice does not carry as read because the generate schema refuses it (after IBAN, BIC and VAT ids are compacted and dates lose a time zone); empty when invoice can be generated as it is",
      },
    ),
  },
  { title: "ParseResult" },
);

export const parseRoute = defineRoute<BinaryBody, { format?: "auto" | En16931Syntax }>({
  method: "POST",
  path: "/v1/parse",
  auth: "key",
  body: { kind: "binary", contentTypes: ["application/xml", "text/xml", "application/pdf", "application/octet-stream"], maxBytes: DOCUMENT_BODY_MAX_BYTES },
  query: ParseQuery,
  doc: {
    summary: "Parse a UBL, CII or hybrid PDF invoice into the JSON invoice",
    description:
      "The raw document is the body; a hybrid PDF is read through its embedded XML. The invoice uses the generate field names, so it can be edited and generated again; optional fields absent in the source are omitted, never null. Fields the API invoice has no place for are not returned; a value the generate schema refuses is left out with the optional field or the line that holds it and listed in warnings. A document that leaves empty a term every invoice states (number, issue date, currency, seller name and country, buyer name) is refused with PARSE_FAILED naming each in details.fields. FatturaPA, SDI messages, Facturae and e-SLOG are refused with PARSE_FAILED.",
    tags: ["documents"],
    errors: ["VALIDATION_ERROR", "PARSE_FAILED"],
    headers: ["x-syntax", "x-profile-detected"],
    response: { data: Parsed },
    metered: true,
  },
  async handle(ctx, { body, query }) {
    if (body.bytes.byteLength === 0) throw badRequest("the request body is empty; send the invoice XML or hybrid PDF as the raw body");
    const parsed = await metered(ctx, (signal) => ctx.deps.workers().parse(body.bytes, query.format, signal));
    ctx.headers.set("x-syntax", parsed.format);
    if (parsed.profileDetected) ctx.headers.set("x-profile-detected", parsed.profileDetected);
    return parsed;
  },
});
