// Exactly once under kill -9: two real server processes (TRANSMISSION=sandbox) deliver 1,000
// transmissions from one PostgreSQL database while this test kills -9 and restarts them at random
// moments. Afterwards: every transmission is terminal, the sandbox network received each document
// exactly once (one row per transmission, one submission per row), every event chain verifies,
// and billing counted each delivered (or KSeF cleared) transmission once.
//
// Chosen to fit about three minutes on two cores: the transmissions are queued through the storage
// (creation is covered through HTTP elsewhere; delivery is what is on trial here) in batches of 50
// every 250 ms while 6 kills fall at 0.4-2 s intervals, each when its victim holds claims; the
// sandbox clock is moved an hour at the end (and every 10 s while any is open) so the answers that
// come later (MLS RE) arrive. Whatever a killed instance held waits for its 30 s lease to lapse.

import { afterAll, expect, test } from "bun:test";
import postgres from "postgres";
import { openPostgresStorage } from "../../src/db/postgres/storage";
import type { Storage } from "../../src/db/storage";
import { createOrg } from "../../src/accounts/orgs";
import { windowOpening } from "../../src/accounts/quota";
import { verifyChain } from "../../src/transmission/event-chain";
import { isTerminal, type Network, type OutboundStatus } from "../../src/transmission/states";
import { startInstances, stopInstances, type Instance } from "../support/instances";
import { freshDatabase, postgresMissing } from "../support/postgres";
import { cannotRun } from "../support/requirements";
import { queueDirectly } from "../transmission/delivery-support";
import { rng } from "../support/rng";

const TRANSMISSIONS = 1000;
const KILLS = 6;
/** Recipients whose scenarios end without the clock (deliver, crash after send, lost before arrival, refused, KSeF UPO, SDI RC, busy at first) and one that needs it (MLS RE 10 min after the receipt). */
const MIX: { network: Network; id: string }[] = [
  { network: "peppol", id: "acme" },
  { network: "peppol", id: "acme-crash" },
  { network: "peppol", id: "acme-lost" },
  { network: "peppol", id: "acme-rejects" },
  { network: "ksef", id: "pl-acme" },
  { network: "sdi", id: "it-acme" },
  { network: "peppol", id: "acme-negative" },
  { network: "peppol", id: "acme-busy" },
];

let instances: Instance[] = [];
/** Every instance started, killed ones included, for what they logged. */
const everStarted: Instance[] = [];
let storage: Storage | undefined;
afterAll(async () => {
  await stopInstances(instances.filter((i) => i.process.exitCode === null && !i.process.killed));
  // Whatever is still running after a failed run (a restart that outlived its slot) must not outlive the test.
  for (const instance of everStarted) if (instance.process.exitCode === null) instance.process.kill(9);
  await storage?.close();
});

