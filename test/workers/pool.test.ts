// Every job the pool takes settles, and every slot (the pool's and admission's) comes free again, on
// every path: success, refusal, fault, deadline, worker death, replacement, a worker that cannot load.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { engineWorkerOptions, WorkerPool, type PoolOptions } from "../../src/workers/pool";
import { JobsRunning } from "../../src/workers/jobs-running";
import type { SchemaAnswer, WorkerReply, WorkerRequest } from "../../src/workers/protocol";
import { Admission, EngineUnavailable } from "../../src/engine/admission";
import { DomainError } from "../../src/errors/domain-error";
import type { InvoiceOrder } from "../../src/generate/generate-invoice";

const SCRIPT = new URL("./scripted-worker.ts", import.meta.url).href;
const bytes = (command: string) => new TextEncoder().encode(command);
const never = new AbortController().signal;

/** A pool of scripted workers; `loads` says how each worker started from now on loads. */
function scriptedPool(size: number, loads: () => string = () => "ok", options: PoolOptions = {}) {
  const pool = new WorkerPool(size, { warm: [], createWorker: (jobsRunning) => new Worker(SCRIPT, { argv: [loads()], workerData: { jobsRunning: jobsRunning.shared } } as Bun.WorkerOptions), loadTimeoutMs: 1_000, restartDelayMs: 200, ...options });
  pools.push(pool);
  return pool;
}
const pools: WorkerPool[] = [];
afterEach(() => {
  for (const pool of pools.splice(0)) pool.close();
});

/** The scripted worker answers `{ done: command }` where the real one answers a verdict. */
const job = (pool: WorkerPool, command: string, signal = never): Promise<unknown> => pool.validate({ bytes: bytes(command) }, signal);
const failure = (p: Promise<unknown>) => p.then(() => undefined, (error: Error) => error);
const settlesWithin = (p: Promise<unknown>, ms: number) => Promise.race([p.then(() => "settled", () => "settled"), Bun.sleep(ms).then(() => "stuck")]);

/** Polls until the pool holds no job at all (warm-ups of replacement workers included). */
async function drained(pool: WorkerPool, ms = 5_000) {
  for (const end = Date.now() + ms; Date.now() < end; await Bun.sleep(20)) if (pool.stats.busy === 0 && pool.stats.pending === 0) return pool.stats;
  return pool.stats;
}

describe("the wedge of issue 14: a deadline while the worker is being replaced", () => {
  test("with the real worker: a job aborted before its replacement worker loaded is answered, and the slot is free again", async () => {
    const pool = new WorkerPool(1);
    pools.push(pool);
    await pool.ready();
    const first = new AbortController();
    const a = job(pool, "<x/>", first.signal);
    first.abort(); // the deadline: the worker is replaced and its successor starts loading
    expect(await settlesWithin(a, 5_000)).toBe("settled");
    const second = new AbortController();
    const b = job(pool, "<x/>", second.signal);
    second.abort(); // the deadline again, before the successor has loaded
    expect(await settlesWithin(b, 5_000)).toBe("settled");
    expect(pool.stats.busy).toBe(0);
    const outcome = await pool.validate({ bytes: bytes("<x/>") }, never);
    expect(outcome.ok).toBe(true);
  }, 60_000);

  test("with a slow-loading worker, through admission: two such leaks no longer starve every later job", async () => {
    const pool = scriptedPool(2, () => "slow:300");
    const admission = new Admission({ concurrency: 2, maxQueue: 16 });
    await pool.ready();
    const run = (command: string, deadlineMs: number) => admission.run((signal) => job(pool, command, signal), Date.now() + deadlineMs);
    // Two jobs run into their deadline; their workers are replaced and load for 300 ms. Two more
    // jobs take the slots meanwhile and reach their deadline before the new workers listen.
    await Promise.all([failure(run("spin", 50)), failure(run("spin", 50))]);
    await Promise.all([failure(run("ok", 50)), failure(run("ok", 50))]);
    await Bun.sleep(100);
    expect(admission.stats).toMatchObject({ running: 0, queued: 0 });
    expect(pool.stats.busy).toBe(0);
    const later = await Promise.all(Array.from({ length: 5 }, () => run("ok", 5_000)));
    expect(later).toEqual(Array.from({ length: 5 }, () => ({ done: "ok" })));
  }, 20_000);
});

