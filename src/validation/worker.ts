/// <reference lib="webworker" />
import { rulesetBundle } from "../assets/bundle";
import { createEngine } from "./engine";
import { isPdf, validateDocument, type ValidateRequest } from "./validate";
import type { GeneratedXml } from "../generate/generate";
import type { PdfKind, PdfRequest } from "../generate/pdf-output";

/**
 * An engine worker: holds its own compiled schemas and stylesheets and judges one document at a
 * time, or draws one PDF, off the thread that answers HTTP.
 */
export type WorkerRequest =
  | { id: number; kind: "validate"; request: ValidateRequest }
  | { id: number; kind: "pdf"; generated: GeneratedXml; pdfKind: PdfKind; request: PdfRequest }
  | { id: number; kind: "warm"; entries: string[] };
export type WorkerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

declare const self: Worker;
const engine = createEngine(rulesetBundle());

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const message = event.data;
  try {
    if (message.kind === "warm") {
      for (const entry of message.entries) if (engine.schematron.has(entry)) engine.schematron.warm(entry);
      engine.xsd.warm();
      self.postMessage({ id: message.id, ok: true, value: null } satisfies WorkerReply);
    } else if (message.kind === "pdf") {
      // pdf-lib and the fonts load only in workers that draw a PDF.
      const { renderPdfOutput } = await import("../generate/pdf-output");
      self.postMessage({ id: message.id, ok: true, value: await renderPdfOutput(message.generated, message.pdfKind, message.request) } satisfies WorkerReply);
    } else {
      if (isLargeXml(message.request.bytes)) Bun.gc(true);
      const outcome = await validateDocument(engine, message.request);
      self.postMessage({ id: message.id, ok: true, value: outcome } satisfies WorkerReply);
    }
  } catch (error) {
    self.postMessage({ id: message.id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies WorkerReply);
  }
  if (handlesPdf(message) && ++pdfJobs % COLLECT_EVERY === 0) Bun.gc(true);
};

/**
 * Two kinds of job leave tens of MiB of garbage, and with a worker per core the collector let the
 * process grow hundreds of MiB past what it holds:
 * - a large XML document is judged on a collected heap, so its garbage does not come on top of
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
  return message.kind === "pdf" || (message.kind === "validate" && isPdf(message.request.bytes));
}

// Messages posted before this module finished loading would be lost, so the pool waits for this.
self.postMessage({ id: 0, ok: true, value: "ready" } satisfies WorkerReply);
