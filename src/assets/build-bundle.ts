import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pins } from "../rulesets/pins";
import { buildDir, filesDir, writeAtomically } from "../rulesets/sync";
import type { BuildIndex, IndexEntry } from "../rulesets/compile";
import { buildNativeModel, type NativeAvailability } from "../native/plans";
import { packBundle } from "./bundle-format";

export type BundledEntry = IndexEntry & {
  ruleIds: string[];
  /** The native engine's plan of the pinned entry, or why it runs on SaxonJS instead. */
  native: NativeAvailability;
};

/**
 * Ids of every assert and report a compiled stylesheet can emit. The ISO skeleton writes the id as
 * `<xsl:attribute name="id">`, SchXslt as a literal `id` attribute; Factur-X EXTENDED has no id at all
 * and names the rule only as a `[BR-xx]-` prefix of the message, which the findings read the same way.
 */
function ruleIdsOf(xslt: string): string[] {
  const ids = new Set<string>();
  for (const element of xslt.matchAll(/<svrl:(failed-assert|successful-report)\b([\s\S]*?)<\/svrl:\1>/g)) {
    const body = element[2];
    const id =
      body.match(/^[^>]*?\sid="([^"]+)"/)?.[1] ??
      body.match(/<xsl:attribute name="id">([^<]+)<\/xsl:attribute>/)?.[1] ??
      body.match(/<svrl:text>\s*\[([A-Za-z][\w.-]*)\]/)?.[1];
    if (id) ids.add(id.trim());
  }
  return [...ids].sort();
}

export const bundleFile = join(buildDir, "..", "assets", "rulesets.bundle");

/** The native engine's model of one rule entry (its JSON, when it has a plan), or why it has none. */
export type NativeModel = ReturnType<typeof buildNativeModel>;

/** Builds the native model of every entry, by entry id: which entries need a SEF follows from it. */
export function nativeModels(entries: readonly IndexEntry[]): Map<string, NativeModel> {
  return new Map(entries.map((entry) => [entry.id, buildNativeModel(filesDir, entry, (path) => readFileSync(join(filesDir, path)))]));
}

/** Whether the native engine has no plan for the entry, which then runs only on SaxonJS (and needs its SEF). */
export const planless = (entry: IndexEntry, models: ReadonlyMap<string, NativeModel>): boolean => "refused" in models.get(entry.id)!.availability;

/** The build scripts' line for a bundle written by {@link buildBundle}. */
export const bundleSummary = (b: ReturnType<typeof buildBundle>): string =>
  `bundle: ${b.files} files (${b.sefs} SEFs), ${(b.bytes / 1024 / 1024).toFixed(1)} MiB -> ${b.path}`;

/**
 * Packs what the engine reads at run time: every pinned schema file (XSD imports included) and data
 * entry, the native engine's rule models, every compiled stylesheet the build made with the code lists it
 * opens, and the build index. An entry without a SEF can run only natively (the index says so).
 */
export function buildBundle(index: BuildIndex, models: ReadonlyMap<string, NativeModel>): { path: string; files: number; bytes: number; sefs: number } {
  const files = new Map<string, Uint8Array>();
  const take = (bundlePath: string, diskPath: string) => {
    if (!existsSync(diskPath)) throw new Error(`missing ${diskPath}: run \`bun scripts/rulesets.ts all\``);
    files.set(bundlePath, readFileSync(diskPath));
  };
  // Schemas with their imports, and the data entries (KoSIT's scenarios.xml) a layer reads.
  for (const pin of pins) if (pin.path.endsWith(".xsd") || (pin.role === "entry" && pin.path.endsWith(".xml"))) take(`files/${pin.path}`, join(filesDir, pin.path));
  const entries: BundledEntry[] = index.entries.map((entry) => {
    for (const list of entry.codeLists) take(`files/${list}`, join(filesDir, list));
    if (entry.sef) take(entry.sef.path, join(buildDir, entry.sef.path));
    const native = models.get(entry.id);
    if (!native) throw new Error(`no native model was built for ${entry.id}`);
    if (native.json !== undefined && "model" in native.availability) files.set(native.availability.model, new TextEncoder().encode(native.json));
    // Which rule ids each stylesheet can report: advisories ask whether any artifact that ran enforces a rule.
    return { ...entry, ruleIds: ruleIdsOf(readFileSync(join(buildDir, entry.xslt), "utf8")), native: native.availability };
  });
  files.set("index.json", new TextEncoder().encode(JSON.stringify({ ...index, entries })));
  const bytes = packBundle(files);
  writeAtomically(bundleFile, bytes);
  return { path: bundleFile, files: files.size, bytes: bytes.byteLength, sefs: entries.filter((e) => e.sef).length };
}
