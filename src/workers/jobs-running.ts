import { workerData } from "node:worker_threads";

/**
 * How many jobs a pool's workers are running, in memory the pool shares with them: a worker that
 * has just answered a large document reads it to tell whether another job is running beside its
 * own (worker-main.ts collects its heap only then). The pool publishes its count of busy slots.
 */
export class JobsRunning {
  private readonly count = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));

  /** What a worker is handed at its start (in its `workerData`). */
  get shared(): SharedArrayBuffer {
    return this.count.buffer as SharedArrayBuffer;
  }

  publish(running: number): void {
    Atomics.store(this.count, 0, running);
  }
}

/** In a worker: the count its pool handed it, if any. */
const handed = (workerData as { jobsRunning?: SharedArrayBuffer } | null | undefined)?.jobsRunning;
const running = handed instanceof SharedArrayBuffer ? new Int32Array(handed) : undefined;

/** In a worker: whether a job other than its own is running in its pool; false when it was started without the count. */
export function otherJobRunning(): boolean {
  return running !== undefined && Atomics.load(running, 0) > 1;
}
