import type { BuildIndex } from "../rulesets/compile";
import type { BundledEntry } from "./build-bundle";
import type { Bundle } from "./bundle-format";

const read = new WeakMap<Bundle, ReadonlyMap<string, BundledEntry>>();

/** The rule entries of a bundle's build index, by entry id (read once per bundle). */
export function bundledEntries(bundle: Bundle): ReadonlyMap<string, BundledEntry> {
  let entries = read.get(bundle);
  if (!entries) {
    const index = JSON.parse(bundle.text("index.json")) as BuildIndex;
    entries = new Map((index.entries as BundledEntry[]).map((e) => [e.id, e]));
    read.set(bundle, entries);
  }
  return entries;
}

export function bundledEntry(bundle: Bundle, entryId: string): BundledEntry {
  const entry = bundledEntries(bundle).get(entryId);
  if (!entry) throw new Error(`no compiled rule file for ${entryId} in the ruleset bundle`);
  return entry;
}
