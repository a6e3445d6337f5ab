// The named values the catalogue is keyed by. Every profile, syntax and standard string of the
// service is one of these types; only src/profiles/ spells them out (test/profiles/catalogue.test.ts
// holds that rule).

/** Syntaxes the service recognises: the `format` of a validation result, minus `unknown`. */
const SYNTAXES = ["cii", "ubl", "fatturapa", "facturae", "eslog", "sdi_messaggio"] as const;
export type SyntaxId = (typeof SYNTAXES)[number];

/** The EN 16931 syntaxes: the ones the semantic model is read from and written to. */
export const EN16931_SYNTAXES = ["cii", "ubl"] as const;
export type En16931Syntax = (typeof EN16931_SYNTAXES)[number];

/** The `format` of a validation result. */
export const FORMATS = [...SYNTAXES, "unknown"] as const;
/** The `format` query of validate: a syntax, or `auto` to detect it. */
export const FORMAT_HINTS = ["auto", ...SYNTAXES] as const;

/** The syntaxes generate writes: the EN 16931 ones and the national formats. */
export const GENERATED_SYNTAXES = [...EN16931_SYNTAXES, "fatturapa", "facturae", "eslog"] as const;
export type GeneratedSyntax = (typeof GENERATED_SYNTAXES)[number];

export const isEn16931Syntax = (syntax: string): syntax is En16931Syntax => (EN16931_SYNTAXES as readonly string[]).includes(syntax);

/** Factur-X 1.0x / ZUGFeRD 2.x levels, lowest first. */
export const FACTURX_LEVELS = ["minimum", "basicwl", "basic", "en16931", "extended"] as const;
export type FacturxLevel = (typeof FACTURX_LEVELS)[number];

export const SDI_MESSAGES = [
  "RicevutaConsegna",
  "NotificaScarto",
  "NotificaMancataConsegna",
  "NotificaEsito",
  "NotificaEsitoCommittente",
  "ScartoEsitoCommittente",
  "NotificaDecorrenzaTermini",
  "AttestazioneTrasmissioneFattura",
  "MetadatiInvioFile",
] as const;
export type SdiMessage = (typeof SDI_MESSAGES)[number];

/** `profileDetected` of a validation result: the profile a document declares. */
export type ProfileId =
  | "en16931"
  | "xrechnung"
  | "peppol"
  | "romania-ro-cius"
  | "netherlands-nlcius"
  | `facturx:${FacturxLevel}`
  | "italy-fatturapa-ordinaria-fpr12"
  | "italy-fatturapa-ordinaria-fpa12"
  | "italy-fatturapa-semplificata-fsm10"
  | `italy-sdi-${string}`
  | "spain-facturae-v3-2-2"
  | "slovenia-eslog-v2-0";

/**
 * A catalogue record: `<syntax>:<name>`, where the name is what generate reports as the profile it
 * judged its output under (the profile, except where an overlay has its own rules, as
 * `facturx:extended-ctc-fr`).
 */
export type RecordId = `${SyntaxId}:${string}`;

/** Values of the generate request's `standard`, in the order of the interface specification. */
export const STANDARDS = ["xrechnung", "zugferd", "facturx", "peppol-bis", "fatturapa", "facturae", "eslog"] as const;
export type Standard = (typeof STANDARDS)[number];

/** The generate request's `profile` enum, in the order of the interface specification. */
export const REQUEST_PROFILES = [
  "minimum",
  "basicwl",
  "basic",
  "en16931",
  "extended",
  "extended-ctc-fr",
  "xrechnung",
  "peppol",
  "romania-ro-cius",
  "netherlands-nlcius",
  "ordinaria",
  "eracun",
  "fa3",
] as const;
export type RequestProfile = (typeof REQUEST_PROFILES)[number];

/** `facturxProfile`, the Factur-X family's alias of `profile`. */
export const FACTURX_REQUEST_PROFILES = [...FACTURX_LEVELS, "extended-ctc-fr"] as const;

/** `sourceFormat` / `targetFormat` of convert (interface specification, POST /v1/convert). */
export const CONVERT_FORMATS = ["cii", "ubl", "zugferd", "facturx", "xrechnung", "peppol-bis"] as const;
export type ConvertFormat = (typeof CONVERT_FORMATS)[number];

/** Which artifact family a rule layer belongs to: decides the result field its version goes in. */
export type RuleFamily = "en16931" | "xrechnung" | "peppol" | "romania" | "netherlands" | "facturx" | "france-ctc";
