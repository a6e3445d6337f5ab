// The POST /v1/generate request body. The invoice is the shared API `Invoice` schema; this adds the
// selectors. Decisions where the interface specification is silent are stated in the descriptions,
// which is where the OpenAPI document (and so the caller) reads them.

import { Type, type Static, type TLiteral, type TUnion } from "@sinclair/typebox";
import { Invoice } from "../invoice/schema.ts";
import { EN16931_SYNTAXES, FACTURX_REQUEST_PROFILES, REQUEST_PROFILES, STANDARDS } from "../profiles/ids.ts";

/** A union of string literals: Ajv reports one `const` per branch plus `anyOf`, as the spec's errors expect. */
const literals = <T extends string>(values: readonly T[], description: string): TUnion<TLiteral<T>[]> =>
  Type.Union(values.map((v) => Type.Literal(v)), { description });

export const GenerateRequest = Type.Object(
  {
    standard: literals(STANDARDS, "target standard"),
    profile: Type.Optional(
      literals(
        REQUEST_PROFILES,
        "profile of the standard (default per standard: xrechnung -> xrechnung, zugferd/facturx -> en16931, peppol-bis -> peppol). " +
          "A profile the standard does not accept is a 422 PROFILE_STANDARD_MISMATCH with details.allowedProfiles",
      ),
    ),
    facturxProfile: Type.Optional(
      literals(
        FACTURX_REQUEST_PROFILES,
        "alias of `profile` for zugferd and facturx: either may be sent; both sent with different values is a 422 PROFILE_STANDARD_MISMATCH naming both. " +
          "Sent with any other standard it is a 422 PROFILE_STANDARD_MISMATCH",
      ),
    ),
    syntax: Type.Optional(
      literals(
        EN16931_SYNTAXES,
        "XML syntax, only meaningful for xrechnung: cii (default) or ubl. Other standards have one syntax; a different value there is a 422 PROFILE_STANDARD_MISMATCH",
      ),
    ),
    output: Type.Union([Type.Literal("xml"), Type.Literal("pdf")], { description: "xml, or pdf (hybrid PDF/A-3 for zugferd and facturx, a visualization otherwise)" }),
    invoice: Invoice,
    verify: Type.Optional(Type.Boolean({ default: true, description: "validate the output before answering (default true)" })),
    template: Type.Optional(Type.Literal("standard", { description: "built-in PDF layout" })),
    pdfTemplateId: Type.Optional(
      Type.String({
        pattern: "^[0-9A-Za-z]{3}-[0-9A-Za-z]{3}$",
        description: "short ref of a stored custom PDF template (three letters or digits, a hyphen, three more, e.g. K7Q-2MX; not a UUID); takes precedence over template",
      }),
    ),
  },
  { additionalProperties: false, description: "generate request" },
);

export type GenerateRequestInput = Static<typeof GenerateRequest>;
