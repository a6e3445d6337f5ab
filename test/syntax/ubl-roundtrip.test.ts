// Every valid UBL document of the corpus survives read -> write -> read unchanged in the model,
// and what we write is valid UBL 2.1. The elements the model does not carry are printed as a
// summary (source value paths missing from the rewritten document): the later conversion
// "lost elements" report starts from this list.

import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Invoice } from "../../src/model/index.ts";
import { readUbl } from "../../src/syntax/ubl/read.ts";
import { UBL_PLACES } from "../../src/syntax/ubl/terms.ts";
import { writeUbl } from "../../src/syntax/ubl/write.ts";
import { parseXml, valuePaths } from "../../src/syntax/xml-reader.ts";
import { createXsdEngine } from "../../src/validation/xsd.ts";

const CORPUS = "../shared/corpus/";

interface Row {
  path: string;
  syntax: string;
  expectedValid: boolean;
}

const rows = (JSON.parse(readFileSync(`${CORPUS}expected.json`, "utf8")) as Row[]).filter(
  (r) => r.syntax === "ubl" && r.expectedValid,
);

const xsd = createXsdEngine((p) => readFileSync(`../shared/rulesets/${p}`));
afterAll(() => xsd.dispose());

/** The model as JSON sees it: optional terms that are undefined are simply absent. */
const plain = (m: Invoice): unknown => JSON.parse(JSON.stringify(m));

// Value paths of the source missing from the rewrite, with how many documents lose each.
const lost = new Map<string, number>();

describe("UBL corpus round trip", () => {
  test("the corpus has complete UBL documents to run", () => {
    expect(rows.length).toBeGreaterThan(100);
  });

  for (const row of rows) {
    test(row.path, () => {
      const source = readFileSync(CORPUS + row.path);
      const first = readUbl(source);
      const written = writeUbl(first);
      expect(plain(readUbl(written))).toEqual(plain(first));
      expect(writeUbl(readUbl(written))).toBe(written);

      const outcome = xsd.validate(first.kind === "invoice" ? "ubl-invoice" : "ubl-creditnote", written);
      expect(outcome.findings).toEqual([]);
      expect(outcome.valid).toBe(true);

      const kept = valuePaths(parseXml(written), UBL_PLACES.prefixes);
      for (const path of valuePaths(parseXml(source), UBL_PLACES.prefixes)) {
        if (!kept.has(path)) lost.set(path, (lost.get(path) ?? 0) + 1);
      }
    });
  }

  afterAll(() => {
    const lines = [...lost].sort(([a], [b]) => a.localeCompare(b)).map(([path, n]) => `  ${String(n).padStart(4)}  ${path}`);
    console.log(`UBL elements not carried by the model (documents losing each, of ${rows.length}):\n${lines.join("\n")}`);
  });
});
