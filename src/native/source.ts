/**
 * Reads a pinned rule entry into the Schematron model the native engine compiles: a `.sch` through
 * the same front end as our `.sch`-to-XSLT compiler, a published XSLT through the reader of the
 * generator that wrote it (the ISO skeleton or SchXslt). The native plan then stands for exactly
 * the pinned file the seal names. Anything a reader cannot map throws an {@link XPathError}
 * (XTSE0010), and that entry runs on SaxonJS instead.
 */
import { readFileSync } from "node:fs";
import { parseSchematron } from "../schematron/parse.ts";
import type { Schema } from "../schematron/model.ts";
import type { PatternSelection } from "../profiles/record.ts";
import { readSchxslt } from "./from-xslt/schxslt.ts";
import { readSkeletonXslt } from "./from-xslt/skeleton.ts";
import { fail } from "./xpath/errors.ts";

export type SourceKind = "schematron" | "iso-skeleton" | "schxslt";

/** Which generator wrote a rule file, from its text. */
export function sourceKindOf(path: string, text: string): SourceKind {
  if (/\.sch$/i.test(path)) return "schematron";
  if (text.includes("https://doi.org/10.5281/zenodo.1495494")) return "schxslt";
  if (text.includes("schematron-select-full-path")) return "iso-skeleton";
  return fail("XTSE0010", `${path} was written by no Schematron compiler the native engine reads`);
}

/**
 * The rule model of the pinned file at `absolutePath` (a `.sch` may include files beside it): all of
 * it, or for a `.sch` the patterns selected.
 */
export function readRuleSource(absolutePath: string, selection?: PatternSelection): { kind: SourceKind; schema: Schema } {
  const text = readFileSync(absolutePath, "utf8");
  const kind = sourceKindOf(absolutePath, text);
  if (selection && kind !== "schematron") throw new Error(`${absolutePath}: only a Schematron source can run part of its patterns`);
  switch (kind) {
    case "schematron":
      return { kind, schema: parseSchematron(absolutePath, selection) };
    case "iso-skeleton":
      return { kind, schema: readSkeletonXslt(text, absolutePath) };
    case "schxslt":
      return { kind, schema: readSchxslt(text, absolutePath) };
  }
}
