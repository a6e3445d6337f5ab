/**
 * Admission to the engine: at most `concurrency` jobs run at once, others wait in a bounded queue.
 * Every job carries the request deadline; a job that cannot finish by then is answered with
 * `EngineUnavailable`, which says whether engine compute was consumed (it decides the refund rule).
 */
export class EngineUnavailable extends Error {
  constructor(
    message: string,
    /** True when the job had started: the refund then counts against the hourly cap. */
    readonly computed: boolean,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

interface Waiting {
  start: () => void;
  timer: ReturnType<typeof setTimeout>;
}

interface AdmissionOptions {
  concurrency: number;
  maxQueue: number;
  /**
   * How long past its deadline a job that ignores its abort signal may keep its slot. Engine jobs
   * settle at the abort (the pool stops their worker); this bounds any other.
   */
  releaseGraceMs?: number;
}

const DEFAULT_RELEASE_GRACE_MS = 10_000;

export class Admission {
  private running = 0;
  private readonly queue: Waiting[] = [];
  /** Moving average of job durations, for an honest `Retry-After`. */
  private averageMs = 100;

  constructor(private readonly options: AdmissionOptions) {}

  get stats() {
    return { running: this.running, queued: this.queue.length, concurrency: this.options.concurrency };
  }

  async run<T>(job: (signal: AbortSignal) => Promise<T>, deadlineAtMs: number): Promise<T> {
    await this.admit(deadlineAtMs);
    const controller = new AbortController();
    const startedAt = performance.now();
    // A job that throws before its first await rejects like any other, and still releases its slot.
    const done = new Promise<T>((resolve) => resolve(job(controller.signal)));
    const untilDeadline = Math.max(0, deadlineAtMs - Date.now());
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new EngineUnavailable("the engine could not finish this document within the request deadline", true, this.retryAfter()));
      }, untilDeadline);
    });
    // The slot stays taken until the job really ends, even after its caller was answered, but no
    // longer than the grace past the deadline: a job that never settles must not keep it forever.
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(overdue);
      this.release(startedAt);
    };
    const overdue = setTimeout(release, untilDeadline + (this.options.releaseGraceMs ?? DEFAULT_RELEASE_GRACE_MS));
    done.then(release, release);
    try {
      return await Promise.race([done, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private admit(deadlineAtMs: number): Promise<void> {
    // A request that spent its whole deadline before reaching the engine (a body sent slowly) would
    // be stopped the moment it started, and its worker with it: it does not start at all.
    if (Date.now() >= deadlineAtMs) return Promise.reject(new EngineUnavailable("the request deadline passed before the request reached the engine", false, this.retryAfter()));
    if (this.running < this.options.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    if (this.queue.length >= this.options.maxQueue) {
      return Promise.reject(new EngineUnavailable("the engine queue is full; retry after the indicated delay", false, this.retryAfter()));
    }
    return new Promise<void>((resolve, reject) => {
      const entry: Waiting = {
        start: () => {
          clearTimeout(entry.timer);
          this.running++;
          resolve();
        },

        timer: setTimeout(() => {
          const at = this.queue.indexOf(entry);
          if (at >= 0) this.queue.splice(at, 1);
          reject(new EngineUnavailable("the engine is busy and could not start this request within the request deadline", false, this.retryAfter()));
        }, Math.max(0, deadlineAtMs - Date.now())),
      };
      this.queue.push(entry);
    });
  }

  private release(startedAt: number): void {
    this.averageMs = this.averageMs * 0.8 + (performance.now() - startedAt) * 0.2;
    this.running--;
    this.queue.shift()?.start();
  }

  private retryAfter(): number {
    const ahead = this.queue.length + this.running;
    return Math.max(1, Math.ceil((ahead * this.averageMs) / this.options.concurrency / 1000));
  }
}
