// Build step for the pinned rulesets.
//
//   bun scripts/rulesets.ts sync                 copy (or download) and verify every pinned file
//   bun scripts/rulesets.ts compile [--force] [--only <substr>]...   compile rule entries to SEF
//   bun scripts/rulesets.ts all                  sync, then compile
//
// Environment: RULESETS_MIRROR = directory laid out like the pins (default ../shared/rulesets
// when present; otherwise files are downloaded from their upstream URLs).

import { compileRulesets, indexPath } from "../src/rulesets/compile";
import { mirrorDir, syncRulesets } from "../src/rulesets/sync";

async function sync(): Promise<void> {
  const mirror = mirrorDir();
  console.log(mirror ? `sync: from mirror ${mirror}` : "sync: no mirror, downloading from upstream");
  const r = await syncRulesets({
    mirror,
    onFile: (pin, action) => action !== "present" && console.log(`  ${action} ${pin.path}`),
  });
  console.log(`sync: ${r.present} already present, ${r.copied} copied, ${r.downloaded} downloaded; all hashes verified`);
}

async function compile(args: string[]): Promise<void> {
  const only = args.flatMap((a, i) => (args[i - 1] === "--only" ? [a] : []));
  const started = performance.now();
  const { index, skipped } = await compileRulesets({
    only,
    force: args.includes("--force"),
    onEvent: (e) => {
      if (e.kind === "cached") console.log(`  cached   ${e.pin.path}`);
      else if (e.kind === "start") console.log(`  compile  ${e.pin.path} ...`);
      else if (e.kind === "done") {
        const mb = (e.entry.sefBytes / 1e6).toFixed(1);
        console.log(`  done     ${e.pin.path}: ${e.entry.compileSeconds} s, ${mb} MB, rewrites ${JSON.stringify(e.entry.rewrites)}`);
      } else console.warn(`  SKIPPED  ${e.reason}`);
    },
  });
  const secs = ((performance.now() - started) / 1000).toFixed(0);
  console.log(`compile: ${index.entries.length} SEFs in ${indexPath} (${secs} s this run)`);
  if (skipped.length) console.warn(`compile: ${skipped.length} Schematron entries NOT compiled (no Schematron compiler yet)`);
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === "sync") await sync();
  else if (command === "compile") await compile(rest);
  else if (command === "all") {
    await sync();
    await compile(rest);
  } else {
    console.error("usage: bun scripts/rulesets.ts sync | compile [--force] [--only <substr>]... | all");
    process.exit(2);
  }
} catch (e) {
  console.error(`rulesets ${command}: ${(e as Error).message}`);
  process.exit(1);
}