test.skipIf(cannotRun("exactly once under kill -9", postgresMissing()))(
  "1,000 transmissions through two instances killed -9 and restarted at random: each received once, every chain whole, each delivery billed once",
  async () => {
    const started = performance.now();
    const random = rng(Number(process.env.EXACTLY_ONCE_SEED ?? 21)).next;
    const url = await freshDatabase();
    const env = { DATABASE_URL: url, TRANSMISSION: "sandbox" };
    storage = await openPostgresStorage(url);
    const org = await createOrg(storage, () => new Date(), { name: "exactly-once", plan: "scale" });
    instances = await startInstances(2, env);
    everStarted.push(...instances);
    const startedAt = performance.now();

    // Queued in batches while the kills go on, so instances die with work in hand.
    const ids: string[] = [];
    const queueing = (async () => {
      for (let i = 0; i < TRANSMISSIONS; i += 50) {
        const batch = Array.from({ length: Math.min(50, TRANSMISSIONS - i) }, (_, j) => {
          const n = i + j;
          const { network, id } = MIX[n % MIX.length];
          return queueDirectly(storage!, new Date(), { orgId: org.id, livemode: true, network, recipient: { scheme: "0060", id }, xml: `<Invoice><ID>EO-${n}</ID></Invoice>` });
        });
        ids.push(...(await Promise.all(batch)));
        await Bun.sleep(250);
      }
    })();

    const sql = postgres(url, { max: 1, onnotice: () => {} });
    let kills = 0;
    let leasesAtKill = 0;
    let restarts = 0;
    const restarting: Promise<void>[] = [];
    while (kills < KILLS) {
      await Bun.sleep(400 + random() * 1600);
      const slot = Math.floor(random() * instances.length);
      const victim = instances[slot];
      if (victim.process.exitCode !== null || victim.process.killed) continue;
      // At a moment it holds claims (its lease owner names its pid), so it dies with work in hand.
      const holding = `%:${victim.process.pid}:%`;
      for (let waited = 0; waited < 2000 && Number((await sql`SELECT count(*) AS n FROM transmissions WHERE lease_owner LIKE ${holding}`)[0].n) === 0; waited += 10) await Bun.sleep(10);
      leasesAtKill += Number((await sql`SELECT count(*) AS n FROM transmissions WHERE lease_owner LIKE ${holding}`)[0].n);
      victim.process.kill(9);
      kills++;
      restarting.push(
        startInstances(1, env).then(([fresh]) => {
          instances[slot] = fresh;
          everStarted.push(fresh);
          restarts++;
        }),
      );
    }
    await Promise.all([queueing, ...restarting]);
    const chaosEnded = performance.now();
    await sql.end();
    await storage.sandbox.advance(org.id, 3_600_000);

    const open = async () => {
      const rows = await Promise.all(ids.map((id) => storage!.transmissions.byId(org.id, id)));
      return rows.map((r) => r!).filter((r) => !isTerminal("outbound", r.status as OutboundStatus, r.network as Network));
    };
    const deadline = Date.now() + 100_000;
    let left = await open();
    for (let round = 1; left.length > 0 && Date.now() < deadline; round++) {
      await Bun.sleep(1000);
      // What a killed instance submitted only after the clock moved waits for its later answers on the sandbox clock.
      if (round % 10 === 0) await storage.sandbox.advance(org.id, 3_600_000);
      left = await open();
    }
    const settled = performance.now();
    await stopInstances(instances);

    const rows = (await Promise.all(ids.map((id) => storage!.transmissions.byId(org.id, id)))).map((r) => r!);
    const received = await storage.sandbox.all();
    const perTransmission = new Map<string, number>();
    let submissions = 0;
    for (const row of received) {
      perTransmission.set(row.transmissionId, (perTransmission.get(row.transmissionId) ?? 0) + 1);
      submissions += JSON.parse(row.state).submissions;
    }
    const broken: string[] = [];
    let attempts = 0;
    let reconciled = 0;
    let cutShort = 0;
    for (const row of rows) {
      const events = (await storage.transmissions.events(row.id)).map((e) => ({ ...e, data: JSON.parse(e.data) }));
      if (!verifyChain(row.id, events, row.headHash).chainOk) broken.push(row.id);
      const tried = await storage.delivery.attempts(row.id);
      attempts += tried.length;
      reconciled += tried.filter((a) => a.outcome === "found" || a.detail?.includes("refused it")).length;
      cutShort += tried.filter((a) => a.outcome === null).length;
    }
    const byStatus: Record<string, number> = {};
    for (const row of rows) byStatus[`${row.network}:${row.status}`] = (byStatus[`${row.network}:${row.status}`] ?? 0) + 1;
    const billable = rows.filter((r) => r.status === "delivered" || (r.network === "ksef" && r.status === "cleared"));
    const { used } = (await storage.quota.read(windowOpening(new Date(), org, true)))!;
    const report = {
      transmissions: TRANSMISSIONS,
      kills,
      /** Leases the killed instances held around the moment they died (read just before the kill). */
      leasesAtKill,
      restarts,
      seconds: {
        total: Math.round((performance.now() - started) / 1000),
        firstStart: Math.round((startedAt - started) / 1000),
        killsAndRestarts: Math.round((chaosEnded - startedAt) / 1000),
        settling: Math.round((settled - chaosEnded) / 1000),
      },
      stillOpen: await Promise.all(
        left.map(async (r) => ({
          row: `${r.id} ${r.network}:${r.status} to ${r.counterpartyId} lease ${r.leaseOwner} until ${r.leaseUntil} next ${r.nextAttemptAt}`,
          attempts: (await storage!.delivery.attempts(r.id)).map((a) => `${a.n} ${a.outcome} ${a.detail}`),
          events: (await storage!.transmissions.events(r.id)).map((e) => e.type),
        })),
      ),
      workerErrors: everStarted.flatMap((i) => i.output().split("\n").filter((line) => line.startsWith("delivery:"))).slice(0, 20),
      byStatus,
      sandboxRows: received.length,
      sandboxSubmissions: submissions,
      attempts,
      /** Attempts an instance died in the middle of. */
      attemptsCutShort: cutShort,
      /** The provider already held the reference (crash-after-send scenarios and kills after the call): not sent again. */
      reconciledWithoutResend: reconciled,
      brokenChains: broken.length,
      billable: billable.length,
      unitsBilled: used,
    };
    console.log(`exactly once under kill -9: ${JSON.stringify(report, null, 2)}`);

    expect(report.stillOpen).toEqual([]);
    // Every scenario in the mix reaches the network; each reached it once, under one reference.
    expect(received.length).toBe(TRANSMISSIONS);
    expect(perTransmission.size).toBe(TRANSMISSIONS);
    expect(submissions).toBe(TRANSMISSIONS);
    expect(broken).toEqual([]);
    expect(used).toBe(billable.length);
    expect(rows.filter((r) => r.billedAt !== null).length).toBe(billable.length);
    expect(kills).toBe(KILLS);
  },
  240_000,
);
