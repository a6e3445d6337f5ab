import { EngineUnavailable } from "../engine/admission";
import type { ValidateOutcome, ValidateRequest } from "./validate";
import type { WorkerReply, WorkerRequest } from "./worker";
import type { GeneratedXml } from "../generate/generate";
import type { PdfKind, PdfRequest } from "../generate/pdf-output";
import { PIPELINES } from "./pipelines";
import { RulesetLifecycle } from "../rulesets/lifecycle";

/**
 * The rule files most requests need (EN 16931 and XRechnung, both syntaxes, at today's versions),
 * loaded when a worker starts so the first document is not slow. Derived from the pipeline table,
 * so a new release is warmed without touching this file.
 */
export function warmEntries(day = new Date().toISOString().slice(0, 10)): string[] {
  const lifecycle = new RulesetLifecycle();
  const layers = ["ubl:xrechnung", "cii:xrechnung"].flatMap((id) => PIPELINES[id].rules);
  return [...new Set(layers.map((l) => `${l.key}/${lifecycle.latest(l.key, day).version}/${l.file}`))];
}

interface Slot {
  worker: Worker;
  /** Settles when the worker has loaded and listens. */
  loaded: Promise<void>;
  busy: boolean;
  pending: Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>;
}

/**
 * A fixed set of Bun workers. Admission (engine/admission.ts) already bounds how many jobs run at
 * once to the pool size; the pool hands each job an idle worker. A job cut off by its deadline
 * takes its worker with it: the worker is terminated and replaced, so no request holds a worker
 * past the deadline.
 */
export class ValidationPool {
  private readonly slots: Slot[] = [];
  private nextId = 1;

  constructor(
    readonly size: number,
    private readonly warm: string[] = warmEntries(),
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  /** Resolves when every worker has loaded its warm set. */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.send(slot, { id: this.nextId++, kind: "warm", entries: this.warm })));
  }

  async validate(request: ValidateRequest, signal: AbortSignal): Promise<ValidateOutcome> {
    return (await this.run({ id: this.nextId++, kind: "validate", request }, signal)) as ValidateOutcome;
  }

  async renderPdf(generated: GeneratedXml, pdfKind: PdfKind, request: PdfRequest, signal: AbortSignal): Promise<Uint8Array> {
    return (await this.run({ id: this.nextId++, kind: "pdf", generated, pdfKind, request }, signal)) as Uint8Array;
  }

  private async run(message: WorkerRequest, signal: AbortSignal): Promise<unknown> {
    const slot = this.slots.find((s) => !s.busy);
    if (!slot) throw new EngineUnavailable("no validation worker is free", false, 1);
    slot.busy = true;
    const onAbort = () => this.replace(slot, new EngineUnavailable("the validation worker was stopped at the request deadline", true, 1));
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      return await this.send(slot, message);
    } finally {
      signal.removeEventListener("abort", onAbort);
      slot.busy = false;
    }
  }

  close(): void {
    for (const slot of this.slots) slot.worker.terminate();
  }

  private spawn(): Slot {
    const slot = { busy: false, pending: new Map() } as Slot;
    this.attachWorker(slot);
    return slot;
  }

  /** Gives the slot a fresh worker whose replies settle the slot's pending jobs. */
  private attachWorker(slot: Slot): void {
    // smol: a collector that runs sooner. Measured with two workers, hybrid PDF validations (pdf-lib
    // garbage) peaked about 80 MiB lower, at no measurable cost in validations per second.
    const worker = new Worker(new URL("./worker.ts", import.meta.url).href, { smol: true });
    let loaded = false;
    let markLoaded!: () => void;
    let failLoad!: (error: Error) => void;
    slot.loaded = new Promise((resolve, reject) => ((markLoaded = resolve), (failLoad = reject)));
    slot.loaded.catch(() => {}); // observed by send() and ready(); never an unhandled rejection
    worker.onmessage = (event: MessageEvent<WorkerReply>) => {
      const reply = event.data;
      if (reply.id === 0) {
        loaded = true;
        return markLoaded();
      }
      const waiter = slot.pending.get(reply.id);
      if (!waiter) return;
      slot.pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.value);
      else waiter.reject(new EngineUnavailable(`a validation layer could not run: ${reply.error.split("\n")[0]}`, true, 5));
    };
    worker.onerror = (event) => {
      // A worker that fails before it loaded cannot load at all (its module is missing from the
      // executable, or throws on import): replacing it would fail the same way, in a busy loop.
      // The slot stays broken and every job on it is refused at once, with the reason.
      if (!loaded) {
        worker.terminate();
        return failLoad(new EngineUnavailable(`the validation worker cannot start: ${event.message}`, false, 5));
      }
      this.replace(slot, new EngineUnavailable(`the validation worker failed: ${event.message}`, true, 5));
    };
    slot.worker = worker;
  }

  private async send(slot: Slot, message: WorkerRequest): Promise<unknown> {
    const worker = slot.worker;
    await slot.loaded;
    return new Promise((resolve, reject) => {
      slot.pending.set(message.id, { resolve, reject });
      // The worker may have been replaced while this job waited for it to load.
      if (slot.worker !== worker) return reject(new EngineUnavailable("the validation worker was restarted", false, 1));
      worker.postMessage(message);
    });
  }

  private replace(slot: Slot, reason: Error): void {
    slot.worker.terminate();
    for (const waiter of slot.pending.values()) waiter.reject(reason);
    slot.pending.clear();
    this.attachWorker(slot);
    void this.send(slot, { id: this.nextId++, kind: "warm", entries: this.warm }).catch(() => {});
  }
}
