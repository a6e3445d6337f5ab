// The rule files the build compiles: every pinned rule entry, and each part of a pinned Schematron
// entry that a catalogue layer runs on its own (ANAF's CIUS-RO entry runs as two layers). A part is
// compiled by our build from the pinned bytes, never committed; its handle is the entry's path and
// its selection, so its compiled files sit beside the entry's.

import { RECORDS } from "../profiles/catalogue";
import type { PatternSelection } from "../profiles/record";
import { isRuleEntry, pins, type Pin } from "./pins";

export interface RuleEntry {
  /** The handle the build index, the bundle and the rule engines know the compiled file by. */
  id: string;
  pin: Pin;
  patterns?: PatternSelection;
}

/** The handle of the pinned entry at `path`, or of the part of it a selection keeps. */
export function ruleEntryId(path: string, patterns?: PatternSelection): string {
  if (!patterns) return path;
  // Characters that need no escaping in a file name or a URI: xslt3 and Saxon read these paths as both.
  return "phase" in patterns ? `${path}~phase=${patterns.phase}` : `${path}~without=${patterns.without.join(",")}`;
}

/** Every rule layer of the catalogue, the conditional ones included. */
const layerRefs = () => RECORDS.flatMap((r) => [...(r.judge?.rules ?? []), ...(r.judge?.overlays ?? []).map((o) => o.layer)]);

export function ruleEntries(): RuleEntry[] {
  const refs = layerRefs();
  const entries = new Map<string, RuleEntry>();
  for (const pin of pins.filter(isRuleEntry)) {
    entries.set(pin.path, { id: pin.path, pin });
    for (const { key, file, part } of refs) {
      if (!part || pin.path !== `${key}/${pin.version}/${file}`) continue;
      if (!pin.path.endsWith(".sch")) throw new Error(`${pin.path}: only a Schematron entry can run part of its patterns`);
      const id = ruleEntryId(pin.path, part.patterns);
      entries.set(id, { id, pin, patterns: part.patterns });
    }
  }
  return [...entries.values()];
}

/** The pinned files parts seal instead of their entry (`part.sealed`), in every version of their key. */
export function partSealedPins(): Pin[] {
  const sealed = layerRefs().flatMap(({ key, part }) => (part?.sealed ? [{ key, file: part.sealed }] : []));
  return pins.filter((p) => sealed.some(({ key, file }) => p.path === `${key}/${p.version}/${file}`));
}
