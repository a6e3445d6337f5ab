// Questions asked of the catalogue, answered from its records: which record is this, which records
// share a syntax, which record a generate request means. No data here.

import { CONVERT_SOURCE_FORMATS, RECORDS, STANDARD_ENTRIES } from "./catalogue.ts";
import { REQUEST_PROFILES, type ConvertFormat, type En16931Syntax, type RecordId, type RequestProfile, type Standard, type SyntaxId } from "./ids.ts";
import type { ProfileRecord } from "./record.ts";

const BY_ID = new Map<string, ProfileRecord>(RECORDS.map((r) => [r.id, r]));

export function recordById(id: RecordId): ProfileRecord {
  const record = BY_ID.get(id);
  if (!record) throw new Error(`no catalogue record ${id}`);
  return record;
}

/** The records of each syntax, grouped once: detection asks for them on every document. */
const BY_SYNTAX = new Map<SyntaxId, readonly ProfileRecord[]>();
for (const record of RECORDS) BY_SYNTAX.set(record.syntax, [...(BY_SYNTAX.get(record.syntax) ?? []), record]);

export const recordsOf = (syntax: SyntaxId): readonly ProfileRecord[] => BY_SYNTAX.get(syntax) ?? [];

/** The record that judges a document of `syntax` declaring no profile we know. */
export const fallbackRecord = (syntax: SyntaxId): ProfileRecord | undefined => recordsOf(syntax).find((r) => r.recognise.fallback);

/** What generate reports as the profile it judged its output under: the record id without its syntax. */
export const judgedProfileName = (record: ProfileRecord): string => record.id.slice(record.syntax.length + 1);

/** Profiles a standard accepts, in the order of the `profile` enum. */
export function allowedProfiles(standard: Standard): RequestProfile[] {
  const entry = STANDARD_ENTRIES[standard];
  return REQUEST_PROFILES.filter((p) => p in entry.profiles);
}

/** Standards whose credit notes we accept. */
export const creditNoteStandards = (): Standard[] => (Object.keys(STANDARD_ENTRIES) as Standard[]).filter((s) => STANDARD_ENTRIES[s].creditNotes).sort();

/** The fx:ConformanceLevel values of the records a hybrid PDF may embed: the HybridConformanceType code list. */
export const hybridConformanceLevels = (): string[] => [...new Set(RECORDS.flatMap((r) => (r.hybrid ? [r.hybrid.conformanceLevel] : [])))];

/** The `sourceFormat` a document of an EN 16931 syntax resolves to under `auto`. */
export const convertSourceFormat = (syntax: En16931Syntax, record: ProfileRecord | undefined): ConvertFormat =>
  (record && CONVERT_SOURCE_FORMATS[`${syntax}:${record.profile}`]) ?? syntax;
