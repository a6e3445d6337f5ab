import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route";
import { buildCatalogue } from "../../rulesets/catalogue";
import { ArtifactRowSchema } from "../../validation/result-schema";
import { today } from "../../clock";

const nullableString = Type.Union([Type.String(), Type.Null()]);

const Catalogue = Type.Object(
  {
    rulesets: Type.Array(
      Type.Object({
        format: Type.String(),
        label: Type.String(),
        standard: Type.String(),
        authority: Type.String(),
        region: Type.String(),
        specVersion: Type.String({ description: "format specification the documents declare" }),
        rulesetVersion: Type.String({ description: "pinned artifact release: the audit anchor" }),
        rulesetArtefact: Type.String({ description: "provenance label" }),
        versionKey: Type.String({ description: "joins to artifacts[].key" }),
        verificationTier: Type.Union([Type.Literal("conformance-verified"), Type.Literal("builder-round-trip"), Type.Literal("xsd-structural"), Type.Null()]),
        rulesProvenance: Type.String(),
        verificationBadge: Type.String(),
        releaseDate: nullableString,
        repo: nullableString,
        tag: nullableString,
        retained: Type.Array(
          Type.Object({
            version: Type.String(),
            releaseDate: nullableString,
            servingFrom: Type.String(),
            retainedUntil: nullableString,
            supersededMandatoryOn: nullableString,
          }),
        ),
      }),
    ),
    channels: Type.Array(Type.Object({ id: Type.String(), label: Type.String(), description: Type.String() })),
    scheduledChanges: Type.Array(
      Type.Object({
        versionKey: Type.String(),
        formats: Type.Array(Type.String()),
        capabilities: Type.Array(Type.String()),
        from: Type.String(),
        to: Type.String(),
        effectiveOn: Type.String(),
        noticePublishedOn: nullableString,
        retiredOn: nullableString,
      }),
    ),
    artifacts: Type.Array(ArtifactRowSchema, { description: "every {key, version, fileSha256} that can appear in a seal" }),
  },
  { title: "RulesetCatalogue" },
);

/** The catalogue changes only with the date; one rendering per day (and version table) serves every caller. */
const rendered = new WeakMap<object, { day: string; body: string }>();

export const rulesetsRoute = defineRoute({
  method: "GET",
  path: "/v1/rulesets",
  auth: "none",
  doc: {
    summary: "Catalogue of pinned rulesets and artifact hashes",
    description:
      "Public and keyless, limited per client address. To verify a validation result: find every row of its rulesetArtifacts in artifacts[] (key, version and fileSha256 together), then recompute rulesetSha256 as the SHA-256 of the sorted lines `<key>@<version>=<fileSha256>` joined with newlines.",
    tags: ["rulesets"],
    errors: [],
    response: { data: Catalogue },
  },
  handle(ctx) {
    const day = today(ctx.deps.clock);
    let cached = rendered.get(ctx.deps.lifecycle);
    if (cached?.day !== day) rendered.set(ctx.deps.lifecycle, (cached = { day, body: JSON.stringify({ success: true, data: buildCatalogue(ctx.deps.lifecycle, day) }) }));
    ctx.headers.set("cache-control", "public, max-age=300");
    return new Response(cached.body, { headers: { "content-type": "application/json; charset=utf-8" } });
  },
});
