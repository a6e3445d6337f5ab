/** Small HTTP load tools for the benchmark: bounded in count and time, loopback only. */
export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  p50ms: number;
  p95ms: number;
  p99ms: number;
  statuses: Record<string, number>;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Keeps `concurrency` requests in flight for `seconds`, each made by `next`. */
export async function load(next: (i: number) => Promise<Response>, concurrency: number, seconds: number, maxRequests = 1_000_000): Promise<LoadResult> {
  const answers = new Answers();
  const end = performance.now() + seconds * 1000;
  let issued = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end && issued < maxRequests) {
        const i = issued++;
        const t = performance.now();
        const res = await next(i);
        await res.arrayBuffer();
        answers.add(t, res.status);
      }
    }),
  );
  return answers.result();
}

/**
 * Open loop: request i starts when it is due (`i / perSecond` s after the start) whether or not the
 * earlier ones were answered, for `seconds` (at most `maxRequests`). Each latency counts from when
 * the request was due, so a stall of the client or the server shows instead of slowing the load
 * (no coordinated omission). At most `maxInFlight` requests are outstanding (each holds a
 * connection): past that a due request waits, and its wait counts. Everything stops `graceSeconds`
 * after the planned end; answers still missing then count as status "unanswered".
 */
export async function paced(next: (i: number) => Promise<Response>, perSecond: number, seconds: number, maxRequests = 1_000_000, maxInFlight = 64, graceSeconds = 30): Promise<LoadResult> {
  const answers = new Answers();
  const count = Math.min(maxRequests, Math.floor(perSecond * seconds));
  const deadline = answers.started + (seconds + graceSeconds) * 1000;
  const expired = sleepUntil(deadline);
  const inFlight = new Set<Promise<void>>();
  let issued = 0;
  for (; issued < count && performance.now() < deadline; issued++) {
    const due = answers.started + (issued * 1000) / perSecond;
    await sleepUntil(due);
    while (inFlight.size >= maxInFlight && performance.now() < deadline) await Promise.race([...inFlight, expired]);
    if (inFlight.size >= maxInFlight) break;
    const request: Promise<void> = next(issued).then(async (res) => {
      await res.arrayBuffer();
      answers.add(due, res.status);
      inFlight.delete(request);
    });
    inFlight.add(request);
  }
  await Promise.race([Promise.all(inFlight), expired]);
  return answers.result(issued);
}

/** Resolves at `performance.now()` time `at`, never keeping the process alive. */
const sleepUntil = (at: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())).unref());

/** Latencies and statuses of one load, from its start. */
class Answers {
  readonly started = performance.now();
  private latencies: number[] = [];
  private statuses: Record<string, number> = {};

  /** One answer to a request that started (or was due) at `since`. */
  add(since: number, status: number): void {
    this.latencies.push(performance.now() - since);
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
  }

  /** `issued`: how many requests were made, when some may not have been answered. */
  result(issued = this.latencies.length): LoadResult {
    const seconds = (performance.now() - this.started) / 1000;
    const latencies = [...this.latencies].sort((a, b) => a - b);
    const statuses = issued > latencies.length ? { ...this.statuses, unanswered: issued - latencies.length } : { ...this.statuses };
    return {
      requests: latencies.length,
      seconds,
      perSecond: latencies.length / seconds,
      p50ms: percentile(latencies, 50),
      p95ms: percentile(latencies, 95),
      p99ms: percentile(latencies, 99),
      statuses,
    };
  }
}

export function rssMiB(pid: number): number {
  return statusMiB(pid, "VmRSS");
}

/** The highest RSS the process has had (the kernel's high-water mark), so no peak falls between samples. */
export function peakRssMiB(pid: number): number {
  return statusMiB(pid, "VmHWM");
}

function statusMiB(pid: number, field: string): number {
  const status = require("node:fs").readFileSync(`/proc/${pid}/status`, "utf8") as string;
  return Number(status.match(new RegExp(`${field}:\\s+(\\d+) kB`))![1]) / 1024;
}
