// Headers that describe a produced document (generate, convert): the artifact versions that judged
// it and what the target could not carry.

import { RECORDS, VERSION_FIELDS } from "../profiles/catalogue";
import type { ValidationResult } from "../validation/result";

/** The result fields that name what judged: rule families' versions, and the schema bundles of the formats judged by XSD alone. */
const BLOCK_FIELDS = [...new Set([...Object.values(VERSION_FIELDS), ...RECORDS.flatMap((r) => r.judge?.xsdFields ?? [])])];

/** `x-version-block`: the artifact versions that judged the output, plus the Factur-X level written; omitted when empty. */
export function versionBlock(result: ValidationResult, facturxProfile: string | undefined): string | undefined {
  const block: Record<string, string> = {};
  for (const field of BLOCK_FIELDS) {
    const version = (result as Record<string, unknown>)[field];
    if (typeof version === "string" && version) block[field] = version;
  }
  if (facturxProfile) block.facturxProfile = facturxProfile;
  return Object.keys(block).length ? JSON.stringify(block) : undefined;
}

/** The spec's cap on `x-lost-elements` (Limits); the count header stays exact above it. */
const LOST_HEADER_MAX_BYTES = 6 * 1024;

/**
 * `x-lost-elements`: the entries as compact JSON. Above the cap it keeps the first entries that fit
 * and ends with `{"truncated": true, "more": N}`, so a raw answer still says what was lost and how
 * much it could not name.
 */
export function lostElementsHeader(lost: readonly object[]): string {
  const all = JSON.stringify(lost);
  if (all.length <= LOST_HEADER_MAX_BYTES) return all;
  // Room left beside the brackets and the marker at its longest ("more" at most the whole count).
  const room = LOST_HEADER_MAX_BYTES - JSON.stringify([{ truncated: true, more: lost.length }]).length;
  const kept: string[] = [];
  let size = 0;
  for (const entry of lost.map((e) => JSON.stringify(e))) {
    if (size + entry.length + 1 > room) break;
    kept.push(entry);
    size += entry.length + 1;
  }
  return `[${[...kept, JSON.stringify({ truncated: true, more: lost.length - kept.length })].join(",")}]`;
}
