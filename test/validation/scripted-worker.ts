/// <reference lib="webworker" />
// A stand-in engine worker for the pool's tests: it speaks the real protocol, loads in
// milliseconds, and does what it is told. How it loads comes from its first argument ("ok",
// "throw", "exit", "hang", "slow:<ms>"); what it does with a job comes from the job's bytes as text:
//   ok | sleep:<ms> | spin (a CPU loop that never returns) | hang (never answers) | fault (throws)
//   | refuse (a DomainError) | exit (process.exit) | crash (an uncaught error after the reply is due)
//   | exit-in:<ms> (dies that long into the job, without answering)
// A generate job takes its command from the invoice note; every other job just succeeds.
import { DomainError } from "../../src/errors/domain-error";
import { failureReply, type WorkerReply, type WorkerRequest } from "../../src/workers/protocol";

declare const self: Worker;

const load = process.argv[2] ?? "ok";
if (load === "throw") throw new Error("scripted load failure");
if (load === "exit") process.exit(9);

function commandOf(message: WorkerRequest): string {
  if (message.kind === "validate") return new TextDecoder().decode(message.request.bytes);
  if (message.kind === "parse") return new TextDecoder().decode(message.bytes);
  if (message.kind === "generate") return message.request.invoice.note ?? "ok";
  return "ok";
}

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const message = event.data;
  const [command, arg] = commandOf(message).split(":");
  try {
    if (command === "sleep") await Bun.sleep(Number(arg));
    if (command === "spin") for (;;);
    if (command === "hang") return;
    if (command === "fault") throw new TypeError("scripted fault");
    if (command === "refuse") throw new DomainError(400, "PARSE_FAILED", "the document cannot be read: scripted", { format: "ubl" });
    if (command === "exit") process.exit(7);
    if (command === "crash") return void setTimeout(() => { throw new Error("scripted crash"); });
    if (command === "exit-in") return void setTimeout(() => process.exit(8), Number(arg));
    self.postMessage({ id: message.id, ok: true, value: { done: command } } satisfies WorkerReply);
  } catch (error) {
    self.postMessage(failureReply(message.id, error));
  }
};

const ready = () => self.postMessage({ id: 0, ok: true, value: "ready" } satisfies WorkerReply);
if (load.startsWith("slow:")) setTimeout(ready, Number(load.slice(5)));
else if (load !== "hang") ready();
