import { isPdf } from "../pdf/sniff";

/**
 * When an engine worker collects its heap itself, beside JavaScriptCore's own policy
 * (src/cli/memory-target.ts). Two kinds of job leave tens of MiB of garbage, and with a worker per
 * core the collector let the process grow hundreds of MiB past what it holds.
 *
 * A large XML document (judged, read, converted, or generated and judged):
 * - before its job, a young-generation collection (about 1 ms): it frees the garbage of the jobs
 *   before, the last large document's tree among it, while that is still young, and gives this
 *   job the whole of the young generation's allowance. Without it the allowance left by earlier
 *   jobs ran out in the middle of the job: the collection then found the document's tree alive,
 *   moved it to the old generation, and a full collection of the whole heap (15-25 ms with a few
 *   profiles' rules, 30-60 with every profile's) followed nearly every document. With it, one
 *   client sending large documents one after another (the executables before and after,
 *   alternating, the same hour): 900-line UBL 55-61 -> 41-45 ms median, 677-line XRechnung CII 58
 *   -> 41-43 ms. The young collection finds the job's own bytes alive and moves them to the old
 *   generation, about 2 MiB per 1 MiB document, which only a full collection frees. So when the
 *   heap, counted with what its objects own outside it (bun:jsc `heapSize`: the documents' bytes
 *   and strings), grew more than {@link GROWN_SINCE_COLLECTED} since the last full collection, a
 *   full one instead (every 15 or so large documents, 15-25 ms). Counted by `heapTotal`, which
 *   leaves those bytes out, the bound never came: sequential 677-line CII validations peaked at
 *   448-472 MiB, against 352-359 with this bound (384-386 at 64 MiB), in the same times, and a
 *   replay of the bench's loads at 458 against 442 (443 before the young collection);
 * - after its reply, a full collection when another job is running in the pool (jobs-running.ts),
 *   so that the garbage of large jobs side by side does not add up (500-line generate with verify
 *   on two workers: peak 498 -> 386 MiB). The reply is sent first, and the pool sends the next job
 *   to a worker that is not collecting when one is idle. With no other job running it is left to
 *   the young collection before the next large document: a full collection then ran on one core
 *   while the client's next document was judged on the other, slowing it, and lowered no peak
 *   (bench/memory-phases.ts "900 lines").
 *
 * A hybrid PDF (pdf-lib parses or writes the whole file): a full collection every
 * {@link PDF_JOBS_PER_COLLECTION}th time, the reply already sent: after every one cut hybrid-PDF
 * validations/s to a third, every fourth costs about a third of them.
 *
 * Typical XML validations never pay for either.
 */
export type Collection = "full" | "young" | "none";

const LARGE_DOCUMENT = 256 * 1024;
export const GROWN_SINCE_COLLECTED = 32 * 1024 * 1024;
export const PDF_JOBS_PER_COLLECTION = 4;

export const isLargeXml = (bytes: Uint8Array) => bytes.byteLength > LARGE_DOCUMENT && !isPdf(bytes);

/**
 * Before a job meets a large XML document: the heap's size now and after the last full collection,
 * each with the memory its objects own outside it (bun:jsc `heapSize`).
 */
export function collectionBefore(size: number, collectedSize: number): Collection {
  return size > collectedSize + GROWN_SINCE_COLLECTED ? "full" : "young";
}

/** After a job's reply: whether it met a large XML document, whether another job runs, how many PDF jobs this one makes. */
export function collectionAfter(largeDocument: boolean, otherJobRunning: boolean, pdfJobs: number | undefined): Collection {
  if (largeDocument && otherJobRunning) return "full";
  return pdfJobs !== undefined && pdfJobs % PDF_JOBS_PER_COLLECTION === 0 ? "full" : "none";
}
