import { openStore } from "../db/connection";
import { systemClock } from "../clock";
import { databasePath, UsageError } from "../config";
import { pinReader } from "../rulesets/sync";
import { checkHistory, latestChecks, runDriftCheck } from "../rulesets/drift";
import { pins } from "../rulesets/pins";
import { RulesetLifecycle } from "../rulesets/lifecycle";

/**
 * `rulesets drift-check [--mirror DIR|URL]`: compare every pinned file with its upstream source (or
 * a mirror, for air-gapped sites) and record the outcome. `rulesets status`: versions, their dates,
 * and the newest drift check of each, with any mismatch history.
 */
export async function rulesetsCommand(sub: string | undefined, flags: Record<string, string | undefined>): Promise<number> {
  const store = openStore(databasePath(flags.db));
  try {
    if (sub === "drift-check") {
      const source = flags.mirror ?? null;
      const summary = await runDriftCheck(store.db, systemClock, pinReader(source));
      console.log(`drift check against ${source ?? "upstream"}: ${summary.checked} files, ${summary.matched} match, ${summary.mismatched.length} differ, ${summary.failed.length} could not be read`);
      for (const pin of summary.mismatched) console.log(`  DIFFERS   ${pin.path}`);
      for (const { pin, error } of summary.failed) console.log(`  UNREAD    ${pin.path}: ${error}`);
      return summary.mismatched.length || summary.failed.length ? 1 : 0;
    }
    if (sub === "status") {
      const latest = latestChecks(store.db);
      const lifecycle = new RulesetLifecycle();
      const today = systemClock().toISOString().slice(0, 10);
      for (const key of lifecycle.keys()) {
        const newest = lifecycle.latest(key, today);
        for (const row of lifecycle.versionsOf(key)) {
          const files = pins.filter((p) => p.key === key && p.version === row.version);
          const checks = files.map((f) => latest.get(f.path));
          const state = checks.some((c) => !c) ? "never checked" : checks.every((c) => c!.outcome === "match") ? `clean (oldest check ${checks.map((c) => c!.checkedAt).sort()[0]})` : "DRIFT";
          const role =
            row === newest
              ? "latest"
              : row.servingFrom > today
                ? `scheduled from ${row.servingFrom}`
                : lifecycle.pinReachable(row, today)
                  ? `retained until ${row.retainedUntil}`
                  : `no longer served (retained until ${row.retainedUntil})`;
          console.log(`${key} ${row.version}  ${role}  engine ${engineOf(files)}  drift: ${state}`);
          for (const file of files) {
            const bad = checkHistory(store.db, file.path).filter((h) => h.outcome !== "match");
            for (const h of bad) console.log(`    ${h.checkedAt} ${h.outcome} ${file.path} (${h.source}${h.actualSha256 ? `, got ${h.actualSha256}` : ""}${h.detail ? `: ${h.detail}` : ""})`);
          }
        }
      }
      return 0;
    }
    throw new UsageError("usage: rulesets drift-check [--mirror DIR|URL] | rulesets status");
  } finally {
    store.close();
  }
}

/** Which engine judges a version's entry files: libxml2 for schemas, SaxonJS for rule files. */
function engineOf(files: typeof pins): string {
  const entries = files.filter((f) => f.role === "entry");
  const engines = new Set(entries.map((f) => (f.path.endsWith(".xsd") ? "libxml2-wasm (XSD)" : "saxonjs (SEF)")));
  return [...engines].sort().join(" + ");
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

