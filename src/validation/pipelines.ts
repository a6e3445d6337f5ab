import type { XsdSchemaId } from "./xsd-schemas";

/**
 * Which rule files judge which profile, in the order the authorities' reference validators run them
 * (KoSIT scenarios for XRechnung, phive for Peppol, Romania and the Netherlands, Mustang for
 * Factur-X / ZUGFeRD). Layers name a ruleset key and the entry file inside a version folder, so the
 * version is chosen per request (channel or pin), never here.
 */
export type Family = "en16931" | "xrechnung" | "peppol" | "romania" | "netherlands" | "facturx" | "france-ctc";

export interface RuleLayer {
  key: string;
  /** Entry file relative to `<key>/<version>/`. */
  file: string;
  family: Family;
}

export interface Pipeline {
  /** XSD-only formats have no rule layers. */
  rules: RuleLayer[];
  /** Fixed schema for the profile; otherwise chosen from the document (Invoice vs CreditNote root). */
  xsd?: XsdSchemaId;
}

const en16931Ubl: RuleLayer = { key: "en16931_ubl_schematron", file: "ubl/xslt/EN16931-UBL-validation.xslt", family: "en16931" };
const en16931Cii: RuleLayer = { key: "en16931_cii_schematron", file: "cii/xslt/EN16931-CII-validation.xslt", family: "en16931" };
const facturx = (file: string): RuleLayer => ({ key: "facturx_schematron", file, family: "facturx" });
const franceCtc = (file: string): RuleLayer => ({ key: "france_ctc_schematron", file, family: "france-ctc" });

/** Keyed by `<format>:<profile>`; `<format>:*` applies to every document of a format. */
export const PIPELINES: Record<string, Pipeline> = {
  "ubl:en16931": { rules: [en16931Ubl] },
  "cii:en16931": { rules: [en16931Cii] },
  "ubl:xrechnung": { rules: [en16931Ubl, { key: "xrechnung_schematron", file: "schematron/ubl/XRechnung-UBL-validation.xsl", family: "xrechnung" }] },
  "cii:xrechnung": { rules: [en16931Cii, { key: "xrechnung_schematron", file: "schematron/cii/XRechnung-CII-validation.xsl", family: "xrechnung" }] },
  "ubl:peppol": {
    rules: [
      { key: "peppol_bis_schematron", file: "rules/sch/CEN-EN16931-UBL.sch", family: "en16931" },
      { key: "peppol_bis_schematron", file: "rules/sch/PEPPOL-EN16931-UBL.sch", family: "peppol" },
    ],
  },
  "cii:peppol": {
    rules: [
      { key: "peppol_bis_schematron", file: "rules/sch/CEN-EN16931-CII.sch", family: "en16931" },
      { key: "peppol_bis_schematron", file: "rules/sch/PEPPOL-EN16931-CII.sch", family: "peppol" },
    ],
  },
  // ANAF's 1.0.9 release is one Schematron that includes the CEN rules and the CIUS-RO rules.
  "ubl:romania-ro-cius": {
    rules: [{ key: "romania_ro_cius_schematron", file: "ro16931-ubl-1.0.9/EN16931-CIUS_RO-UBL-validation.sch", family: "romania" }],
  },
  // The Dutch rule files embed the CEN rules; one file per syntax covers invoice and credit note.
  "ubl:netherlands-nlcius": { rules: [{ key: "netherlands_nlcius_schematron", file: "xsl/si-ubl-2.0.xsl", family: "netherlands" }] },
  "cii:netherlands-nlcius": { rules: [{ key: "netherlands_nlcius_schematron", file: "xsl/nlcius-cii-1.0.xsl", family: "netherlands" }] },
  "cii:facturx:minimum": { xsd: "facturx-minimum", rules: [facturx("facturx-minimum/Factur-X_1.09_MINIMUM.xsl")] },
  "cii:facturx:basicwl": { xsd: "facturx-basicwl", rules: [facturx("Factur-X/BASICWL/2xslt/FACTUR-X_BASIC-WL.xslt")] },
  "cii:facturx:basic": { xsd: "facturx-basic", rules: [facturx("facturx-basic/Factur-X_1.09_BASIC.xsl")] },
  "cii:facturx:en16931": { xsd: "facturx-en16931", rules: [facturx("Factur-X/EN16931/2xslt/FACTUR-X_EN16931.xslt")] },
  "cii:facturx:extended": { xsd: "facturx-extended", rules: [facturx("Factur-X/EXTENDED/2xslt/Factur-X_EXTENDED.xslt")] },
  "cii:facturx:extended-ctc-fr": {
    xsd: "cii-d22b-ctc-fr",
    rules: [franceCtc("CII/EXTENDED-CTC-FR/2xslt/EXTENDED-CTC-FR-CII.xslt"), franceCtc("CII/EXTENDED-CTC-FR/2xslt/BR-FR-Flux2-Schematron-CII.xslt")],
  },
  "ubl:extended-ctc-fr": {
    rules: [en16931Ubl, franceCtc("UBL/EXTENDED-CTC-FR/2xslt/EXTENDED-CTC-FR-UBL.xslt"), franceCtc("UBL/EXTENDED-CTC-FR/2xslt/BR-FR-Flux2-Schematron-UBL.xslt")],
  },
  "fatturapa:*": { xsd: "fatturapa", rules: [] },
  "sdi_messaggio:*": { xsd: "sdi-messaggi", rules: [] },
  "facturae:*": { xsd: "facturae", rules: [] },
  "eslog:*": { xsd: "eslog", rules: [] },
};