describe("every path settles the job and frees the slot", () => {
  test("success, and a refusal rebuilt as the DomainError it was, with status, code, message and details", async () => {
    const pool = scriptedPool(1);
    expect(await job(pool, "ok")).toEqual({ done: "ok" });
    const refused = await failure(pool.parse(bytes("refuse"), "auto", never));
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ status: 400, code: "PARSE_FAILED", message: "the document cannot be read: scripted", details: { format: "ubl" } });
    expect(pool.stats).toMatchObject({ busy: 0, pending: 0 });
  });

  test("a generate job has its unit spent when it asks, once; spending that throws ends the job with that error, and the worker stays", async () => {
    const pool = scriptedPool(1);
    const order = (note: string) => ({ request: { invoice: { note } }, livemode: true }) as unknown as InvoiceOrder;
    let spent = 0;
    const spend = async () => void spent++;
    expect((await pool.generate(order("ok"), spend, never)) as unknown).toEqual({ done: "ok" });
    expect(spent).toBe(1);
    expect(await failure(pool.generate(order("refuse"), spend, never))).toBeInstanceOf(DomainError);
    expect(spent).toBe(1);
    const noUnit = new Error("no unit left");
    expect(await failure(pool.generate(order("ok"), async () => { throw noUnit; }, never))).toBe(noUnit);
    expect(await failure(pool.generate(order("ok/exit"), spend, never))).toMatchObject({ computed: true, message: expect.stringContaining("the engine worker stopped") });
    expect(spent).toBe(2);
    expect(await job(pool, "ok")).toEqual({ done: "ok" });
    expect(pool.stats).toMatchObject({ busy: 0, pending: 0 });
  });

  test("a fault in the job is EngineUnavailable with compute spent; the worker stays", async () => {
    const pool = scriptedPool(1);
    const error = await failure(job(pool, "fault"));
    expect(error).toBeInstanceOf(EngineUnavailable);
    expect(error).toMatchObject({ computed: true, message: expect.stringContaining("scripted fault") });
    expect(await job(pool, "ok")).toEqual({ done: "ok" });
  });

  for (const command of ["exit", "crash", "exit-in:50"]) {
    test(`a worker that dies during the job (${command}) fails it, and a new worker takes the slot`, async () => {
      const pool = scriptedPool(1);
      const error = await failure(job(pool, command));
      expect(error).toBeInstanceOf(EngineUnavailable);
      expect(error).toMatchObject({ computed: true, message: expect.stringContaining("the engine worker stopped") });
      expect(pool.stats.busy).toBe(0);
      expect(await job(pool, "ok")).toEqual({ done: "ok" });
    });
  }

  test("a deadline during a job that never yields stops the worker at once; its replacement's warm-up holds no slot", async () => {
    const pool = scriptedPool(1, () => "slow:200");
    const deadline = new AbortController();
    const spinning = job(pool, "spin", deadline.signal);
    await Bun.sleep(250);
    deadline.abort();
    const error = await failure(spinning);
    expect(error).toMatchObject({ computed: true, message: expect.stringContaining("deadline") });
    expect(pool.stats.busy).toBe(0);
    expect(pool.stats.pending).toBe(1); // the replacement's warm-up, waiting for it to load
    expect(await drained(pool)).toMatchObject({ busy: 0, pending: 0 });
    expect(await job(pool, "ok")).toEqual({ done: "ok" });
  });

  test("a job whose deadline has already passed is refused without taking a worker", async () => {
    const pool = scriptedPool(1);
    const late = new AbortController();
    late.abort();
    expect(await failure(job(pool, "ok", late.signal))).toBeInstanceOf(EngineUnavailable);
    expect(pool.stats).toMatchObject({ busy: 0, pending: 0 });
  });

  for (const load of ["throw", "exit", "hang"]) {
    test(`a worker that cannot load (${load}) fails its waiting job; the slot refuses at once for a while, then starts a new worker`, async () => {
      let next = load;
      const pool = scriptedPool(1, () => next, { loadTimeoutMs: 300, restartDelayMs: 300 });
      const error = await failure(job(pool, "ok"));
      expect(error).toBeInstanceOf(EngineUnavailable);
      expect(error).toMatchObject({ computed: false, message: expect.stringContaining("cannot start") });
      expect(await failure(pool.ready())).toBe(error as Error);
      expect(await failure(job(pool, "ok"))).toBe(error as Error);
      expect(pool.stats).toMatchObject({ busy: 0, failed: 1 });
      next = "ok";
      await Bun.sleep(300);
      expect(await job(pool, "ok")).toEqual({ done: "ok" });
      expect(pool.stats.failed).toBe(0);
    });
  }

  test("a job that cannot be sent (its request does not clone) fails alone, before and after the worker listens", async () => {
    const pool = scriptedPool(1, () => "slow:100");
    const unclonable = { bytes: bytes("ok"), hint: (() => {}) as never };
    const warmed = pool.ready(); // queued with the job until the worker listens
    expect(await failure(pool.validate(unclonable, never))).toMatchObject({ message: expect.stringContaining("could not be sent") });
    await warmed;
    expect(await failure(pool.validate(unclonable, never))).toMatchObject({ message: expect.stringContaining("could not be sent") });
    expect(await job(pool, "ok")).toEqual({ done: "ok" });
    expect(pool.stats).toMatchObject({ busy: 0, pending: 0 });
  });

  test("close fails running and waiting jobs and refuses new ones", async () => {
    const pool = scriptedPool(1, () => "slow:200");
    const waiting = job(pool, "ok");
    pool.close();
    expect(await failure(waiting)).toMatchObject({ message: expect.stringContaining("shutting down") });
    expect(await failure(job(pool, "ok"))).toMatchObject({ message: expect.stringContaining("shutting down") });
  });
});

