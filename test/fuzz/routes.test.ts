// Mutated XML, PDF and JSON bodies against every route that takes a body, on a real `serve`
// process with its memory target, bounded in count and time, from a fixed seed. Holds the bounds
// docs/security.md promises: no 5xx but a documented 503 that returns the unit, every answer
// within the request deadline, the process's peak memory (VmHWM) within the memory target plus
// the documented margin, and GET /v1/me answered quickly throughout.
//
//   FUZZ_SEED=7 FUZZ_REQUESTS=2000 bun test test/fuzz/routes.test.ts   (a longer run)

import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { API_ROUTES } from "../../src/api/app";
import { defaultTargetMiB } from "../../src/cli/memory-target";
import { defaultWorkerCount } from "../../src/config";
import { cliOf, createKeys, startServer, type Server } from "../../bench/server";
import { CORPUS_DIR, corpusMissing } from "../support/corpus";
import { cannotRun } from "../support/requirements";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";
import { mutate, type BodyKind } from "./mutate";
import { rng } from "../support/rng.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 360);
const CLIENTS = 3;
const DEADLINE_MS = 15_000;
/** Answers may trail the deadline by the time to write them. */
const DEADLINE_SLACK_MS = 2_000;
/**
 * docs/security.md: the peak may pass the memory target by this much. Heaps are sized for the
 * target, not capped by it, and each worker judging a 1 MB document of a quarter million elements
 * holds its tree, libxml2's and a rule run's garbage at once (two such at once peaked at target + 180).
 */
const MEMORY_MARGIN_MIB = 192;
/**
 * A liveness bound, not a speed target (those live in the bench): were caller bytes worked on the
 * HTTP thread, a GET /v1/me sent meanwhile would wait the seconds a 1 MB document takes. On a
 * shared two-core machine whose workers are busy, a quick answer may still take over 100 ms.
 */
const ME_WITHIN_MS = 1_000;

const repo = join(import.meta.dir, "../..");
const command = [process.execPath, join(repo, "src/main.ts")];
const encoder = new TextEncoder();

/** Seed bodies per route, by media type; a route that takes a body and has no seed here fails the test. */
function seeds(): Record<string, { kind: BodyKind; contentType: string; bytes: Uint8Array; query?: string }[]> {
  const corpus = (path: string) => new Uint8Array(readFileSync(join(CORPUS_DIR, path)));
  const documents = [
    { kind: "xml" as const, contentType: "application/xml", bytes: corpus("xrechnung-testsuite/src/test/business-cases/standard/01.01a-INVOICE_ubl.xml") },
    { kind: "xml" as const, contentType: "application/xml", bytes: corpus("xrechnung-testsuite/src/test/business-cases/standard/01.02a-INVOICE_uncefact.xml") },
    { kind: "pdf" as const, contentType: "application/pdf", bytes: corpus("zugferd-corpus/XML-Rechnung/FX/EN16931_AbweichenderZahlungsempf.pdf") },
  ];
  const invoice = SCENARIOS[0].build(LOCALES.de);
  const json = (value: unknown) => ({ kind: "json" as const, contentType: "application/json", bytes: encoder.encode(JSON.stringify(value)) });
  const parties = { sender: { scheme: "0088", id: "4000001000005" }, recipient: { scheme: "0088", id: "4000001000012" } };
  const ubl = new TextDecoder().decode(documents[0].bytes);
  return {
    "/v1/validate": documents,
    "/v1/parse": documents,
    "/v1/receive": documents,
    "/v1/send": [json({ standard: "xrechnung", syntax: "ubl", invoice, network: "peppol", ...parties })],
    "/v1/transmissions": [json({ network: "peppol", ...parties, format: "ubl", xml: ubl })],
    // The path as declared: the provider is ":providerId", unknown, or the signature fails first.
    "/v1/inbox/:providerId": [json({ messageId: "fuzz-1", sender: parties.recipient, recipient: parties.sender, format: "ubl", xml: ubl })],
    "/v1/webhooks": [json({ url: "https://hooks.example.com/einvoice", eventTypes: ["transmission.delivered"] })],
    "/v1/convert": documents.flatMap((d) => ["?targetFormat=cii", "?targetFormat=ubl", "?targetFormat=facturx&targetProfile=basic"].map((query) => ({ ...d, query }))),
    "/v1/generate": [json({ standard: "xrechnung", output: "xml", invoice }), json({ standard: "facturx", profile: "en16931", output: "pdf", invoice })],
    "/v1/pdf-templates": [json({ name: "fuzz", definition: { accentColor: "#1F4E79", footerText: "Fuzz GmbH", language: "de", show: { notes: true } } })],
  };
}

const skip = cannotRun("fuzz of the body routes", corpusMissing);
let dir: string;
let server: Server;
let keys: string[];
let pollKey: string;

