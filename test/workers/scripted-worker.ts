/// <reference lib="webworker" />
// A stand-in engine worker for the pool's tests: it speaks the real protocol, loads in
// milliseconds, and does what it is told. How it loads comes from its first argument ("ok",
// "throw", "exit", "hang", "slow:<ms>"); what it does with a job comes from the job's bytes as text:
//   ok | sleep:<ms> | spin (a CPU loop that never returns) | hang (never answers) | fault (throws)
//   | refuse (a DomainError) | exit (process.exit) | crash (an uncaught error after the reply is due)
//   | exit-in:<ms> (dies that long into the job, without answering) | whoami (answers which worker it is)
//   | collect:<ms> (answers which worker it is, then holds its thread that long, saying it collects)
//   | others (answers whether its pool counts a job other than this one as running)
// A generate job takes its command from the invoice note and then, as the real one does, asks to
// spend its unit; a note "<command>/<command>" says what it does before and after. A validate job
// "ask-schema|<command>" asks for its schema to be checked elsewhere and answers `{ done, outcome }`
// with what came back; the worker asked to check it does <command>. Every other job just succeeds.
import { DomainError } from "../../src/errors/domain-error";
import { failureReply, type SchemaAnswer, type UnitAnswer, type WorkerReply, type WorkerRequest } from "../../src/workers/protocol";
import { otherJobRunning } from "../../src/workers/jobs-running";

declare const self: Worker;
const WORKER = crypto.randomUUID();

const load = process.argv[2] ?? "ok";
if (load === "throw") throw new Error("scripted load failure");
if (load === "exit") process.exit(9);

function commandOf(message: WorkerRequest): string {
  if (message.kind === "validate") return new TextDecoder().decode(message.request.bytes);
  if (message.kind === "schema") return new TextDecoder().decode(message.bytes).split("|")[1] ?? "ok";
  if (message.kind === "parse") return new TextDecoder().decode(message.bytes);
  if (message.kind === "generate") return message.order.request.invoice.note ?? "ok";
  return "ok";
}

/** Does what it is told; false when the job is not to be answered. */
async function act(text: string): Promise<boolean> {
  const [command, arg] = text.split(":");
  if (command === "sleep") await Bun.sleep(Number(arg));
  if (command === "spin") for (;;);
  if (command === "hang") return false;
  if (command === "fault") throw new TypeError("scripted fault");
  if (command === "refuse") throw new DomainError(400, "PARSE_FAILED", "the document cannot be read: scripted", { format: "ubl" });
  if (command === "exit") process.exit(7);
  if (command === "crash") setTimeout(() => { throw new Error("scripted crash"); });
  if (command === "exit-in") setTimeout(() => process.exit(8), Number(arg));
  return command !== "crash" && command !== "exit-in";
}

const spending = new Map<number, (spent: boolean) => void>();
const spendUnit = (id: number) =>
  new Promise<boolean>((resolve) => {
    spending.set(id, resolve);
    self.postMessage({ id, asks: "unit" } satisfies WorkerReply);
  });

const schemaChecks = new Map<number, (outcome: unknown) => void>();
const askSchema = (id: number) =>
  new Promise<unknown>((resolve) => {
    schemaChecks.set(id, resolve);
    self.postMessage({ id, asks: "schema", schema: "ubl-invoice" } satisfies WorkerReply);
  });

self.onmessage = async (event: MessageEvent<WorkerRequest | UnitAnswer | SchemaAnswer>) => {
  const message = event.data;
  if (message.kind === "unit") return void spending.get(message.id)?.(message.spent);
  if (message.kind === "schema-answer") return void schemaChecks.get(message.id)?.(message.outcome);
  const [before, after] = commandOf(message).split("/");
  if (before.startsWith("ask-schema|")) {
    self.postMessage({ id: message.id, ok: true, value: { done: "ask-schema", outcome: await askSchema(message.id) } } satisfies WorkerReply);
    return;
  }
  try {
    if (!(await act(before))) return;
    if (message.kind === "generate") {
      if (!(await spendUnit(message.id))) throw new Error("scripted: the unit was not spent");
      if (after && !(await act(after))) return;
    }
    const [done, arg] = before.split(":");
    if (done === "others") return void self.postMessage({ id: message.id, ok: true, value: { done, others: otherJobRunning() } } satisfies WorkerReply);
    if (done === "collect") self.postMessage({ id: message.id, collecting: true } satisfies WorkerReply);
    self.postMessage({ id: message.id, ok: true, value: done === "whoami" || done === "collect" ? { done, worker: WORKER } : { done } } satisfies WorkerReply);
    if (done === "collect") {
      // As a full collection does: the thread answers nothing until it is over.
      for (const end = performance.now() + Number(arg); performance.now() < end; );
      self.postMessage({ id: message.id, collecting: false } satisfies WorkerReply);
    }
  } catch (error) {
    self.postMessage(failureReply(message.id, error));
  }
};

const ready = () => self.postMessage({ id: 0, ok: true, value: "ready" } satisfies WorkerReply);
if (load.startsWith("slow:")) setTimeout(ready, Number(load.slice(5)));
else if (load !== "hang") ready();
