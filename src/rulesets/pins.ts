// The pinned ruleset files and version facts, imported statically so `bun build --compile`
// embeds them in the executable.

import { posix } from "node:path";
import pinsJson from "../../rulesets/pins.json";
import versionsJson from "../../rulesets/versions.json";

type PinRole = "entry" | "support";

export interface Pin {
  key: string;
  version: string;
  /** Path relative to the rulesets root: `<key>/<version>/<upstream relative path>`. */
  path: string;
  sha256: string;
  /** Direct download of the exact bytes; for a zip member, the zip itself. */
  upstreamUrl: string;
  /** Member path inside the zip named by `upstreamUrl`, or null for a plain file. */
  zipMember: string | null;
  role: PinRole;
  licence: string;
  releaseDate: string | null;
  sourceRepo: string;
  sourceTag: string | null;
  sourceCommit: string;
}

export interface RulesetVersion {
  key: string;
  version: string;
  releaseDate: string | null;
  specVersion: string;
  authority: string;
  region: string;
  sourceRepo: string;
  sourceTag: string | null;
  /** Date the successor release becomes mandatory, where the authority states one. */
  supersededMandatoryOn: string | null;
}

export const pins: readonly Pin[] = pinsJson as Pin[];
export const versions: readonly RulesetVersion[] = versionsJson as RulesetVersion[];

export function entryPins(): Pin[] {
  return pins.filter((p) => p.role === "entry");
}

export function pinByPath(path: string): Pin | undefined {
  return pins.find((p) => p.path === path);
}

/** Versions of a key, newest release first (releaseDate descending; undated last). */
export function versionsOf(key: string): RulesetVersion[] {
  return versions
    .filter((v) => v.key === key)
    .sort((a, b) => (b.releaseDate ?? "").localeCompare(a.releaseDate ?? ""));
}

/** Entry files that are XSLT or Schematron (the rule layers), as opposed to XSD roots. */
export function isRuleEntry(p: Pin): boolean {
  return p.role === "entry" && /\.(xsl|xslt|sch)$/i.test(p.path);
}

/** The rulesets-root relative path a stylesheet's `document(href)` names: href resolved against the stylesheet. */
export function documentTarget(entryPath: string, href: string): string {
  return posix.normalize(posix.join(posix.dirname(entryPath), href));
}
