import { workerData } from "node:worker_threads";

/**
 * How many jobs a pool's workers are running, in memory the pool shares with them: a worker that
 * has just answered a large document reads it to tell whether another job is running beside its
 * own (worker-main.ts collects its heap only then).
 */
export class JobsRunning {
  private readonly count = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));

  /** What a worker is handed at its start (in its `workerData`). */
  get shared(): SharedArrayBuffer {
    return this.count.buffer as SharedArrayBuffer;
  }

  started(): void {
    Atomics.add(this.count, 0, 1);
  }

  ended(): void {
    Atomics.sub(this.count, 0, 1);
  }
}

/** In a worker: whether a job other than its own is running in its pool; false when it was started without the count. */
export function otherJobRunning(): boolean {
  const shared = (workerData as { jobsRunning?: SharedArrayBuffer } | null | undefined)?.jobsRunning;
  return shared instanceof SharedArrayBuffer && Atomics.load(new Int32Array(shared), 0) > 1;
}
