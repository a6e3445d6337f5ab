/// <reference lib="webworker" />
import { rulesetBundle } from "../assets/bundle";
import { createEngine } from "../validation/engine";
import { validateDocument } from "../validation/validate";
import { isPdf } from "../pdf/sniff";
import { failureReply, type WorkerReply, type WorkerRequest } from "./protocol";
import { lowerThreadPriority } from "./priority";

/**
 * An engine worker: holds its own compiled schemas and stylesheets and judges one document at a
 * time, or reads one, writes one or draws one PDF, off the thread that answers HTTP.
 */
declare const self: Worker;
lowerThreadPriority();
const engine = createEngine(rulesetBundle());

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const message = event.data;
  try {
    self.postMessage({ id: message.id, ok: true, value: await perform(message) } satisfies WorkerReply);
  } catch (error) {
    self.postMessage(failureReply(message.id, error));
  }
  if (handlesPdf(message) && ++pdfJobs % COLLECT_EVERY === 0) Bun.gc(true);
};

async function perform(message: WorkerRequest): Promise<unknown> {
  switch (message.kind) {
    case "warm":
      for (const entry of message.entries) if (engine.schematron.has(entry)) engine.schematron.warm(entry);
      engine.xsd.warm();
      return null;
    case "validate":
      if (isLargeXml(message.request.bytes)) Bun.gc(true);
      return validateDocument(engine, message.request);
    case "parse": {
      if (isLargeXml(message.bytes)) Bun.gc(true);
      const { parseDocument } = await import("../generate/parse");
      return parseDocument(message.bytes, { hint: message.hint });
    }
    case "generate": {
      // The PDF kind is checked before the XML is written: a request with both faults is refused
      // for the PDF. pdf-output brings pdf-lib, needed only when a PDF is asked for.
      const { generateXml } = await import("../generate/generate");
      const pdfKind = message.pdf ? (await import("../generate/pdf-output")).checkPdfRequest(message.request.standard, message.pdf.hasTemplate) : undefined;
      return { generated: generateXml(message.request, { livemode: message.livemode }), pdfKind };
    }
    case "design": {
      const { designProblems } = await import("../pdf/design-check");
      return designProblems(message.definition);
    }
    case "pdf": {
      // pdf-lib and the fonts load only in workers that draw a PDF.
      const { renderPdfOutput } = await import("../generate/pdf-output");
      return renderPdfOutput(message.generated, message.pdfKind, message.request);
    }
  }
}

/**
 * Two kinds of job leave tens of MiB of garbage, and with a worker per core the collector let the
 * process grow hundreds of MiB past what it holds:
 * - a large XML document is judged or read on a collected heap, so its garbage does not come on top of
 *   earlier jobs' (500-line generate with verify on two workers: peak 498 -> 386 MiB); the
 *   collection costs tens of milliseconds against its hundreds;
 * - a hybrid PDF (pdf-lib parses or writes the whole file) is followed by a full collection every
 *   fourth time, the reply already sent: after every one cut hybrid-PDF validations/s to a third,
 *   every fourth costs about a third of them.
 * Typical XML validations never pay for either.
 */
const LARGE_DOCUMENT = 256 * 1024;
const isLargeXml = (bytes: Uint8Array) => bytes.byteLength > LARGE_DOCUMENT && !isPdf(bytes);
let pdfJobs = 0;
const COLLECT_EVERY = 4;

function handlesPdf(message: WorkerRequest): boolean {
  if (message.kind === "validate") return isPdf(message.request.bytes);
  return message.kind === "pdf" || (message.kind === "parse" && isPdf(message.bytes));
}

// Messages posted before this module finished loading would be lost, so the pool waits for this.
self.postMessage({ id: 0, ok: true, value: "ready" } satisfies WorkerReply);