/** mulberry32: a small seeded generator, so a failing run can be replayed exactly. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("a worker collecting its heap after its reply", () => {
  const whoami = async (pool: WorkerPool, command = "whoami") => ((await job(pool, command)) as { worker: string }).worker;

  test("the next job goes to an idle worker that is not collecting; with none, it waits for the collection and is not refused", async () => {
    const pool = scriptedPool(2);
    await pool.ready();
    const first = await whoami(pool);
    // The first idle worker is preferred, so the same one answers until it collects.
    expect(await whoami(pool)).toBe(first);
    expect(await whoami(pool, "collect:600")).toBe(first);
    const started = performance.now();
    const other = await whoami(pool);
    expect(other).not.toBe(first);
    expect(performance.now() - started).toBeLessThan(400);
    // Once the collection is over, the first worker is the first choice again.
    await Bun.sleep(800);
    expect(await whoami(pool)).toBe(first);

    const single = scriptedPool(1);
    await single.ready();
    const collector = await whoami(single, "collect:300");
    const waited = performance.now();
    expect(await whoami(single)).toBe(collector);
    expect(performance.now() - waited).toBeGreaterThan(150);
  }, 20_000);

  test("a worker reads how many jobs its pool runs: its own alone, or another beside it, and the count falls when jobs settle, failed ones too", async () => {
    const pool = scriptedPool(2);
    await pool.ready();
    const others = async () => ((await job(pool, "others")) as { others: boolean }).others;
    expect(await others()).toBe(false);
    const beside = job(pool, "sleep:400");
    expect(await others()).toBe(true);
    await beside;
    expect(await others()).toBe(false);
    await failure(job(pool, "fault"));
    expect(await others()).toBe(false);
  }, 20_000);

  test("the real worker collects after a large XML document only while another job runs in its pool, and says so before its reply and again when done; a small one gets the reply alone", async () => {
    const running = new JobsRunning();
    const worker = new Worker(new URL("../../src/workers/worker-main.ts", import.meta.url).href, engineWorkerOptions(running));
    const seen: WorkerReply[] = [];
    const arrived = (done: (reply: WorkerReply) => boolean) =>
      new Promise<void>((resolve) => {
        worker.addEventListener("message", function listen(event: MessageEvent<WorkerReply>) {
          seen.push(event.data);
          // As a pool with no idle worker answers: the worker checks the schema itself.
          if ("asks" in event.data && event.data.asks === "schema") worker.postMessage({ id: event.data.id, kind: "schema-answer", outcome: null } satisfies SchemaAnswer);
          if (done(event.data)) {
            worker.removeEventListener("message", listen);
            resolve();
          }
        });
      });
    const shape = (reply: WorkerReply) => ("collecting" in reply ? `collecting ${reply.collecting}` : "ok" in reply ? `reply ${reply.ok}` : `asks ${reply.asks}`);
    /** Runs job `id` as the pool would: counted while it runs, `beside` other jobs with it. */
    const judged = async (id: number, bytes: Uint8Array, last: (reply: WorkerReply) => boolean, beside = 0) => {
      running.publish(1 + beside);
      worker.postMessage({ id, kind: "validate", request: { bytes } } satisfies WorkerRequest);
      await arrived((reply) => reply.id === id && "ok" in reply);
      running.publish(beside);
      if (!seen.some((reply) => reply.id === id && last(reply))) await arrived((reply) => reply.id === id && last(reply));
      return seen.filter((reply) => reply.id === id).map(shape);
    };
    const replied = (reply: WorkerReply) => "ok" in reply;
    const collected = (reply: WorkerReply) => "collecting" in reply && !reply.collecting;
    try {
      await arrived((reply) => reply.id === 0);
      const small = readFileSync(join(import.meta.dir, "../../../shared/corpus/xrechnung-testsuite/src/test/business-cases/standard/01.01a-INVOICE_ubl.xml"));
      // A comment after the root makes it large without changing what is judged.
      const large = Buffer.concat([small, Buffer.from(`<!--${" ".repeat(300 * 1024)}-->`)]);
      expect(await judged(1, small, replied)).toEqual(["reply true"]);
      await Bun.sleep(200);
      // Alone in the pool: the collector's own policy, no collection and nothing said.
      expect(await judged(2, large, replied)).toEqual(["asks schema", "reply true"]);
      await Bun.sleep(200);
      expect(seen.filter((reply) => reply.id === 2).map(shape)).toEqual(["asks schema", "reply true"]);
      // Another job running beside it (one more counted than its own): collected after the reply.
      expect(await judged(3, large, collected, 1)).toEqual(["asks schema", "collecting true", "reply true", "collecting false"]);
    } finally {
      worker.terminate();
    }
  }, 60_000);
});