beforeAll(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), "einvoice-fuzz-"));
  const db = join(dir, "fuzz.sqlite");
  const cli = cliOf(command, db);
  keys = createKeys(cli, "fuzz", CLIENTS);
  [pollKey] = createKeys(cli, "poll", 1);
  // Transmission on, so its routes judge what they are sent instead of refusing at the door.
  server = await startServer(command, db, pollKey, { REQUEST_DEADLINE_MS: String(DEADLINE_MS), TRANSMISSION: "sandbox" });
  await server.workersReady;
}, 120_000);

afterAll(() => {
  server?.proc.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The kernel's high-water mark (VmHWM) or current resident size (VmRSS) of a process, in MiB. */
function memoryMiB(pid: number, field: "VmHWM" | "VmRSS"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(status.match(new RegExp(`${field}:\\s+(\\d+) kB`))![1]) / 1024;
}

test.skipIf(skip)(
  "mutated bodies on every body route: no unexplained 5xx, answers within the deadline, memory within the target, /v1/me stays quick",
  async () => {
    const bodySeeds = seeds();
    const bodyRoutes = API_ROUTES.filter((r) => r.body && r.method === "POST");
    expect(bodyRoutes.map((r) => r.path).filter((p) => !bodySeeds[p])).toEqual([]);

    // The plan first: building its PDF bombs takes seconds, which must not stall the poller.
    const r = rng(SEED);
    const plan = Array.from({ length: REQUESTS }, (_, i) => {
      const route = bodyRoutes[i % bodyRoutes.length];
      const seed = r.pick(bodySeeds[route.path]);
      return { route: route.path + (seed.query ?? ""), metered: route.doc.metered === true, contentType: seed.contentType, ...mutate(seed.kind, seed.bytes, r) };
    });
    const problems: string[] = [];
    const statuses = new Map<string, number>();
    let slowestMe = 0;
    /** What was in flight, so a slow GET /v1/me names its likely cause. */
    const inFlight = new Set<string>();
    /** The largest resident size the poller saw, and what was in flight then. */
    let largest = { mib: 0, inFlight: "" };
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const started = performance.now();
        const res = await fetch(`${server.base}/v1/me`, { headers: { authorization: `Bearer ${pollKey}` } });
        await res.arrayBuffer();
        const took = performance.now() - started;
        slowestMe = Math.max(slowestMe, took);
        if (res.status !== 200) problems.push(`GET /v1/me answered ${res.status}`);
        if (took > ME_WITHIN_MS) problems.push(`GET /v1/me took ${took.toFixed(0)} ms, with in flight: ${[...inFlight].join("; ")}`);
        const rss = memoryMiB(server.proc.pid, "VmRSS");
        if (rss > largest.mib) largest = { mib: rss, inFlight: [...inFlight].join("; ") };
        await Bun.sleep(150);
      }
    })();

    let next = 0;
    const client = async (key: string) => {
      while (next < plan.length) {
        const i = next++;
        const { route, metered, contentType, mutator, bytes } = plan[i];
        const what = `#${i} ${route} ${mutator} (${bytes.byteLength} bytes)`;
        inFlight.add(what);
        const started = performance.now();
        const res = await fetch(`${server.base}${route}`, { method: "POST", body: bytes as BodyInit, headers: { authorization: `Bearer ${key}`, "content-type": contentType } });
        const text = await res.text();
        const took = performance.now() - started;
        inFlight.delete(what);
        statuses.set(`${route} ${res.status}`, (statuses.get(`${route} ${res.status}`) ?? 0) + 1);
        if (took > DEADLINE_MS + DEADLINE_SLACK_MS) problems.push(`${what}: answered after ${took.toFixed(0)} ms`);
        if (res.status >= 500) {
          const code = res.status === 503 ? (JSON.parse(text).error?.code as string | undefined) : undefined;
          const refunded = res.headers.get("x-service-quota-refunded");
          // A metered route says what became of the unit; an unmetered one spent none.
          if (!(code === "ENGINE_UNAVAILABLE" && (refunded !== null || !metered) && res.headers.has("retry-after"))) problems.push(`${what}: ${res.status} ${text.slice(0, 300)}`);
        }
      }
    };
    await Promise.all(keys.map(client));
    polling = false;
    await poller;

    const peak = memoryMiB(server.proc.pid, "VmHWM");
    const target = defaultTargetMiB(defaultWorkerCount());
    console.log(
      [
        `fuzz: seed ${SEED}, ${REQUESTS} requests on ${bodyRoutes.length} routes; peak ${peak.toFixed(0)} MiB (target ${target} + ${MEMORY_MARGIN_MIB}); slowest GET /v1/me ${slowestMe.toFixed(0)} ms`,
        `  ${[...statuses].sort().map(([k, n]) => `${k}: ${n}`).join(", ")}`,
        `  largest resident size seen ${largest.mib.toFixed(0)} MiB, with in flight: ${largest.inFlight}`,
      ].join("\n"),
    );
    expect(problems).toEqual([]);
    expect(peak).toBeLessThanOrEqual(target + MEMORY_MARGIN_MIB);
  },
  10 * 60_000,
);
