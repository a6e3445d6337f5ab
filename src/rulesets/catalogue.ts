import { pins } from "./pins";
import type { RulesetLifecycle } from "./lifecycle";
import type { ArtifactRow } from "./seal";

type Tier = "conformance-verified" | "builder-round-trip" | "xsd-structural" | null;
type Provenance = "authority-conformance" | "authority-artifact" | "community" | "beliq-authored" | "none";
type Badge = "authority-verified" | "independently-rule-checked" | "structure-checked";

interface FamilyRow {
  format: string;
  label: string;
  standard: string;
  /** The key whose version is the audit anchor of the row. */
  versionKey: string;
  verificationTier: Tier;
  rulesProvenance: Provenance;
  verificationBadge: Badge;
}

/**
 * One row per format and profile family. Tiers are earned, not claimed: `conformance-verified`
 * only where the corpus conformance test holds the authority's verdicts (test/validation), and
 * `xsd-structural` for the formats judged by schema alone.
 */
const FAMILIES: FamilyRow[] = [
  { format: "ubl", label: "EN 16931 (UBL 2.1)", standard: "en16931", versionKey: "en16931_ubl_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { format: "cii", label: "EN 16931 (CII D16B)", standard: "en16931", versionKey: "en16931_cii_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { format: "ubl", label: "XRechnung (UBL)", standard: "xrechnung", versionKey: "xrechnung_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { format: "cii", label: "XRechnung (CII)", standard: "xrechnung", versionKey: "xrechnung_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { format: "ubl", label: "Peppol BIS Billing 3.0 (UBL)", standard: "peppol-bis", versionKey: "peppol_bis_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { format: "cii", label: "Peppol BIS Billing 3.0 (CII)", standard: "peppol-bis", versionKey: "peppol_bis_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { format: "ubl", label: "Romania CIUS-RO (UBL)", standard: "peppol-bis", versionKey: "romania_ro_cius_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { format: "ubl", label: "Netherlands SI-UBL 2.0 / NLCIUS (UBL)", standard: "peppol-bis", versionKey: "netherlands_nlcius_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { format: "cii", label: "Netherlands NLCIUS (CII)", standard: "peppol-bis", versionKey: "netherlands_nlcius_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  { format: "cii", label: "Factur-X / ZUGFeRD (MINIMUM to EXTENDED)", standard: "facturx", versionKey: "facturx_schematron", verificationTier: "conformance-verified", rulesProvenance: "authority-artifact", verificationBadge: "authority-verified" },
  // The France CTC rules are the authority's files, but no public corpus judges them yet.
  { format: "cii", label: "France CTC (EXTENDED-CTC-FR, BR-FR Flux 2)", standard: "facturx", versionKey: "france_ctc_schematron", verificationTier: null, rulesProvenance: "authority-artifact", verificationBadge: "independently-rule-checked" },
  { format: "ubl", label: "France CTC (EXTENDED-CTC-FR, BR-FR Flux 2, UBL)", standard: "facturx", versionKey: "france_ctc_schematron", verificationTier: null, rulesProvenance: "authority-artifact", verificationBadge: "independently-rule-checked" },
  { format: "fatturapa", label: "Italy FatturaPA 1.2.2 (FPR12, FPA12)", standard: "fatturapa", versionKey: "fatturapa_xsd", verificationTier: "xsd-structural", rulesProvenance: "none", verificationBadge: "structure-checked" },
  { format: "sdi_messaggio", label: "Italy SDI file messages 1.1", standard: "fatturapa", versionKey: "sdi_messaggi_xsd", verificationTier: "xsd-structural", rulesProvenance: "none", verificationBadge: "structure-checked" },
  { format: "facturae", label: "Spain Facturae 3.2.2", standard: "facturae", versionKey: "facturae_xsd", verificationTier: "xsd-structural", rulesProvenance: "none", verificationBadge: "structure-checked" },
  { format: "eslog", label: "Slovenia e-SLOG 2.0", standard: "eslog", versionKey: "eslog_xsd", verificationTier: "xsd-structural", rulesProvenance: "none", verificationBadge: "structure-checked" },
];

export const CHANNELS = [
  { id: "latest", label: "Latest", description: "The newest pinned release of every artifact (default)." },
  {
    id: "previous",
    label: "Previous",
    description: "The release retained before the most recent breaking change, per artifact, while it is reachable; otherwise latest, with rulesetFellBack: true.",
  },
];

/** Every row that can appear in a seal: the entry files (root schemas and rule files) of every pinned version. */
export function catalogueArtifacts(): ArtifactRow[] {
  return pins.filter((p) => p.role === "entry").map((p) => ({ key: p.key, version: p.version, fileSha256: p.sha256 }));
}

/** The catalogue as it stands on `day` (YYYY-MM-DD): what latest serves, what is retained, what is announced. */
export function buildCatalogue(lifecycle: RulesetLifecycle, day: string) {
  const rulesets = FAMILIES.map((family) => {
    const latest = lifecycle.latest(family.versionKey, day);
    // Facts of the version itself; an announced release may state only what changed.
    const facts = { ...lifecycle.facts.find((f) => f.key === family.versionKey), ...lifecycle.facts.find((f) => f.key === family.versionKey && f.version === latest.version) };
    return {
      format: family.format,
      label: family.label,
      standard: family.standard,
      authority: facts.authority ?? "",
      region: facts.region ?? "",
      specVersion: facts.specVersion ?? "",
      rulesetVersion: latest.version,
      rulesetArtefact: `${family.versionKey} ${latest.version} (${facts.sourceRepo}${facts.sourceTag ? ` ${facts.sourceTag}` : ""})`,
      versionKey: family.versionKey,
      verificationTier: family.verificationTier,
      rulesProvenance: family.rulesProvenance,
      verificationBadge: family.verificationBadge,
      releaseDate: /^\d{4}-\d{2}-\d{2}$/.test(facts.releaseDate ?? "") ? facts.releaseDate : null,
      repo: facts.sourceRepo ?? null,
      tag: facts.sourceTag ?? null,
      retained: lifecycle.retained(family.versionKey, day).map((r) => ({
        version: r.version,
        releaseDate: r.releaseDate,
        servingFrom: r.servingFrom,
        retainedUntil: r.retainedUntil,
        supersededMandatoryOn: r.supersededMandatoryOn,
      })),
    };
  });
  const scheduledChanges = lifecycle.scheduled(day).map(({ from, to }) => ({
    versionKey: to.key,
    formats: to.formats.length ? to.formats : [...new Set(FAMILIES.filter((f) => f.versionKey === to.key).map((f) => f.format))],
    capabilities: to.capabilities,
    from: from.version,
    to: to.version,
    effectiveOn: to.servingFrom,
    noticePublishedOn: to.noticePublishedOn,
    retiredOn: null,
  }));
  return { rulesets, channels: CHANNELS, scheduledChanges, artifacts: catalogueArtifacts() };
}
