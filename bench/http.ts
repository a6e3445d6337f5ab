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
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const end = performance.now() + seconds * 1000;
  let issued = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end && issued < maxRequests) {
        const i = issued++;
        const t = performance.now();
        const res = await next(i);
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    seconds: elapsed,
    perSecond: latencies.length / elapsed,
    p50ms: percentile(latencies, 50),
    p95ms: percentile(latencies, 95),
    p99ms: percentile(latencies, 99),
    statuses,
  };
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
