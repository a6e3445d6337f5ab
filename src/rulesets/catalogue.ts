import { entryPins } from "./pins";
import { partSealedPins } from "./rule-entries";
import type { RulesetLifecycle } from "./lifecycle";
import type { ArtifactRow } from "./seal";
import { CATALOGUE_FAMILIES as FAMILIES } from "../profiles/catalogue";

export const CHANNELS = [
  { id: "latest", label: "Latest", description: "The newest pinned release of every artifact (default)." },
  {
    id: "previous",
    label: "Previous",
    description: "The release retained before the most recent breaking change, per artifact, while it is reachable; otherwise latest, with rulesetFellBack: true.",
  },
];

/**
 * Every row that can appear in a seal: the entry files (root schemas and rule files) of every pinned
 * version, and the files that parts of an entry seal instead of it.
 */
function catalogueArtifacts(): ArtifactRow[] {
  return [...entryPins(), ...partSealedPins()].map((p) => ({ key: p.key, version: p.version, fileSha256: p.sha256 }));
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
