// Shared test inputs: the read-only rulesets and corpus in ../shared, read in place, never copied.

import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CorpusRow } from "../support/corpus";

export const SHARED = resolve(import.meta.dir, "../../../shared");
export const RULESETS = join(SHARED, "rulesets");
const CORPUS = join(SHARED, "corpus");

/** Why the shared material is missing, or null when the corpus tests can run. */
export function sharedUnavailable(): string | null {
  return existsSync(join(CORPUS, "expected.json")) ? null : `no corpus at ${CORPUS}`;
}

export type { CorpusRow };

/** Corpus rows matching `keep`, with `path` made absolute, in the file's (stable) order. */
export function corpusRows(keep: (row: CorpusRow) => boolean): CorpusRow[] {
  const rows = JSON.parse(readFileSync(join(CORPUS, "expected.json"), "utf8")) as CorpusRow[];
  return rows.filter(keep).map((row) => ({ ...row, path: join(CORPUS, row.path) }));
}

/** FULL=1 runs everything; otherwise an evenly spread, deterministic sample of at most `limit` items. */
export function sample<T>(items: T[], limit: number): T[] {
  if (process.env.FULL === "1" || items.length <= limit) return items;
  const step = items.length / limit;
  return Array.from({ length: limit }, (_, i) => items[Math.floor(i * step)]);
}

/** The CEN EN 16931 rules as Schematron source and as the XSLT CEN publishes, per syntax. */
export const CEN_BINDINGS = [
  {
    syntax: "ubl",
    sch: "en16931_ubl_schematron/1.3.16/ubl/schematron/EN16931-UBL-validation.sch",
    xslt: "en16931_ubl_schematron/1.3.16/ubl/xslt/EN16931-UBL-validation.xslt",
  },
  {
    syntax: "cii",
    sch: "en16931_cii_schematron/1.3.16/cii/schematron/EN16931-CII-validation.sch",
    xslt: "en16931_cii_schematron/1.3.16/cii/xslt/EN16931-CII-validation.xslt",
  },
] as const;
