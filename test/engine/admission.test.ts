// Admission never loses a slot: every wait is bounded by the request deadline, and a slot comes back
// when its job settles, or at the latest a grace after the deadline if the job never does.
import { describe, expect, test } from "bun:test";
import { Admission, EngineUnavailable } from "../../src/engine/admission";

const failure = (p: Promise<unknown>) => p.then(() => undefined, (error: Error) => error);
const forever = () => new Promise<never>(() => {});

describe("admission slots", () => {
  test("a job that never settles is answered at its deadline and gives its slot back a grace later", async () => {
    const admission = new Admission({ concurrency: 1, maxQueue: 4, releaseGraceMs: 100 });
    const stuck = await failure(admission.run(forever, Date.now() + 50));
    expect(stuck).toBeInstanceOf(EngineUnavailable);
    expect(stuck).toMatchObject({ computed: true });
    expect(admission.stats.running).toBe(1); // the job may still be running: its slot is held a while
    expect(await admission.run(async () => "next", Date.now() + 2_000)).toBe("next");
    expect(admission.stats).toMatchObject({ running: 0, queued: 0 });
  });

  test("a job that throws before its first await releases its slot", async () => {
    const admission = new Admission({ concurrency: 1, maxQueue: 4 });
    const thrown = await failure(
      admission.run(() => {
        throw new Error("synchronous");
      }, Date.now() + 1_000),
    );
    expect(thrown?.message).toBe("synchronous");
    expect(admission.stats).toMatchObject({ running: 0, queued: 0 });
    expect(await admission.run(async () => "next", Date.now() + 1_000)).toBe("next");
  });

  test("a job that settles keeps its slot to the end, past its deadline, and no longer", async () => {
    const admission = new Admission({ concurrency: 1, maxQueue: 4, releaseGraceMs: 5_000 });
    const slow = failure(admission.run(() => Bun.sleep(150), Date.now() + 50));
    const queued = admission.run(async () => "after", Date.now() + 2_000);
    expect(await slow).toBeInstanceOf(EngineUnavailable);
    expect(admission.stats).toMatchObject({ running: 1, queued: 1 });
    expect(await queued).toBe("after");
    expect(admission.stats).toMatchObject({ running: 0, queued: 0 });
  });

  test("a request whose deadline has passed before admission is refused without starting its job", async () => {
    const admission = new Admission({ concurrency: 1, maxQueue: 4 });
    let started = false;
    const late = await failure(admission.run(async () => (started = true), Date.now() - 1));
    expect(late).toMatchObject({ computed: false, message: expect.stringContaining("deadline passed before") });
    expect(started).toBe(false);
    expect(admission.stats).toMatchObject({ running: 0, queued: 0 });
  });

  test("a queued job that cannot start by its deadline leaves the queue", async () => {
    const admission = new Admission({ concurrency: 1, maxQueue: 4, releaseGraceMs: 100 });
    const holder = failure(admission.run(forever, Date.now() + 200));
    const waiting = await failure(admission.run(async () => "never", Date.now() + 50));
    expect(waiting).toMatchObject({ computed: false, message: expect.stringContaining("could not start") });
    expect(admission.stats.queued).toBe(0);
    await holder;
    await Bun.sleep(150);
    expect(admission.stats).toMatchObject({ running: 0, queued: 0 });
  });
});
