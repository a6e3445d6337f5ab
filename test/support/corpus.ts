// Reads the shared conformance corpus and ruleset mirror in place (never copied into the
// repository). Tests that need them pass the reasons below to cannotRun (requirements.ts).

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const SHARED_DIR = fileURLToPath(new URL("../../../shared/", import.meta.url));
export const CORPUS_DIR = `${SHARED_DIR}corpus/`;
export const RULESETS_DIR = `${SHARED_DIR}rulesets/`;
export const hasCorpus = existsSync(`${CORPUS_DIR}expected.json`);
export const hasRulesets = existsSync(`${RULESETS_DIR}manifest.json`);
export const corpusMissing = hasCorpus ? null : `no corpus at ${CORPUS_DIR} (expected.json)`;
export const mirrorMissing = hasRulesets ? null : `no ruleset mirror at ${RULESETS_DIR} (manifest.json)`;

/** One row of expected.json (its README describes the fields). */
export interface CorpusRow {
  path: string;
  source: string;
  syntax: "ubl" | "cii" | "fatturapa" | "facturae" | "sdi_messaggio" | "pdf";
  documentType: string;
  profile: string;
  expectedValid: boolean | null;
  expectedRuleIds: string[];
  expectedWarningRuleIds: string[];
  expectedAbsentRuleIds: string[];
  note: string;
  specId?: string | null;
}

export function corpusRows(): CorpusRow[] {
  return hasCorpus ? (JSON.parse(readFileSync(`${CORPUS_DIR}expected.json`, "utf8")) as CorpusRow[]) : [];
}

export function corpusFile(row: CorpusRow): Uint8Array | undefined {
  const file = CORPUS_DIR + row.path;
  return existsSync(file) ? readFileSync(file) : undefined;
}

export const rulesetFile = (relativePath: string): Uint8Array => readFileSync(RULESETS_DIR + relativePath);
