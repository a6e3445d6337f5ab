import { openStorage } from "../db/open";
import { isPostgresUrl, redactedLocation } from "../db/location";
import { createDeps } from "../api/deps";
import type { Metrics } from "../api/metrics";
import { createApp } from "../api/app";
import { systemClock } from "../clock";
import { DEFAULT_DATABASE_PATH, serverSettings, UsageError, type RuleEngineChoice } from "../config";
import { listenMetricsApart } from "../api/metrics-endpoint";
import { createOrg, listOrgs } from "../accounts/orgs";
import { createKey } from "../accounts/keys";
import { createSignInLink } from "../dashboard/sign-in";
import { signInUrl } from "./dashboard";
import type { Storage } from "../db/storage";
import { rulesetBundle } from "../assets/bundle";
import { startWebhookLoop } from "../webhooks/dispatcher";
import { startTransmissionUpkeep } from "../transmission/upkeep";
import { bundledEntries } from "../assets/bundled-entries";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join, resolve } from "node:path";

/** Where a first start without a terminal leaves the two keys, beside the database. */
const FIRST_START_KEYS_FILE = "first-start-keys.txt";

interface FirstStart {
  orgId: string;
  testKey: string;
  liveKey: string;
  /** A one-time dashboard sign-in link's token. */
  signIn: string;
}

/**
 * An empty database gets a default organization and one key of each mode, shown this once. Under
 * the database's lock, so of several instances starting at once on one database only one does it.
 */
async function bootstrap(storage: Storage): Promise<FirstStart | null> {
  const done = await storage.exclusively("bootstrap", true, async () => {
    if ((await listOrgs(storage)).length > 0) return null;
    const org = await createOrg(storage, systemClock, { name: "default" });
    const test = await createKey(storage, systemClock, org, "test", "first start");
    const live = await createKey(storage, systemClock, org, "live", "first start");
    const link = await createSignInLink(storage, systemClock, org);
    return { orgId: org.id, testKey: test.key, liveKey: live.key, signIn: link.token };
  });
  return done.ran ? done.value : null;
}

/**
 * The first start's keys must not end up in a log. A terminal shows them once; anything else (a
 * service manager, a container, a pipe) gets only the path of a file beside the database that
 * only this user can read. Returns what to print.
 */
function handOverKeys(first: FirstStart, location: string, port: number): string {
  const created = `First start: created organization "default" (plan free, id ${first.orgId}) and two API keys, and a dashboard sign-in link.`;
  const keys = [
    `  test key: ${first.testKey}`,
    `  live key: ${first.liveKey}`,
    `Try: curl -H "Authorization: Bearer ${first.testKey}" http://localhost:${port}/v1/me`,
    `Dashboard: ${signInUrl(`http://localhost:${port}`, first.signIn)} (one use, 15 minutes; another: einvoice dashboard link --org default)`,
  ];
  if (process.stdout.isTTY) return [created, "They are shown only now; keep them (only their hashes are stored):", ...keys].join("\n");
  // Beside a SQLite file; for PostgreSQL, in the directory the default SQLite file would use.
  const file = join(dirname(resolve(isPostgresUrl(location) ? DEFAULT_DATABASE_PATH : location)), FIRST_START_KEYS_FILE);
  mkdirSync(dirname(file), { recursive: true });
  // Created afresh, so an older file's wider mode cannot carry over.
  rmSync(file, { force: true });
  writeFileSync(file, [created, "Keep them (only their hashes are stored), then delete this file.", ...keys, ""].join("\n"), { mode: 0o600, flag: "wx" });
  return `${created} They are in ${file}, readable only by this user: keep them, then delete the file.`;
}

/** DRIFT_CHECK=nightly: compare the pins with upstream (or DRIFT_CHECK_MIRROR) every night at 02:00 UTC. */
async function nightlyDriftCheck(storage: Storage, mirror: string | null): Promise<() => void> {
  const { scheduleNightlyDriftCheck } = await import("./rulesets");
  const { runDriftCheck } = await import("../rulesets/drift");
  const { pinReader } = await import("../rulesets/sync");
  console.log(`nightly drift check on, against ${mirror ?? "upstream"}`);
  return scheduleNightlyDriftCheck(async () => {
    // Every instance schedules it; the one that takes the lock runs it, the others skip this night.
    const run = await storage.exclusively("drift-check", false, () => runDriftCheck(storage, systemClock, pinReader(mirror)));
    if (!run.ran) return console.log("drift check: another instance is running it");
    const summary = run.value;
    console.log(`drift check: ${summary.matched}/${summary.checked} match, ${summary.mismatched.length} differ, ${summary.failed.length} unread`);
  });
}

