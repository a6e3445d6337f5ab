// The spec's Validation result as one TypeBox schema: the API documents it in OpenAPI and result.ts
// derives its types from it, so what the domain builds and what the document promises cannot differ.

import { Type } from "@sinclair/typebox";
import { FORMATS } from "../profiles/ids";
import { FINDINGS_PER_RULE, FINDINGS_TEXT, FINDINGS_TOTAL, FINDINGS_TRUNCATED } from "./finding-caps";

export const ArtifactRowSchema = Type.Object({
  key: Type.String(),
  version: Type.String(),
  fileSha256: Type.String({ pattern: "^[0-9a-f]{64}$" }),
});

/** A result's row also names the engine that judged the file; the seal covers only key, version and hash. */
const JudgedArtifactRowSchema = Type.Object({
  ...ArtifactRowSchema.properties,
  engine: Type.Optional(
    Type.Union([Type.Literal("libxml2-wasm"), Type.Literal("native"), Type.Literal("saxonjs")], {
      description: "what ran this file: libxml2 (schemas), the native rule engine, or SaxonJS (rule files it does not support, or VALIDATION_ENGINE=saxonjs); not part of rulesetSha256",
    }),
  ),
});

export const ValidationFindingSchema = Type.Object({
  ruleId: Type.String({
    description: `official rule id (BR-01, BR-DE-15, PEPPOL-EN16931-R001 …), XSD for schema findings, or a service id (UNSUPPORTED_FORMAT, XML_MALFORMED, XML_REFUSED, RULE_FILE_STOPPED, ${FINDINGS_TRUNCATED}, advisories)`,
  }),
  severity: Type.Union([Type.Literal("fatal"), Type.Literal("error"), Type.Literal("warning"), Type.Literal("info")]),
  location: Type.Optional(Type.String({ description: "XPath of the node the rule fired on" })),
  message: Type.String(),
});

const optionalString = (description: string) => Type.Optional(Type.String({ description }));

export const ValidationResultSchema = Type.Object(
  {
    valid: Type.Boolean({ description: "true when no fatal or error findings" }),
    format: Type.Union(FORMATS.map((f) => Type.Literal(f))),
    profileDetected: optionalString("e.g. xrechnung, peppol, romania-ro-cius, netherlands-nlcius, en16931, facturx:basic"),
    sha256: Type.String({ description: "SHA-256 of the exact request body" }),
    rulesetSha256: optionalString("SHA-256 over the sorted lines <key>@<version>=<fileSha256> of rulesetArtifacts"),
    rulesetArtifacts: Type.Optional(Type.Array(JudgedArtifactRowSchema)),
    driftCheckedAt: optionalString("ISO 8601 UTC; only when every pinned file that judged matched its upstream on its newest drift check: the oldest of those checks"),
    rulesetChannel: Type.Optional(Type.Union([Type.Literal("latest"), Type.Literal("previous")], { description: "present when a channel was selected by header, or the organization default is previous" })),
    rulesetFellBack: Type.Optional(Type.Boolean({ description: "previous was asked but an artifact with an older release had none reachable (or nothing retained served); only with rulesetChannel" })),
    rulesetSunsetsOn: optionalString("YYYY-MM-DD the earliest retained version that ran stops being served"),
    schematronVersion: optionalString("version of the artifact carrying the EN 16931 rules that ran"),
    ciusVersion: optionalString("XRechnung Schematron version"),
    peppolVersion: optionalString("Peppol BIS rules version"),
    romaniaRoCiusVersion: optionalString("CIUS-RO rules version"),
    netherlandsNlciusVersion: optionalString("NLCIUS rules version"),
    italyFatturapaXsdBundle: optionalString("pinned schema as key@version"),
    italyFatturapaRuntimeVersion: optionalString("schema engine that judged"),
    italySdiMessaggiXsdBundle: optionalString("pinned schema as key@version"),
    italySdiMessaggiXsdVersion: optionalString("schema engine that judged"),
    spainFacturaeXsdBundle: optionalString("pinned schema as key@version"),
    spainFacturaeRuntimeVersion: optionalString("schema engine that judged"),
    sloveniaEslogXsdBundle: optionalString("pinned schema as key@version"),
    sloveniaEslogRuntimeVersion: optionalString("schema engine that judged"),
    franceCtcBlockingRuleIds: Type.Optional(Type.Array(Type.String(), { description: "French CTC rules that fired; they block transmission whatever their severity" })),
    verified: Type.Optional(Type.Boolean()),
    errors: Type.Array(ValidationFindingSchema, { maxItems: FINDINGS_TOTAL + 1, description: `fatal and error findings; with warnings, at most ${FINDINGS_PER_RULE} per rule id, ${FINDINGS_TOTAL} and ${FINDINGS_TEXT} characters of locations and messages in all, then one ${FINDINGS_TRUNCATED} finding (an error when an error was left out) counting the rest` }),
    warnings: Type.Array(ValidationFindingSchema, { maxItems: FINDINGS_TOTAL + 1, description: "warning and info findings, under the same caps as errors" }),
  },
  { title: "ValidationResult" },
);
