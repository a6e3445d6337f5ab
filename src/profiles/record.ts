// The shape of one catalogue record: everything the service knows about one profile in one syntax,
// in four parts a reader can find by question: how is it recognised, how is it written, what judges
// it, and how does it travel inside a hybrid PDF. Types only: the data is in catalogue.ts.

import type { FacturxLevel, ProfileId, RecordId, RuleFamily, SyntaxId } from "./ids.ts";
import type { XsdSchemaId } from "./schemas.ts";

export interface ProfileRecord {
  id: RecordId;
  syntax: SyntaxId;
  /** `profileDetected` when a document is recognised as this record. */
  profile: ProfileId;
  /** Row of the public ruleset catalogue (GET /v1/rulesets) this record belongs to. */
  family: FamilyId;
  recognise: Recognition;
  /** Absent: validate only (no writer yet). */
  write?: Writing;
  /** Absent: recognised, so a verdict can name it, but no rules are pinned for it. */
  judge?: Judgement;
  /** Facts of the Factur-X / ZUGFeRD container, for records that travel in a hybrid PDF. */
  hybrid?: HybridFacts;
  /** The writer of a national format (src/syntax/national-writers.ts); they take no EN 16931 `write`. */
  national?: NationalWriterId;
}

/** The national writers: FatturaPA's two roots, Facturae, e-SLOG. */
export type NationalWriterId = "fatturapa-ordinaria" | "fatturapa-semplificata" | "facturae" | "eslog";

/**
 * How a document is matched to this record once its root told the syntax (src/syntax/roots.ts).
 * Records of a syntax with specification identifiers match BT-24 by prefix, the longest prefix
 * winning; national formats match by root name or a root attribute.
 */
interface Recognition {
  /** BT-24 prefixes (UBL CustomizationID, CII guideline id), current first. */
  ids?: readonly string[];
  /** Earlier identifiers still recognised (drafts, superseded releases). */
  legacyIds?: readonly string[];
  /** Only inside a hybrid PDF, where the bare EN 16931 id means the Factur-X EN 16931 level. */
  insideHybridPdf?: true;
  /** Judges documents of its syntax that declare no identifier we know (the EN 16931 core). */
  fallback?: true;
  /** Root element local name (SDI messages share one namespace; FatturaPA has two roots). */
  root?: string;
  /** Root attribute value that names the profile (FatturaPA `versione`). */
  attribute?: { name: string; value: string };
}

/** How each party's electronic address (BT-34 / BT-49) is found; see overlays/electronic-address.ts. */
export type AddressRule = "peppol" | "xrechnung" | "optional";

/** National rules generate applies on top of the profile and parse undoes (src/overlays/). */
export type Overlay = "romania" | "netherlands";

export interface Writing {
  /** BT-24 as written. */
  customizationId: string;
  /** BT-24 when the invoice has sub-lines and the profile needs its extension id to carry them. */
  extensionCustomizationId?: string;
  /** BT-23 business process, where the profile requires or conventionally carries one. */
  businessProcess?: string;
  /** The CII message version and, for D22B, the Factur-X level whose schema orders the output. */
  cii?: { version: "D16B" } | { version: "D22B"; level: FacturxLevel };
  electronicAddress: AddressRule;
  overlay?: Overlay;
  /**
   * Whether the output carries sub-lines (XRechnung extension in UBL, Factur-X EXTENDED); elsewhere
   * they are dropped, the parent line keeping the amount, and reported lost. XRechnung CII has no
   * sub-line binding the CEN rules accept (flat CII lines would count twice in BR-CO-10).
   */
  subLines: boolean;
  /** Terms the level's rules forbid although its XSD (shared party types) admits them; see syntax/cii/trim.ts. */
  trim?: "minimum";
  /** The French CTC overlay (overlays/france-ctc.ts): always on, or on when the invoice sets `franceCtc`. */
  franceCtc?: "always" | "opt-in";
}

/** A rule file: an artifact key and the entry file inside its version folder, never a version. */
export interface RuleLayerRef {
  key: string;
  /** Entry file relative to `<key>/<version>/`. */
  file: string;
  family: RuleFamily;
  /** Only part of a Schematron entry runs in this layer; absent: all of it. */
  part?: EntryPart;
}

/**
 * Which patterns of a Schematron entry run: those of one of the file's phases, or every pattern but
 * the named ones (for a split the authority's phases do not express).
 */
export type PatternSelection = { phase: string } | { without: readonly string[] };

/** Part of a Schematron entry run as a layer of its own, compiled by our build from the pinned entry. */
export interface EntryPart {
  patterns: PatternSelection;
  /**
   * The pinned file (relative to `<key>/<version>/`) that holds the selected patterns, sealed instead
   * of the entry so the seal names the bytes whose rules ran; absent: the entry is sealed.
   */
  sealed?: string;
}

/** An advisory layer a record can run (src/validation/layers/advisory.ts). */
export type AdvisoryKey = "BR-CO-25" | "fatturapa-sdi" | "facturae-face";

export interface Judgement {
  /** The schema; `by-document-type` for UBL, whose Invoice and CreditNote have one schema each. */
  xsd: XsdSchemaId | "by-document-type";
  /** Rule files in the order the authorities' reference validators run them. */
  rules: readonly RuleLayerRef[];
  /** Rule files added when the document meets a condition (the France CTC rules for French invoices). */
  overlays?: readonly ConditionalLayer[];
  /**
   * The authority validator's per-scenario severity overrides (KoSIT's scenarios.xml), by artifact
   * key and file, never a version: the rule layers' findings take the level the document's scenario gives.
   */
  severities?: { key: string; file: string };
  /**
   * Advisories that apply: BR-CO-25, drawn only where no rule file that ran enforces it, and the
   * national authorities' rejections past the schema (SDI's for FatturaPA, FACe's for Facturae).
   */
  advisories?: readonly AdvisoryKey[];
  /** Result fields naming the schema bundle and runtime of formats judged by XSD alone. */
  xsdFields?: readonly [bundle: string, runtime: string];
}

/** `french-invoice`: BT-23 is a French billing framework and the seller (BT-40) is in France. */
export interface ConditionalLayer {
  when: "french-invoice";
  layer: RuleLayerRef;
}

export interface HybridFacts {
  /** fx:ConformanceLevel (HybridConformanceType). */
  conformanceLevel: string;
  /** MINIMUM and BASIC WL are not full invoices, so the PDF stays the invoice and the XML is data. */
  relationship: "Data" | "Alternative";
  /** Attachment name and fx:DocumentFileName. */
  fileName: string;
  /** fx:Version: fixed, or the XRechnung version read from BT-24 (ZUGFeRD 2.1+ XRECHNUNG level). */
  version: string | "from-xrechnung-id";
}

/** A row of GET /v1/rulesets. */
type FamilyId = string;

export interface CatalogueFamily {
  id: FamilyId;
  format: SyntaxId;
  label: string;
  standard: string;
  /** The key whose version is the audit anchor of the row. */
  versionKey: string;
  verificationTier: "conformance-verified" | "builder-round-trip" | "xsd-structural" | null;
  rulesProvenance: "authority-conformance" | "authority-artifact" | "community" | "beliq-authored" | "none";
  verificationBadge: "authority-verified" | "independently-rule-checked" | "structure-checked";
}
