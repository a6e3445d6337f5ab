import { EngineUnavailable } from "../engine/admission";
import type { En16931Syntax } from "../profiles/ids";
import type { ValidateOutcome, ValidateRequest } from "../validation/validate";
import type { ReceiveOutcome, WorkerRequest } from "./protocol";
import type { GeneratedInvoice, InvoiceOrder } from "../generate/generate-invoice";
import type { Parsed } from "../generate/parse";
import type { ConvertOrder, Converted } from "../convert/convert";
import type { InspectOrder, Inspection } from "../transmission/inspect";
import type { TemplateDefinitionInput } from "../pdf/design";
import { WorkerThread, type JobAsks } from "./worker-thread";
import type { XsdSchemaId } from "../profiles/schemas";
import type { CappedXsdOutcome } from "../validation/xsd";
import { workerAssets } from "../assets/bundle";
import { JobsRunning } from "./jobs-running";
import { recordById } from "../profiles/lookup";
import { WARM_RECORDS } from "../profiles/catalogue";
import { RulesetLifecycle } from "../rulesets/lifecycle";
import { ruleEntryId } from "../rulesets/rule-entries";
import { systemClock, today, type Clock } from "../clock";

/**
 * The rule files most requests need (EN 16931 and XRechnung, both syntaxes, at today's versions),
 * loaded when a worker starts so the first document is not slow. Derived from the catalogue records,
 * so a new release is warmed without touching this file.
 */
export function warmEntries(clock: Clock = systemClock): string[] {
  const lifecycle = new RulesetLifecycle();
  const day = today(clock);
  const layers = WARM_RECORDS.flatMap((id) => recordById(id).judge?.rules ?? []);
  return [...new Set(layers.map((l) => ruleEntryId(`${l.key}/${lifecycle.latest(l.key, day).version}/${l.file}`, l.part?.patterns)))];
}

export interface PoolOptions {
  /** Rule files each worker loads before its first document. */
  warm?: string[];
  /** Starts one worker, handing it the pool's count of running jobs; tests pass a scripted stand-in. */
  createWorker?: (jobsRunning: JobsRunning) => Worker;
  /** A worker that has not loaded by then counts as failing to load. */
  loadTimeoutMs?: number;
  /** How long a slot whose worker failed to load refuses jobs before it tries a new worker. */
  restartDelayMs?: number;
}

// smol: a collector that runs sooner, so hybrid PDF validations (pdf-lib garbage) peak lower, at no
// measurable cost in validations per second. `workerData` shares the ruleset bundle's bytes (see
// assets/bundle.ts), and with it the pool's count of running jobs (jobs-running.ts): Bun's Worker
// takes it as node:worker_threads does, though bun-types omits it.
export const engineWorkerOptions = (jobsRunning?: JobsRunning) => ({ smol: true, workerData: { ...workerAssets(), ...(jobsRunning && { jobsRunning: jobsRunning.shared }) } }) as Bun.WorkerOptions;
const startWorker = (jobsRunning: JobsRunning) => new Worker(new URL("./worker-main.ts", import.meta.url).href, engineWorkerOptions(jobsRunning));

interface Slot {
  /** Absent after its worker failed to load, until a job after `restartDelayMs` starts another. */
  worker?: WorkerThread;
  failure?: { error: EngineUnavailable; at: number };
  /** A job holds the slot from its start until it settles. */
  busy: boolean;
  /** Its worker checks another job's schema (see `checkSchemaElsewhere`): jobs go elsewhere when they can. */
  helping: boolean;
}