/**
 * France CTC rules added when a document carries a French business process (BT-23) without
 * declaring EXTENDED-CTC-FR: the BR-FR "Flux 2" file for its syntax and level.
 */
export const FRANCE_CTC_OVERLAY: Record<string, RuleLayer> = {
  "ubl:en16931": franceCtc("UBL/EN16931/2xslt/BR-FR-Flux2-Schematron-UBL.xslt"),
  "cii:en16931": franceCtc("CII/EN16931/2xslt/BR-FR-Flux2-Schematron-CII.xslt"),
  "cii:facturx:basicwl": franceCtc("Factur-X/BASICWL/2xslt/BR-FR-Flux2-Schematron-CII.xslt"),
  "cii:facturx:en16931": franceCtc("Factur-X/EN16931/2xslt/BR-FR-Flux2-Schematron-CII.xslt"),
  "cii:facturx:extended": franceCtc("Factur-X/EXTENDED/2xslt/BR-FR-Flux2-Schematron-CII.xslt"),
};

/** Result field that reports the version of each family's artifact. */
export const VERSION_FIELDS: Partial<Record<Family, string>> = {
  en16931: "schematronVersion",
  xrechnung: "ciusVersion",
  peppol: "peppolVersion",
  romania: "romaniaRoCiusVersion",
  netherlands: "netherlandsNlciusVersion",
};

/** Result fields naming the schema bundle of the XSD-only formats. */
export const XSD_BUNDLE_FIELDS: Partial<Record<XsdSchemaId, [bundle: string, runtime: string]>> = {
  fatturapa: ["italyFatturapaXsdBundle", "italyFatturapaRuntimeVersion"],
  "sdi-messaggi": ["italySdiMessaggiXsdBundle", "italySdiMessaggiXsdVersion"],
  facturae: ["spainFacturaeXsdBundle", "spainFacturaeRuntimeVersion"],
  eslog: ["sloveniaEslogXsdBundle", "sloveniaEslogRuntimeVersion"],
};

export function pipelineFor(format: string, profile: string | undefined): { id: string; pipeline: Pipeline } | undefined {
  for (const id of [`${format}:${profile}`, `${format}:*`]) {
    const pipeline = PIPELINES[id];
    if (pipeline) return { id, pipeline };
  }
  return undefined;
}
