import { EngineUnavailable } from "../engine/admission";
import { errorOf, type SchemaAnswer, type UnitAnswer, type WorkerReply, type WorkerRequest } from "./protocol";
import type { XsdSchemaId } from "../profiles/schemas";
import type { CappedXsdOutcome } from "../validation/xsd";

/** What a job's worker may ask of the pool while it runs. */
export interface JobAsks {
  /** Spends the job's unit; rejects when it cannot. */
  spend?: () => Promise<void>;
  /** Has another worker check the document's schema; null when none can. */
  schema?: (schema: XsdSchemaId) => Promise<CappedXsdOutcome | null>;
}

interface Job extends JobAsks {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  /** Why the unit was not spent: the job fails with this, whatever the worker replies. */
  unspent?: Error;
}

/**
 * One worker thread as the pool holds it, and the jobs sent to it. Every job settles exactly once:
 * with the worker's reply, or with an `EngineUnavailable` when the worker fails to load, dies, or is
 * stopped. A job sent before the worker listens waits here, where stopping the worker reaches it too.
 */
export class WorkerThread {
  private readonly jobs = new Map<number, Job>();
  private unsent: WorkerRequest[] = [];
  private state: "loading" | "listening" | "stopped" = "loading";
  private readonly loadTimer: ReturnType<typeof setTimeout>;

  /**
   * `onLost` hears of a worker that stopped without being asked to (failed to load, crashed,
   * exited), after its jobs were failed; `loaded` says whether it had ever listened.
   */
  constructor(
    private readonly worker: Worker,
    loadTimeoutMs: number,
    private readonly onLost: (reason: EngineUnavailable, loaded: boolean) => void,
  ) {
    this.loadTimer = setTimeout(() => this.lost(`did not start within ${Math.round(loadTimeoutMs / 1000)} s`), loadTimeoutMs);
    worker.onmessage = (event: MessageEvent<WorkerReply>) => this.receive(event.data);
    worker.onerror = (event) => this.lost(errorLine(event.message));
    worker.addEventListener("close", (event) => this.lost(`exited with code ${(event as CloseEvent).code}`));
  }

  private collectingHeap = false;

  /** Whether the worker is collecting its heap after a reply: a job sent now waits for the collection. */
  get collecting(): boolean {
    return this.collectingHeap;
  }

  /** Jobs sent and not yet settled. */
  get pending(): number {
    return this.jobs.size;
  }

  /** Whether the worker has loaded and takes jobs at once. */
  get listening(): boolean {
    return this.state === "listening";
  }

  send(message: WorkerRequest, asks: JobAsks = {}): Promise<unknown> {
    if (this.state === "stopped") return Promise.reject(new EngineUnavailable("the engine worker was stopped", false, 1));
    return new Promise((resolve, reject) => {
      this.jobs.set(message.id, { resolve, reject, ...asks });
      if (this.state === "listening") this.post(message);
      else this.unsent.push(message);
    });
  }

  /** Terminates the worker and fails every job it holds with `reason`; later calls do nothing. */
  stop(reason: Error): void {
    if (this.state === "stopped") return;
    this.state = "stopped";
    clearTimeout(this.loadTimer);
    this.worker.terminate();
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    this.unsent = [];
    for (const job of jobs) job.reject(reason);
  }

  private receive(reply: WorkerReply): void {
    if (this.state === "stopped") return;
    if (reply.id === 0) {
      // Messages posted before the worker's module finished loading would be lost.
      this.state = "listening";
      clearTimeout(this.loadTimer);
      for (const message of this.unsent) this.post(message);
      this.unsent = [];
      return;
    }
    if ("collecting" in reply) return void (this.collectingHeap = reply.collecting);
    const job = this.jobs.get(reply.id);
    if (!job) return;
    if ("asks" in reply) return void (reply.asks === "unit" ? this.spend(reply.id, job) : this.checkSchema(reply.id, job, reply.schema));
    this.jobs.delete(reply.id);
    if (job.unspent) job.reject(job.unspent);
    else if (reply.ok) job.resolve(reply.value);
    else job.reject(errorOf(reply));
  }

  /** The worker waits for the answer, so it gets one whatever spending does (unless it was stopped meanwhile). */
  private async spend(id: number, job: Job): Promise<void> {
    try {
      if (!job.spend) throw new Error("the engine worker asked to spend a unit for a job that has none");
      await job.spend();
    } catch (error) {
      job.unspent = error as Error;
    }
    if (this.state !== "stopped") this.post({ id, kind: "unit", spent: !job.unspent });
  }

  /** The worker waits for the answer, so it gets one: null when the check could not be had elsewhere. */
  private async checkSchema(id: number, job: Job, schema: XsdSchemaId): Promise<void> {
    let outcome: CappedXsdOutcome | null = null;
    try {
      outcome = job.schema ? await job.schema(schema) : null;
    } catch {
      // Checked by the asking worker itself.
    }
    if (this.state !== "stopped") this.post({ id, kind: "schema-answer", outcome });
  }

  /** A message that cannot be cloned fails its own job, not the worker's others. */
  private post(message: WorkerRequest | UnitAnswer | SchemaAnswer): void {
    try {
      this.worker.postMessage(message);
    } catch (error) {
      const job = this.jobs.get(message.id);
      this.jobs.delete(message.id);
      job?.reject(new EngineUnavailable(`the job could not be sent to the engine worker: ${(error as Error).message}`, false, 1));
    }
  }

  private lost(why: string): void {
    if (this.state === "stopped") return;
    const loaded = this.state === "listening";
    // Compute was spent only if the worker had started on the jobs it held.
    const reason = loaded
      ? new EngineUnavailable(`the engine worker stopped: ${why}`, true, 5)
      : new EngineUnavailable(`the engine worker cannot start: ${why}`, false, 5);
    this.stop(reason);
    this.onLost(reason, loaded);
  }
}

/** The error line of a worker's error event (Bun puts a source excerpt before it). */
function errorLine(message: string): string {
  const lines = message.split("\n").map((line) => line.trim());
  return lines.find((line) => /^\w*(error|Error)\b.*:/.test(line)) ?? lines.find(Boolean) ?? "unknown error";
}
