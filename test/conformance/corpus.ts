// The conformance corpus (../shared/corpus, read in place). Both conformance tests judge every
// row (the whole corpus fits the CI budget), so one engine pass serves both.

import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { RecordId } from "../../src/profiles/ids";
import { RECORDS } from "../../src/profiles/catalogue";
import type { CorpusRow } from "../support/corpus";

export const CORPUS = resolve(import.meta.dir, "../../../shared/corpus");

export type { CorpusRow };

export function corpusUnavailable(): string | null {
  return existsSync(join(CORPUS, "expected.json")) ? null : `no corpus at ${CORPUS}`;
}

export function allRows(): CorpusRow[] {
  return JSON.parse(readFileSync(join(CORPUS, "expected.json"), "utf8")) as CorpusRow[];
}

/** Source label: the corpus folder, as in the corpus README's table. */
export const sourceOf = (row: CorpusRow) => row.path.slice(0, row.path.indexOf("/"));

/**
 * The catalogue record to judge a row under: the row's own profile where a record judges it in the
 * row's syntax (hybrid PDFs carry CII); national formats and `unknown` are left to detection.
 */
export function recordFor(row: CorpusRow): RecordId | undefined {
  const syntax = row.syntax === "pdf" ? "cii" : row.syntax;
  const record = RECORDS.find((r) => r.id === `${syntax}:${row.profile}`);
  return record?.judge && record.judge.rules.length ? record.id : undefined;
}
