/// <reference lib="webworker" />
import { rulesetBundle } from "../assets/bundle";
import { createEngine } from "../validation/engine";
import { validateDocument, type SchemaCheckElsewhere, type ValidateRequest } from "../validation/validate";
import { isPdf } from "../pdf/sniff";
import { DomainError } from "../errors/domain-error";
import { failureReply, type ReceiveOutcome, type SchemaAnswer, type UnitAnswer, type WorkerReply, type WorkerRequest } from "./protocol";
import type { XsdSchemaId } from "../profiles/schemas";
import type { CappedXsdOutcome } from "../validation/xsd";
import { lowerThreadPriority } from "./priority";
import { otherJobRunning } from "./jobs-running";
import { collectionAfter, collectionBefore, isLargeXml, type Collection } from "./heap-collections";
import { edenGC, heapSize } from "bun:jsc";

/**
 * An engine worker: holds its own compiled schemas and stylesheets and runs one job at a time (judges
 * a document, reads one, judges and reads a received one, generates one, checks a template's design),
 * off the thread that answers HTTP.
 */
declare const self: Worker;
lowerThreadPriority();
const engine = createEngine(rulesetBundle());

self.onmessage = async (event: MessageEvent<WorkerRequest | UnitAnswer | SchemaAnswer>) => {
  const message = event.data;
  if (message.kind === "unit") return answered(message);
  if (message.kind === "schema-answer") return schemaAnswered(message);
  largeDocument = false;
  let reply: WorkerReply;
  try {
    reply = { id: message.id, ok: true, value: await perform(message) };
  } catch (error) {
    reply = failureReply(message.id, error);
  }
  const after = collectionAfter(largeDocument, otherJobRunning(), handlesPdf(message) ? ++pdfJobs : undefined);
  // Said before the reply, so the pool knows it before the slot comes free.
  if (after === "full") self.postMessage({ id: message.id, collecting: true } satisfies WorkerReply);
  self.postMessage(reply);
  if (after === "full") {
    collect(after);
    self.postMessage({ id: message.id, collecting: false } satisfies WorkerReply);
  }
};

async function perform(message: WorkerRequest): Promise<unknown> {
  switch (message.kind) {
    case "warm":
      for (const entry of message.entries) if (engine.schematron.has(entry)) engine.schematron.warm(entry);
      engine.xsd.warm();
      return null;
    case "validate":
      return judge(message.request, schemaCheckFor(message.id, message.request));
    case "schema":
      return engine.xsd.validate(message.schema, message.bytes);
    case "parse": {
      beforeLarge(message.bytes);
      const { parseDocument } = await import("../generate/parse");
      return parseDocument(message.bytes, { hint: message.hint });
    }
    case "receive":
      return receive(message.request, message.id);
    case "generate": {
      const { generateInvoice } = await import("../generate/generate-invoice");
      return generateInvoice(message.order, { spend: () => spendUnit(message.id), judge });
    }
    case "convert": {
      beforeLarge(message.order.bytes);
      const { convertDocument } = await import("../convert/convert");
      return convertDocument(message.order, { judge });
    }
    case "inspect-transmission": {
      const { inspectForTransmission } = await import("../transmission/inspect");
      return inspectForTransmission(message.order, judge);
    }
    case "design": {
      const { designProblems } = await import("../pdf/design-check");
      return designProblems(message.definition);
    }
  }
}

function judge(request: ValidateRequest, elsewhere?: SchemaCheckElsewhere) {
  beforeLarge(request.bytes);
  return validateDocument(engine, request, elsewhere);
}

/** For a validate or receive job on a large document: its schema checked by another idle worker meanwhile. */
function schemaCheckFor(id: number, request: ValidateRequest): SchemaCheckElsewhere | undefined {
  return request.bytes.byteLength >= SCHEMA_ELSEWHERE_BYTES ? (schema) => checkSchemaElsewhere(id, schema) : undefined;
}

/**
 * From this size a document's schema check (libxml2, about 15-20 ms per MiB here) is worth asking
 * another worker for while this one runs the rules: below it, the check costs little more than the
 * messages.
 */
const SCHEMA_ELSEWHERE_BYTES = 128 * 1024;

/** Validations waiting for the pool's answer to their schema check. */
const schemaChecks = new Map<number, (outcome: CappedXsdOutcome | null) => void>();

function checkSchemaElsewhere(id: number, schema: XsdSchemaId): Promise<CappedXsdOutcome | null> {
  return new Promise((resolve) => {
    schemaChecks.set(id, resolve);
    self.postMessage({ id, asks: "schema", schema } satisfies WorkerReply);
  });
}

function schemaAnswered({ id, outcome }: SchemaAnswer): void {
  schemaChecks.get(id)?.(outcome);
  schemaChecks.delete(id);
}

/**
 * The verdict always; the invoice only when parse maps the document. Parse's refusals (a national
 * format, a document without a number) are data about the document, which the verdict already
 * judges; anything else parse throws is the engine's fault and fails the job.
 */
async function receive(request: ValidateRequest, id: number): Promise<ReceiveOutcome> {
  const outcome = await judge(request, schemaCheckFor(id, request));
  if (!outcome.ok) return outcome;
  const { parseDocument } = await import("../generate/parse");
  try {
    return { ...outcome, parse: await parseDocument(request.bytes) };
  } catch (error) {
    if (error instanceof DomainError) return outcome;
    throw error;
  }
}

/** Jobs waiting for the pool to spend their unit. */
const spending = new Map<number, (spent: boolean) => void>();

/** The quota lives on the HTTP thread: a job asks it to spend the unit and waits for the answer. */
function spendUnit(id: number): Promise<void> {
  return new Promise((resolve, reject) => {
    spending.set(id, (spent) => (spent ? resolve() : reject(new Error("the request's unit could not be spent"))));
    self.postMessage({ id, asks: "unit" } satisfies WorkerReply);
  });
}

function answered({ id, spent }: UnitAnswer): void {
  spending.get(id)?.(spent);
  spending.delete(id);
}

/** Whether the current job met a large XML document. */
let largeDocument = false;
let pdfJobs = 0;
/** The heap's size (`heapSize`: with what its objects own outside it) after the last full collection; 0 before the first large document. */
let collectedSize = 0;

function collect(collection: Collection): void {
  if (collection === "young") edenGC();
  else if (collection === "full") {
    Bun.gc(true);
    collectedSize = heapSize();
  }
}

function beforeLarge(bytes: Uint8Array): void {
  if (!isLargeXml(bytes)) return;
  largeDocument = true;
  const size = heapSize();
  collectedSize ||= size;
  collect(collectionBefore(size, collectedSize));
}

function handlesPdf(message: WorkerRequest): boolean {
  if (message.kind === "validate" || message.kind === "receive") return isPdf(message.request.bytes);
  return (message.kind === "generate" && message.order.pdf !== undefined) || (message.kind === "parse" && isPdf(message.bytes)) || (message.kind === "convert" && isPdf(message.order.bytes));
}

// Messages posted before this module finished loading would be lost, so the pool waits for this.
self.postMessage({ id: 0, ok: true, value: "ready" } satisfies WorkerReply);