/** TRANSMISSION=sandbox: this instance's delivery worker, leased under a name of its own among the instances on the database. */
async function sandboxDelivery(storage: Storage, metrics: Metrics) {
  const { sandboxWorker } = await import("../transmission/sandbox/provider");
  const owner = `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  const worker = sandboxWorker(storage, systemClock, owner, (line) => console.error(line), (status) => metrics.countTransmission(status));
  worker.start();
  console.log(`delivery worker ${owner} on (sandbox network)`);
  return worker;
}

/**
 * What the start line says of the rule engine, from one pass over the bundle index. The default
 * names SaxonJS only while some rule file has no native plan. VALIDATION_ENGINE=saxonjs runs every
 * rule file on SaxonJS, so every one needs its compiled stylesheet; the default build makes them
 * only for the files without a native plan. Refused at start rather than as a 503 on each request.
 */
function ruleEngineNote(ruleEngine: RuleEngineChoice): string {
  const entries = [...bundledEntries(rulesetBundle()).values()];
  if (ruleEngine === "saxonjs") {
    const missing = entries.filter((entry) => !entry.sef).length;
    if (missing > 0) {
      throw new UsageError(`VALIDATION_ENGINE=saxonjs: the ruleset bundle has no SaxonJS stylesheet for ${missing} rule files; \`VALIDATION_ENGINE=saxonjs npm start\` compiles them before it serves`);
    }
    return "SaxonJS (VALIDATION_ENGINE=saxonjs)";
  }
  const refused = entries.filter((entry) => "refused" in entry.native).length;
  return refused ? `native, SaxonJS for the ${refused} rule files without a native plan` : "native";
}

export async function serve(options: { port?: string; db?: string }, memoryNote?: string): Promise<void> {
  // Before anything opens: a mistyped value stops the start with a message, not a worker or a request later.
  const settings = serverSettings(options);
  const { http, ruleEngine, database } = settings;
  const engineNote = ruleEngineNote(ruleEngine);
  const storage = await openStorage(database.location, database.postgres);
  const deps = createDeps(storage, systemClock, { requestDeadlineMs: settings.requestDeadlineMs, metrics: settings.metrics, transmission: settings.transmission });
  const app = createApp(deps, [], http).listen({ port: settings.port, hostname: "0.0.0.0" });
  const actualPort = app.server!.port!;
  // After the listen: a port already taken stops the start before any key exists to be lost.
  const firstStart = await bootstrap(storage);
  if (firstStart) console.log(handOverKeys(firstStart, database.location, actualPort));
  console.log(`einvoice listening on http://localhost:${actualPort} (database ${redactedLocation(database.location)}, rule engine ${engineNote})`);
  const metricsApart = deps.config.metrics && http.metricsPort !== null ? listenMetricsApart(deps.metrics, http.metricsToken, http.metricsPort) : null;
  if (metricsApart) console.log(`metrics on http://127.0.0.1:${metricsApart.port}/metrics only`);
  if (memoryNote) console.log(memoryNote);
  const warming = performance.now();
  deps
    .workers()
    .ready()
    .then(
      () => console.log(`validation workers ready in ${((performance.now() - warming) / 1000).toFixed(1)} s`),
      (error) => console.error(`validation workers failed to start: ${error.message}`),
    );
  const stopDrift = settings.driftCheck ? await nightlyDriftCheck(storage, settings.driftCheck.mirror) : () => {};
  const webhooks = startWebhookLoop(storage, systemClock, settings.transmission, deps.metrics);
  const upkeep = startTransmissionUpkeep(storage, systemClock, settings.transmission, deps.workers, `instance-${crypto.randomUUID()}`);
  const delivery = settings.transmission.provider === "sandbox" ? await sandboxDelivery(storage, deps.metrics) : null;
  const stop = () => {
    stopDrift();
    metricsApart?.stop();
    app.stop();
    deps.close();
    // The passes in flight finish their moves (and so release their leases) before the database closes.
    void Promise.all([webhooks?.stop(), upkeep?.stop(), delivery?.stop()])
      .then(() => storage.close())
      .finally(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
