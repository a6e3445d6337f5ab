import type { BuildIndex } from "../rulesets/compile";
import type { BundledEntry } from "./build-bundle";
import type { Bundle } from "./bundle-format";

const read = new WeakMap<Bundle, ReadonlyMap<string, BundledEntry>>();

/** The rule entries of a bundle's build index, by pinned path (read once per bundle). */
export function bundledEntries(bundle: Bundle): ReadonlyMap<string, BundledEntry> {
  let entries = read.get(bundle);
  if (!entries) {
    const index = JSON.parse(bundle.text("index.json")) as BuildIndex;
    entries = new Map((index.entries as BundledEntry[]).map((e) => [e.path, e]));
    read.set(bundle, entries);
  }
  return entries;
}

export function bundledEntry(bundle: Bundle, entryPath: string): BundledEntry {
  const entry = bundledEntries(bundle).get(entryPath);
  if (!entry) throw new Error(`no compiled rule file for ${entryPath} in the ruleset bundle`);
  return entry;
}
