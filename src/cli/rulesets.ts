import { systemClock, today } from "../clock";
import { UsageError } from "../config";
import { withStorage } from "./storage";
import { pinReader } from "../rulesets/sync";
import { checkHistory, latestChecks, runDriftCheck } from "../rulesets/drift";
import { pins } from "../rulesets/pins";
import { RulesetLifecycle } from "../rulesets/lifecycle";
import { rulesetBundle } from "../assets/bundle";
import { RuleEngines } from "../validation/rule-engines";

/**
 * `rulesets drift-check [--mirror DIR|URL]`: compare every pinned file with its upstream source (or
 * a mirror, for air-gapped sites) and record the outcome. `rulesets status`: versions, their dates,
 * the newest drift check of each with any mismatch history, and the engine that judges each file.
 */
export function rulesetsCommand(sub: string | undefined, flags: Record<string, string | undefined>): Promise<number> {
  return withStorage(flags.db, async (storage) => {
    if (sub === "drift-check") {
      const source = flags.mirror ?? null;
      const summary = await runDriftCheck(storage, systemClock, pinReader(source));
      console.log(`drift check against ${source ?? "upstream"}: ${summary.checked} files, ${summary.matched} match, ${summary.mismatched.length} differ, ${summary.failed.length} could not be read`);
      for (const pin of summary.mismatched) console.log(`  DIFFERS   ${pin.path}`);
      for (const { pin, error } of summary.failed) console.log(`  UNREAD    ${pin.path}: ${error}`);
      return summary.mismatched.length || summary.failed.length ? 1 : 0;
    }
    if (sub === "status") {
      const latest = await latestChecks(storage);
      const lifecycle = new RulesetLifecycle();
      const day = today(systemClock);
      const rules = new RuleEngines(rulesetBundle());
      for (const key of lifecycle.keys()) {
        const newest = lifecycle.latest(key, day);
        for (const row of lifecycle.versionsOf(key)) {
          const files = pins.filter((p) => p.key === key && p.version === row.version);
          const checks = files.map((f) => latest.get(f.path));
          const state = checks.some((c) => !c) ? "never checked" : checks.every((c) => c!.outcome === "match") ? `clean (oldest check ${checks.map((c) => c!.checkedAt).sort()[0]})` : "DRIFT";
          const role =
            row === newest
              ? "latest"
              : row.servingFrom > day
                ? `scheduled from ${row.servingFrom}`
                : lifecycle.pinReachable(row, day)
                  ? `retained until ${row.retainedUntil}`
                  : `no longer served (retained until ${row.retainedUntil})`;
          console.log(`${key} ${row.version}  ${role}  drift: ${state}`);
          for (const line of engineLines(files, rules)) console.log(`    ${line}`);
          for (const file of files) {
            const bad = (await checkHistory(storage, file.path)).filter((h) => h.outcome !== "match");
            for (const h of bad) console.log(`    ${h.checkedAt} ${h.outcome} ${file.path} (${h.source}${h.actualSha256 ? `, got ${h.actualSha256}` : ""}${h.detail ? `: ${h.detail}` : ""})`);
          }
        }
      }
      return 0;
    }
    throw new UsageError("usage: rulesets drift-check [--mirror DIR|URL] | rulesets status");
  });
}

/**
 * Which engine judges each entry file of a version: libxml2 for schemas; for rule files the native
 * engine where the bundle carries its plan (and VALIDATION_ENGINE does not force SaxonJS), else
 * SaxonJS, with the reason the native engine refused the file.
 */
function engineLines(files: typeof pins, rules: RuleEngines): string[] {
  return files
    .filter((f) => f.role === "entry")
    .map((f) => {
      if (f.path.endsWith(".xsd")) return `${f.path}: libxml2-wasm`;
      if (!rules.has(f.path)) return `${f.path}: not in the ruleset bundle`;
      const engine = rules.engineOf(f.path);
      const native = rules.entry(f.path).native;
      const why = engine === "saxonjs" ? ("refused" in native ? ` (native engine: ${native.refused})` : " (VALIDATION_ENGINE=saxonjs)") : "";
      return `${f.path}: ${engine}${why}`;
    });
}

/** The server's optional nightly check (DRIFT_CHECK=nightly): at 02:00 UTC, against DRIFT_CHECK_MIRROR or upstream. */
export function scheduleNightlyDriftCheck(run: () => Promise<unknown>, now = systemClock): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const schedule = () => {
    const t = now();
    const next = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), 2));
    if (next <= t) next.setUTCDate(next.getUTCDate() + 1);
    timer = setTimeout(() => void run().catch((e) => console.error(`nightly drift check failed: ${e.message}`)).finally(schedule), next.getTime() - t.getTime());
  };
  schedule();
  return () => clearTimeout(timer);
}

