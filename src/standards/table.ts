// Every standard x profile the generate endpoint accepts, as data: which syntax writes it, which
// identifiers (BT-24, BT-23) it declares, which validation pipeline judges it and which output kinds
// it has. generate.ts only interprets these rows; adding a CIUS is a row, not a branch.

import type { FacturxProfile } from "../syntax/cii/write.ts";

export const STANDARDS = ["xrechnung", "zugferd", "facturx", "peppol-bis", "fatturapa", "facturae", "eslog"] as const;
export type Standard = (typeof STANDARDS)[number];

/** The `profile` enum of the generate request, in the order of the interface specification. */
export const PROFILES = [
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
export type Profile = (typeof PROFILES)[number];

export const FACTURX_REQUEST_PROFILES = ["minimum", "basicwl", "basic", "en16931", "extended", "extended-ctc-fr"] as const;

/** Standards whose credit notes (type 381) we accept; fatturapa and facturae take invoices only. */
export const CREDIT_NOTE_CAPABLE: readonly Standard[] = ["eslog", "facturx", "peppol-bis", "xrechnung", "zugferd"];

/** How the XML is written. */
export type SyntaxTarget = { syntax: "ubl" } | { syntax: "cii"; version: "D16B" } | { syntax: "cii"; version: "D22B"; level: FacturxProfile };

/** How each party's electronic address (BT-34 / BT-49) is found; see electronic-address.ts. */
export type AddressRule = "peppol" | "xrechnung" | "optional";

/** National overlay whose extra rules generate enforces before writing. */
export type Overlay = "romania" | "netherlands";

export interface ProfileRow {
  /** BT-24 customization / guideline id. */
  customizationId: string;
  /** BT-24 when the invoice has sub-lines and the profile needs its extension id to carry them. */
  extensionCustomizationId?: string;
  /** BT-23 business process, where the profile requires or conventionally carries one. */
  profileId?: string;
  /** Key of src/validation/pipelines.ts (after the `<syntax>:` prefix) that judges the output. */
  pipelineProfile: string;
  /** How the XML is written by default. */
  target: SyntaxTarget;
  /** The UBL alternative, where the standard allows a choice (`syntax: "ubl"`). */
  ublTarget?: boolean;
  electronicAddress: AddressRule;
  overlay?: Overlay;
  /**
   * Syntaxes whose output carries sub-lines (XRechnung extension in UBL, Factur-X EXTENDED); elsewhere
   * they are dropped, the parent line keeping the amount, and reported lost. XRechnung CII has no
   * sub-line binding the CEN rules accept (flat CII lines would count twice in BR-CO-10).
   */
  subLines: readonly ("cii" | "ubl")[];
  /** Terms the level's rules forbid although its XSD (shared party types) admits them; see trim.ts. */
  trim?: "minimum";
  /** The French CTC overlay (france-ctc.ts): always on, or on when the invoice sets `franceCtc`. */
  franceCtc?: "always" | "opt-in";
}

export interface StandardRow {
  profiles: Partial<Record<Profile, ProfileRow>>;
  defaultProfile: Profile;
  /** Generation is refused until the writer exists (national formats, a later issue). */
  writerAvailable: boolean;
  /** `pdf` output: hybrid PDF/A-3 with the XML embedded, or a visualization of the XML. */
  pdfKind: "hybrid" | "visualization";
}

const EN16931 = "urn:cen.eu:en16931:2017";
const PEPPOL_BILLING = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0";

/** Factur-X 1.0 profile ids; ZUGFeRD 2.x declares the same URNs since 2.1. */
const FACTURX_IDS: Record<FacturxProfile, string> = {
  minimum: "urn:factur-x.eu:1p0:minimum",
  basicwl: "urn:factur-x.eu:1p0:basicwl",
  basic: `${EN16931}#compliant#urn:factur-x.eu:1p0:basic`,
  en16931: EN16931,
  extended: `${EN16931}#conformant#urn:factur-x.eu:1p0:extended`,
};

const facturxRow = (level: FacturxProfile): ProfileRow => ({
  customizationId: FACTURX_IDS[level],
  pipelineProfile: `facturx:${level}`,
  target: { syntax: "cii", version: "D22B", level },
  electronicAddress: "optional",
  subLines: level === "extended" ? ["cii"] : [],
  ...(level === "minimum" && { trim: "minimum" as const }),
  franceCtc: "opt-in",
});

const facturxLevels = () => Object.fromEntries((Object.keys(FACTURX_IDS) as FacturxProfile[]).map((l) => [l, facturxRow(l)]));

const peppolUbl = (customizationId: string, pipelineProfile: string, overlay?: Overlay): ProfileRow => ({
  customizationId,
  profileId: PEPPOL_BILLING,
  pipelineProfile,
  target: { syntax: "ubl" },
  electronicAddress: "peppol",
  subLines: [],
  ...(overlay && { overlay }),
});

const notYet = (profile: Profile): StandardRow => ({ profiles: { [profile]: undefined }, defaultProfile: profile, writerAvailable: false, pdfKind: "visualization" });

export const STANDARD_TABLE: Record<Standard, StandardRow> = {
  xrechnung: {
    profiles: {
      xrechnung: {
        customizationId: `${EN16931}#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0`,
        extensionCustomizationId: `${EN16931}#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0`,
        profileId: PEPPOL_BILLING,
        pipelineProfile: "xrechnung",
        target: { syntax: "cii", version: "D16B" },
        ublTarget: true,
        electronicAddress: "xrechnung",
        subLines: ["ubl"],
      },
    },
    defaultProfile: "xrechnung",
    writerAvailable: true,
    pdfKind: "visualization",
  },
  zugferd: { profiles: facturxLevels(), defaultProfile: "en16931", writerAvailable: true, pdfKind: "hybrid" },
  facturx: {
    profiles: {
      ...facturxLevels(),
      "extended-ctc-fr": {
        ...facturxRow("extended"),
        customizationId: `${EN16931}#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr`,
        pipelineProfile: "facturx:extended-ctc-fr",
        franceCtc: "always",
      },
    },
    defaultProfile: "en16931",
    writerAvailable: true,
    pdfKind: "hybrid",
  },
  "peppol-bis": {
    profiles: {
      peppol: peppolUbl(`${EN16931}#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0`, "peppol"),
      "romania-ro-cius": peppolUbl(`${EN16931}#compliant#urn:efactura.mfinante.ro:CIUS-RO:1.0.1`, "romania-ro-cius", "romania"),
      "netherlands-nlcius": peppolUbl(`${EN16931}#compliant#urn:fdc:nen.nl:nlcius:v1.0`, "netherlands-nlcius", "netherlands"),
    },
    defaultProfile: "peppol",
    writerAvailable: true,
    pdfKind: "visualization",
  },
  fatturapa: notYet("ordinaria"),
  facturae: notYet("ordinaria"),
  eslog: notYet("eracun"),
};

/** Profiles a standard accepts, in the order of the `profile` enum. */
export function allowedProfiles(standard: Standard): Profile[] {
  const row = STANDARD_TABLE[standard];
  return PROFILES.filter((p) => p in row.profiles);
}