/**
 * A fixed set of engine workers: every job on caller bytes runs in one, off the thread that answers
 * HTTP, one job per use case (validate, parse, receive, generate, convert, a template's design
 * check). Admission (engine/admission.ts) already bounds how many jobs run at once to the pool
 * size; the pool hands each job an idle worker. A job cut off by its deadline takes its worker with
 * it: the worker is terminated and replaced, so no request holds a worker past the deadline. Every
 * job settles (worker-thread.ts), so every slot comes free.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private closed = false;
  private readonly warm: string[];
  private readonly createWorker: (jobsRunning: JobsRunning) => Worker;
  private readonly loadTimeoutMs: number;
  private readonly restartDelayMs: number;
  private readonly jobsRunning = new JobsRunning();

  constructor(
    readonly size: number,
    options: PoolOptions = {},
  ) {
    this.warm = options.warm ?? warmEntries();
    this.createWorker = options.createWorker ?? startWorker;
    this.loadTimeoutMs = options.loadTimeoutMs ?? 60_000;
    this.restartDelayMs = options.restartDelayMs ?? 5_000;
    for (let i = 0; i < size; i++) {
      const slot: Slot = { busy: false, helping: false };
      this.start(slot);
      this.slots.push(slot);
    }
  }

  /** Resolves when every worker has loaded its warm set. */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((slot) => (slot.worker ? this.warmUp(slot.worker) : Promise.reject(slot.failure!.error))));
  }

  /** Jobs running, jobs the workers still hold (warm-ups included), slots whose worker could not load. */
  get stats() {
    return {
      busy: this.slots.filter((s) => s.busy).length,
      pending: this.slots.reduce((sum, s) => sum + (s.worker?.pending ?? 0), 0),
      failed: this.slots.filter((s) => !s.worker).length,
    };
  }

  async validate(request: ValidateRequest, signal: AbortSignal): Promise<ValidateOutcome> {
    return (await this.run({ id: this.nextId++, kind: "validate", request }, signal)) as ValidateOutcome;
  }

  /** Refusals of the document come back as the DomainError parse raised. */
  async parse(bytes: Uint8Array, hint: "auto" | En16931Syntax | undefined, signal: AbortSignal): Promise<Parsed> {
    return (await this.run({ id: this.nextId++, kind: "parse", bytes, hint }, signal)) as Parsed;
  }

  /** A received document judged and, when parse maps it, read: one job, so the bytes cross once. */
  async receive(request: ValidateRequest, signal: AbortSignal): Promise<ReceiveOutcome> {
    return (await this.run({ id: this.nextId++, kind: "receive", request }, signal)) as ReceiveOutcome;
  }

  /**
   * A generate request, whole: refusals come back as the DomainError they were, and `spend` takes
   * the request's unit when the worker asks for it, after the refusals and before the paid steps.
   * When `spend` throws, the job ends and fails with that error.
   */
  async generate(order: InvoiceOrder, spend: () => Promise<void>, signal: AbortSignal): Promise<GeneratedInvoice> {
    return (await this.run({ id: this.nextId++, kind: "generate", order }, signal, { spend })) as GeneratedInvoice;
  }

  /** A convert request, whole: read, written, read back and judged; refusals come back as the DomainError they were. */
  async convert(order: ConvertOrder, signal: AbortSignal): Promise<Converted> {
    return (await this.run({ id: this.nextId++, kind: "convert", order }, signal)) as Converted;
  }

  /** A document a transmission would carry: refusals of what cannot travel come back as DomainErrors. */
  async inspectForTransmission(order: InspectOrder, signal: AbortSignal): Promise<Inspection> {
    return (await this.run({ id: this.nextId++, kind: "inspect-transmission", order }, signal)) as Inspection;
  }

  /** What keeps a template's design from being drawn (its logo decoded), before it is stored; generate checks it again. */
  async designProblems(definition: TemplateDefinitionInput, signal: AbortSignal): Promise<{ path: string; message: string }[]> {
    return (await this.run({ id: this.nextId++, kind: "design", definition }, signal)) as { path: string; message: string }[];
  }

  close(): void {
    this.closed = true;
    for (const slot of this.slots) slot.worker?.stop(new EngineUnavailable("the engine is shutting down", false, 1));
  }

  private async run(message: WorkerRequest, signal: AbortSignal, asks: JobAsks = {}): Promise<unknown> {
    if (this.closed) throw new EngineUnavailable("the engine is shutting down", false, 1);
    // An abort listener added after the abort never fires: such a job would run unbounded.
    if (signal.aborted) throw new EngineUnavailable("the request deadline passed before the engine started this job", false, 1);
    const slot = this.idleSlot();
    this.occupy(slot, true);
    try {
      const worker = slot.worker ?? this.restart(slot);
      const onAbort = () => this.replace(slot, worker, new EngineUnavailable("the engine worker was stopped at the request deadline", true, 1));
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        const schema = message.kind === "validate" || message.kind === "receive" ? (id: XsdSchemaId) => this.checkSchemaElsewhere(id, message.request.bytes, slot) : undefined;
        return await worker.send(message, { ...asks, schema });
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
    } finally {
      this.occupy(slot, false);
    }
  }

  /** A slot taken or freed by a job; its workers read the count of busy slots (jobs-running.ts). */
  private occupy(slot: Slot, busy: boolean): void {
    slot.busy = busy;
    this.jobsRunning.publish(this.slots.filter((s) => s.busy).length);
  }

  /**
   * A validation's schema check on another worker, while the asking one runs the rule files
   * (validate.ts): taken by a loaded worker with no job and not helping, never queued behind
   * another job; null when there is none, or when the check fails, and the asking worker checks the
   * schema itself. A worker collecting its heap after a large document's job takes it, after the
   * collection (about 30 ms): the rule files of a document large enough to ask take longer. The helper's slot stays free: a job that comes
   * meanwhile goes to another idle worker if there is one, else waits for the check (bounded by the
   * body cap), and is never refused for it.
   */
  private async checkSchemaElsewhere(schema: XsdSchemaId, bytes: Uint8Array, asking: Slot): Promise<CappedXsdOutcome | null> {
    const helper = this.slots.find((s) => s !== asking && !s.busy && !s.helping && s.worker?.listening && s.worker.pending === 0);
    if (!helper) return null;
    helper.helping = true;
    try {
      return (await helper.worker!.send({ id: this.nextId++, kind: "schema", schema, bytes })) as CappedXsdOutcome;
    } catch {
      return null;
    } finally {
      helper.helping = false;
    }
  }

  /**
   * An idle slot with a worker, one neither helping another job nor collecting its heap first; else
   * one whose worker failed to load long enough ago to try again.
   */
  private idleSlot(): Slot {
    const idle = this.slots.filter((s) => !s.busy);
    const due = (s: Slot) => performance.now() - s.failure!.at >= this.restartDelayMs;
    const slot = idle.find((s) => s.worker && !s.worker.collecting && !s.helping) ?? idle.find((s) => s.worker) ?? idle.find((s) => !s.worker && due(s));
    if (slot) return slot;
    const failed = idle.find((s) => !s.worker);
    if (failed) throw failed.failure!.error;
    throw new EngineUnavailable("no engine worker is free", false, 1);
  }

  private start(slot: Slot): WorkerThread {
    const worker: WorkerThread = new WorkerThread(this.createWorker(this.jobsRunning), this.loadTimeoutMs, (reason, loaded) => this.lost(slot, worker, reason, loaded));
    slot.worker = worker;
    slot.failure = undefined;
    return worker;
  }

  /** A later worker in a slot starts warm, like the first ones after `ready()`. */
  private restart(slot: Slot): WorkerThread {
    const worker = this.start(slot);
    // The warm-up is a job of the worker, not of the slot: it holds no slot, and it fails with the
    // worker when that is stopped.
    this.warmUp(worker).catch(() => {});
    return worker;
  }

  private warmUp(worker: WorkerThread): Promise<unknown> {
    return worker.send({ id: this.nextId++, kind: "warm", entries: this.warm });
  }

  private replace(slot: Slot, worker: WorkerThread, reason: Error): void {
    worker.stop(reason);
    if (slot.worker === worker && !this.closed) this.restart(slot);
  }

  /**
   * A worker that stopped on its own. One that had loaded is replaced at once; one that could not
   * load would fail the same way again, so its slot refuses jobs with the reason for a while.
   */
  private lost(slot: Slot, worker: WorkerThread, reason: EngineUnavailable, loaded: boolean): void {
    if (slot.worker !== worker || this.closed) return;
    if (loaded) return void this.restart(slot);
    slot.worker = undefined;
    slot.failure = { error: reason, at: performance.now() };
  }
}