describe("a validation's schema checked by another worker", () => {
  const asked = async (pool: WorkerPool, helper: string) => ((await job(pool, `ask-schema|${helper}`)) as { outcome: unknown }).outcome;

  test("an idle worker checks it; with no other worker, or the other one busy, the answer is none at once", async () => {
    const pair = scriptedPool(2);
    await pair.ready();
    expect(await asked(pair, "ok")).toEqual({ done: "ok" });
    const busy = job(pair, "sleep:400");
    expect(await asked(pair, "ok")).toBeNull();
    expect(await busy).toEqual({ done: "sleep" });
    const single = scriptedPool(1);
    await single.ready();
    expect(await asked(single, "ok")).toBeNull();
    expect([pair.stats, single.stats]).toEqual([{ busy: 0, pending: 0, failed: 0 }, { busy: 0, pending: 0, failed: 0 }]);
  });

  test("a helper that dies or fails during the check answers none, the asking job completes, and the helper's slot gets a new worker", async () => {
    const pool = scriptedPool(2);
    await pool.ready();
    expect(await asked(pool, "exit")).toBeNull();
    expect(await asked(pool, "fault")).toBeNull();
    expect(await drained(pool)).toMatchObject({ busy: 0, pending: 0, failed: 0 });
    expect(await asked(pool, "ok")).toEqual({ done: "ok" });
  });

  test("a job that comes while the only idle worker helps is queued behind the check, not refused", async () => {
    const pool = scriptedPool(2);
    await pool.ready();
    const asking = asked(pool, "sleep:300");
    await Bun.sleep(100);
    expect(await job(pool, "ok")).toEqual({ done: "ok" });
    expect(await asking).toEqual({ done: "sleep" });
    expect(pool.stats).toMatchObject({ busy: 0, pending: 0 });
  });
});

describe("chaos: workers killed, timed out and replaced at random points", () => {
  test("after 120 random jobs the pool and admission are whole and a fresh job succeeds", async () => {
    const random = seeded(14);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
    const LOADS = ["ok", "ok", "ok", "slow:40", "slow:150", "throw", "exit", "hang"] as const;
    const COMMANDS = ["ok", "ok", "sleep:30", "sleep:120", "spin", "hang", "fault", "refuse", "exit", "crash", "exit-in:20"] as const;
    let loads = () => pick(LOADS);
    const pool = scriptedPool(3, () => loads(), { loadTimeoutMs: 250, restartDelayMs: 50 });
    const admission = new Admission({ concurrency: 3, maxQueue: 12, releaseGraceMs: 200 });
    const answers: Promise<number>[] = [];
    for (let i = 0; i < 120; i++) {
      const deadlineMs = 40 + Math.floor(random() * 300);
      const command = pick(COMMANDS);
      const kind = random() < 0.3 ? "parse" : "validate";
      const started = Date.now();
      const work = (signal: AbortSignal): Promise<unknown> => (kind === "parse" ? pool.parse(bytes(command), "auto", signal) : job(pool, command, signal));
      answers.push(admission.run(work, started + deadlineMs).then(() => Date.now() - started - deadlineMs, () => Date.now() - started - deadlineMs));
      await Bun.sleep(Math.floor(random() * 25));
    }
    // Every caller is answered by its deadline (a little timer slack aside).
    expect(Math.max(...(await Promise.all(answers)))).toBeLessThan(1_000);
    loads = () => "ok";
    await Bun.sleep(300); // the grace, load timeout and restart delay have all passed
    expect(admission.stats).toMatchObject({ running: 0, queued: 0 });
    expect(await drained(pool)).toMatchObject({ busy: 0, pending: 0 });
    const fresh = await Promise.all(Array.from({ length: 3 }, () => admission.run((signal) => job(pool, "ok", signal), Date.now() + 5_000)));
    expect(fresh).toEqual(Array.from({ length: 3 }, () => ({ done: "ok" })));
    expect(pool.stats).toMatchObject({ busy: 0, pending: 0, failed: 0 });
  }, 60_000);
});
