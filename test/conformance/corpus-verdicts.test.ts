// Every corpus document through the service's engine, held to its upstream verdict: complete
// documents to expectedValid, unit-test fragments to the rule ids in scope. What still disagrees
// must be listed, with its reason, in known-disagreements.json; the list is checked both ways
// (an unlisted disagreement fails, and so does a listed one that now agrees).

import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cannotRun } from "../support/requirements";
import { allRows, corpusUnavailable, sourceOf } from "./corpus";
import { enginePass } from "./engine-pass";
import { differences, isJudged } from "./verdicts";

interface KnownList {
  reasons: Record<string, string>;
  entries: { path: string; reason: string; differs: string[]; detail?: string }[];
}

const skip = cannotRun("corpus verdicts", corpusUnavailable());

test.skipIf(skip)(
  "the engine agrees with every upstream verdict, except the listed known disagreements",
  async () => {
    const known = JSON.parse(readFileSync(join(import.meta.dir, "known-disagreements.json"), "utf8")) as KnownList;
    const listed = new Map(known.entries.map((e) => [e.path, e]));
    for (const e of known.entries) expect(known.reasons[e.reason], `reason of ${e.path}`).toBeString();

    const rows = allRows();
    const pass = await enginePass(rows);
    const table = new Map<string, { documents: number; judged: number; agree: number; disagree: number; known: number }>();
    const unlisted: { path: string; differs: string[] }[] = [];
    const changed: { path: string; listed: string[]; now: string[] }[] = [];
    const perReason = new Map<string, number>();
    const seen = new Set<string>();

    for (const row of rows) {
      const line = table.get(sourceOf(row)) ?? { documents: 0, judged: 0, agree: 0, disagree: 0, known: 0 };
      table.set(sourceOf(row), line);
      line.documents++;
      if (!isJudged(row)) continue;
      line.judged++;
      const differs = differences(row, pass.records.get(row.path)!);
      const entry = listed.get(row.path);
      if (entry) seen.add(row.path);
      if (differs.length === 0) {
        line.agree++;
        if (entry) changed.push({ path: row.path, listed: entry.differs, now: [] });
      } else if (entry && Bun.deepEquals(entry.differs, differs)) {
        line.known++;
        perReason.set(entry.reason, (perReason.get(entry.reason) ?? 0) + 1);
      } else {
        line.disagree++;
        if (entry) changed.push({ path: row.path, listed: entry.differs, now: differs });
        else unlisted.push({ path: row.path, differs });
      }
    }

    const total = { documents: 0, judged: 0, agree: 0, disagree: 0, known: 0 };
    const lines = [...table].map(([source, l]) => {
      for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += l[k];
      return `  ${source.padEnd(26)}${[l.documents, l.judged, l.agree, l.known, l.disagree].map((n) => String(n).padStart(9)).join("")}`;
    });
    console.log(
      [
        `corpus verdicts: ${rows.length} documents; engine pass ${pass.cached ? `cached, took ${pass.seconds} s when run` : `${pass.seconds} s`} on 2 workers`,
        `  ${"source".padEnd(26)}${["docs", "judged", "agree", "known", "disagree"].map((h) => h.padStart(9)).join("")}`,
        ...lines,
        `  ${"total".padEnd(26)}${[total.documents, total.judged, total.agree, total.known, total.disagree].map((n) => String(n).padStart(9)).join("")}`,
        `  known disagreements by reason: ${[...perReason].map(([r, n]) => `${r} ${n}`).join(", ") || "none"}`,
      ].join("\n"),
    );
    for (const u of unlisted.slice(0, 20)) console.log(`  UNLISTED ${u.path}: ${JSON.stringify(u.differs)}`);
    for (const c of changed.slice(0, 20)) console.log(`  CHANGED ${c.path}: listed ${JSON.stringify(c.listed)}, now ${JSON.stringify(c.now)}`);

    // An entry for a path the corpus no longer has (or that lost its verdict) is stale too.
    expect(known.entries.filter((e) => !seen.has(e.path)).map((e) => e.path)).toEqual([]);
    expect(unlisted).toEqual([]);
    expect(changed).toEqual([]);
  },
  30 * 60_000,
);
