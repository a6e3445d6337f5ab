// Regenerates rulesets/pins.json and rulesets/versions.json from a ruleset mirror's
// manifest.json and catalogue-facts.json. Only facts are copied; the artefacts stay outside the repo.
//
//   bun scripts/pins-from-manifest.ts [mirrorDir]   (default ../shared/rulesets)

import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { RulesetVersion } from "../src/rulesets/pins";

interface ManifestRow {
  key: string;
  version: string;
  releaseDate: string | null;
  sourceRepo: string;
  sourceTag: string | null;
  sourceCommit: string;
  sourceUrl: string;
  zipMember: string | null;
  path: string;
  fileSha256: string;
  role: "entry" | "support";
  licence: string;
}


export function pinsFromManifest(manifest: ManifestRow[]) {
  return manifest.map((r) => ({
    key: r.key,
    version: r.version,
    path: r.path,
    sha256: r.fileSha256,
    upstreamUrl: r.sourceUrl,
    zipMember: r.zipMember,
    role: r.role,
    licence: r.licence,
    releaseDate: r.releaseDate,
    sourceRepo: r.sourceRepo,
    sourceTag: r.sourceTag,
    sourceCommit: r.sourceCommit,
  }));
}

export function versionsFromFacts(facts: RulesetVersion[]) {
  return facts.map((f) => ({
    key: f.key,
    version: f.version,
    releaseDate: f.releaseDate,
    specVersion: f.specVersion,
    authority: f.authority,
    region: f.region,
    sourceRepo: f.sourceRepo,
    sourceTag: f.sourceTag,
    supersededMandatoryOn: f.supersededMandatoryOn,
  }));
}

/** The exact text committed, so a test can compare bytes. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

export function generate(mirrorDir: string): { pins: string; versions: string } {
  const manifest = JSON.parse(readFileSync(join(mirrorDir, "manifest.json"), "utf8")) as ManifestRow[];
  const facts = JSON.parse(readFileSync(join(mirrorDir, "catalogue-facts.json"), "utf8")) as RulesetVersion[];
  return { pins: toJsonText(pinsFromManifest(manifest)), versions: toJsonText(versionsFromFacts(facts)) };
}

if (import.meta.main) {
  const repoRoot = resolve(import.meta.dir, "..");
  const mirror = resolve(process.argv[2] ?? join(repoRoot, "../shared/rulesets"));
  const { pins, versions } = generate(mirror);
  writeFileSync(join(repoRoot, "rulesets/pins.json"), pins);
  writeFileSync(join(repoRoot, "rulesets/versions.json"), versions);
  console.log(`wrote rulesets/pins.json (${JSON.parse(pins).length} rows) and rulesets/versions.json (${JSON.parse(versions).length} rows) from ${mirror}`);
}
