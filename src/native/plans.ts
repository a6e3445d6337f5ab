/**
 * Native plans in the ruleset bundle. At build time each pinned rule entry is read into the rule
 * model (`source.ts`) and compiled once to prove the engine supports all of it; the model is stored
 * as JSON beside the SaxonJS SEF. At run time a worker compiles the stored model to closures on
 * first use (tens of milliseconds; reading the source again would take longer and needs the files),
 * and each rule's checks the first time the rule fires.
 *
 * An entry the native engine refuses is recorded with the reason and runs on SaxonJS: never a
 * silent gap.
 */
import { relative } from "node:path";
import { documentTarget } from "../rulesets/pins.ts";
import type { Schema } from "../schematron/model.ts";
import type { PatternSelection } from "../profiles/record.ts";
import { SchematronError } from "../schematron/error.ts";
import type { XDocument } from "./xpath/document.ts";
import { compileSchema, type Plan } from "./engine.ts";
import { readRuleSource, type SourceKind } from "./source.ts";
import { readXml } from "./xml-reader.ts";
import { XPathError } from "./xpath/errors.ts";

/** What the bundle index says about one rule entry's native plan. */
export type NativeAvailability = { source: SourceKind; model: string } | { refused: string };

/** The pinned code lists an entry may open, by the href its rules write, parsed when asked (the plan keeps what it holds: engine.ts). */
function codeListResolver(entryPath: string, codeLists: readonly string[], read: (path: string) => Uint8Array): (href: string) => XDocument | undefined {
  return (href) => {
    const target = documentTarget(entryPath, href);
    return codeLists.includes(target) ? readXml(read(target)) : undefined;
  };
}

/**
 * Reads and compiles one entry from the synced files. Returns the model to store, or the reason the
 * native engine cannot run it. Other failures (a missing file) are build errors and throw.
 */
export function buildNativeModel(
  filesDir: string,
  entry: { id: string; path: string; patterns?: PatternSelection; codeLists: readonly string[] },
  read: (path: string) => Uint8Array,
): { availability: NativeAvailability; json?: string } {
  try {
    const { kind, schema } = readRuleSource(`${filesDir}/${entry.path}`, entry.patterns);
    // Origins name files relative to the rulesets root, so the bundle does not depend on where it was built.
    const json = JSON.stringify(schema, (key, value) => (key === "file" && typeof value === "string" ? relative(filesDir, value) : value));
    planOf(json, entry, read, { eager: true });
    return { availability: { source: kind, model: `native/${entry.id}.json` }, json };
  } catch (error) {
    if (error instanceof XPathError || error instanceof SchematronError) return { availability: { refused: error.message.replaceAll(`${filesDir}/`, "") } };
    throw error;
  }
}

/**
 * Compiles a stored model; `read` serves the entry's code lists (rulesets-root relative paths).
 * Rules compile on first firing unless `eager` (see `CompileOptions.eager`).
 */
export function planOf(json: string, entry: { path: string; codeLists: readonly string[] }, read: (path: string) => Uint8Array, { eager = false } = {}): Plan {
  return compileSchema(JSON.parse(json) as Schema, { documents: codeListResolver(entry.path, entry.codeLists, read), eager });
}
