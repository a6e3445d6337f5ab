// What a PDF layout takes from an organization: the design its stored templates hold (src/templates
// keeps them). The schema is the API's too, so the OpenAPI document shows what the renderer draws.

import { Type, type Static } from "@sinclair/typebox";

/** The languages the layout has labels for (labels.ts keys its tables by these). */
export const TEMPLATE_LANGUAGES = ["en", "de", "fr", "it", "es", "nl", "ro", "sl"] as const;
export type TemplateLanguage = (typeof TEMPLATE_LANGUAGES)[number];

/**
 * What an organization may change about the built-in layout. Everything is optional; an empty object
 * is the standard template.
 */
export const TemplateDefinition = Type.Object(
  {
    logo: Type.Optional(
      Type.Object(
        {
          mediaType: Type.Union([Type.Literal("image/png"), Type.Literal("image/jpeg")]),
          data: Type.String({ contentEncoding: "base64", maxLength: 400_000, description: "the image, base64 (at most about 300 KB); PNG without alpha channel keeps the PDF/A file free of transparency" }),
          widthMm: Type.Optional(Type.Number({ minimum: 10, maximum: 80, description: "printed width; default 40" })),
        },
        { additionalProperties: false },
      ),
    ),
    accentColor: Type.Optional(Type.String({ pattern: "^#[0-9A-Fa-f]{6}$", description: "headings and rules, e.g. #1F4E79" })),
    footerText: Type.Optional(Type.String({ maxLength: 500, description: "printed at the foot of every page" })),
    language: Type.Optional(
      Type.Union(["auto" as const, ...TEMPLATE_LANGUAGES].map((l) => Type.Literal(l)), { description: "labels; auto (default) follows the seller's country" }),
    ),
    show: Type.Optional(
      Type.Object(
        {
          notes: Type.Optional(Type.Boolean({ description: "invoice notes (default true)" })),
          paymentDetails: Type.Optional(Type.Boolean({ description: "payment means and terms (default true)" })),
          itemIds: Type.Optional(Type.Boolean({ description: "seller's item ids in the lines table (default true)" })),
          delivery: Type.Optional(Type.Boolean({ description: "delivery date and address (default true)" })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, title: "PdfTemplateDefinition" },
);

export type TemplateDefinitionInput = Static<typeof TemplateDefinition>;
