import { openStore } from "../db/connection";
import { createDeps } from "../api/deps";
import { createApp } from "../api/app";
import { systemClock } from "../clock";
import { databasePath, listenPort, serverEnv } from "../config";
import { ruleEngineChoice } from "../validation/rule-engines";
import { createOrg, listOrgs } from "../accounts/orgs";
import { createKey } from "../accounts/keys";
import type { Store } from "../db/connection";

/** An empty database gets a default organization and one key of each mode, printed this once. */
function bootstrap(store: Store): string[] {
  if (listOrgs(store.db).length > 0) return [];
  const org = createOrg(store.db, systemClock, { name: "default" });
  const test = createKey(store.db, systemClock, org, "test", "first start");
  const live = createKey(store.db, systemClock, org, "live", "first start");
  return [
    `First start: created organization "default" (plan free, id ${org.id}) and two API keys.`,
    "They are shown only now; keep them (only their hashes are stored):",
    `  test key: ${test.key}`,
    `  live key: ${live.key}`,
    `Try: curl -H "Authorization: Bearer ${test.key}" http://localhost:{port}/v1/me`,
  ];
}

/** DRIFT_CHECK=nightly: compare the pins with upstream (or DRIFT_CHECK_MIRROR) every night at 02:00 UTC. */
async function nightlyDriftCheck(store: Store): Promise<() => void> {
  const { scheduleNightlyDriftCheck } = await import("./rulesets");
  const { runDriftCheck } = await import("../rulesets/drift");
  const { pinReader } = await import("../rulesets/sync");
  const source = process.env.DRIFT_CHECK_MIRROR ?? null;
  console.log(`nightly drift check on, against ${source ?? "upstream"}`);
  return scheduleNightlyDriftCheck(async () => {
    const summary = await runDriftCheck(store.db, systemClock, pinReader(source));
    console.log(`drift check: ${summary.matched}/${summary.checked} match, ${summary.mismatched.length} differ, ${summary.failed.length} unread`);
  });
}

export async function serve(options: { port?: string; db?: string }, memoryNote?: string): Promise<void> {
  const port = listenPort(options.port);
  // Checked here so a mistyped value stops the start with a message, not every worker later.
  const ruleEngine = ruleEngineChoice();
  const store = openStore(databasePath(options.db));
  const firstStart = bootstrap(store);
  const deps = createDeps(store, systemClock, serverEnv());
  const app = createApp(deps).listen({ port, hostname: "0.0.0.0" });
  const actualPort = app.server!.port;
  if (firstStart.length) console.log(firstStart.join("\n").replace("{port}", String(actualPort)));
  console.log(`einvoice listening on http://localhost:${actualPort} (database ${databasePath(options.db)}, rule engine ${ruleEngine === "native" ? "native, SaxonJS for rule files without a native plan" : "SaxonJS (VALIDATION_ENGINE=saxonjs)"})`);
  if (memoryNote) console.log(memoryNote);
  const warming = performance.now();
  deps
    .validation()
    .ready()
    .then(
      () => console.log(`validation workers ready in ${((performance.now() - warming) / 1000).toFixed(1)} s`),
      (error) => console.error(`validation workers failed to start: ${error.message}`),
    );
  const stopDrift = process.env.DRIFT_CHECK === "nightly" ? await nightlyDriftCheck(store) : () => {};
  const stop = () => {
    stopDrift();
    app.stop();
    deps.close();
    store.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
