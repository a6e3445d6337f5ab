// What reading one caller's PDF may cost. A PDF under the body limit can still ask for gigabytes
// (a compressed stream that inflates a thousandfold, a chain of such filters, an object stream
// full of tiny objects) or for minutes (damaged structure that makes the parser rescan the file).
// Every reading step charges this budget before it spends: the parser per value, per nesting level
// and per stream, the stream decoder per inflated byte. The first charge over a limit ends the
// whole read with `PdfOverBudget`, whose message says which limit and what the caller can change.
//
// Names and references are bounded for a reason of their own: pdf-lib keeps one instance of each
// name and reference it ever meets, for the life of the process, so they are what a document
// leaves behind in a worker. References to the first objects of generation 0 are the same in every
// document and cost that pool a bounded amount once; the rest, like names, are limited per document.

export interface PdfLimits {
  /** Values parsed, direct or indirect (each array element and dictionary value), and object-stream entries. */
  objects: number;
  /** Arrays and dictionaries inside one another. */
  depth: number;
  /** Streams in the file, object streams included. */
  streams: number;
  /** Distinct names. */
  names: number;
  /** Distinct object references (and object numbers) outside the shared range. */
  references: number;
  /** Longest name, in bytes (ISO 32000-1, Annex C: 127). */
  nameBytes: number;
  /** Bytes produced by decoding streams, summed over the document. */
  inflatedBytes: number;
  /** Wall time for the whole read. */
  timeMs: number;
}

export const PDF_LIMITS: Readonly<PdfLimits> = {
  objects: 200_000,
  depth: 64,
  streams: 10_000,
  names: 4_000,
  references: 1_000,
  nameBytes: 127,
  inflatedBytes: 16 * 1024 * 1024,
  timeMs: 5_000,
};

/** References `n 0 R` with n below this are shared by every document. */
export const SHARED_OBJECT_NUMBERS = 50_000;

const SEND_LESS = "a hybrid invoice needs far less: send a simpler PDF, or the invoice XML on its own";

/** A PDF that would cost more to read than this service spends on one document. */
export class PdfOverBudget extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PdfOverBudget";
  }
}

export class PdfBudget {
  readonly limits: Readonly<PdfLimits>;
  private readonly deadline: number;
  private objects = 0;
  private streams = 0;
  private depth = 0;
  private inflated = 0;
  private readonly names = new Set<string>();
  private readonly references = new Set<string>();
  /** Set on the first overdraft: pdf-lib's parser recovers from errors, this one must end the read. */
  private failure: PdfOverBudget | undefined;

  constructor(limits: Partial<PdfLimits> = {}) {
    this.limits = { ...PDF_LIMITS, ...limits };
    this.deadline = performance.now() + this.limits.timeMs;
  }

  /** Throws again if an earlier charge failed, and when the time is up. */
  check(): void {
    if (this.failure) throw this.failure;
    if (performance.now() > this.deadline) this.fail(`reading the PDF took longer than ${seconds(this.limits.timeMs)}, the most spent on one document; ${SEND_LESS}`);
  }

  object(): void {
    this.check();
    if (++this.objects > this.limits.objects) this.fail(`the PDF has more than ${count(this.limits.objects)} objects (array elements and dictionary values included), the most read from one document; ${SEND_LESS}`);
  }

  stream(): void {
    if (++this.streams > this.limits.streams) this.fail(`the PDF has more than ${count(this.limits.streams)} streams, the most read from one document; ${SEND_LESS}`);
  }

  /** Runs the parse of one array or dictionary one level deeper. */
  nested<T>(parse: () => T): T {
    if (++this.depth > this.limits.depth) this.fail(`the PDF nests arrays and dictionaries more than ${this.limits.depth} levels deep; ${SEND_LESS}`);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  /** True while parsing an indirect object's own value, not something inside it. */
  get atTopLevel(): boolean {
    return this.depth === 0;
  }

  /** A name about to be read, by its length in the file: checked before pdf-lib interns it. */
  nameLength(byteLength: number): void {
    if (byteLength > this.limits.nameBytes) this.fail(`the PDF has a name longer than ${this.limits.nameBytes} bytes, the most PDF allows (ISO 32000-1, Annex C)`);
  }

  name(text: string): void {
    this.names.add(text);
    if (this.names.size > this.limits.names) this.fail(`the PDF uses more than ${count(this.limits.names)} distinct names; ${SEND_LESS}`);
  }

  /** An object's number and generation, in a reference or in its own header. */
  reference(objectNumber: number, generation: number): void {
    if (generation === 0 && objectNumber < SHARED_OBJECT_NUMBERS) return;
    this.references.add(`${objectNumber} ${generation}`);
    if (this.references.size > this.limits.references) {
      this.fail(`the PDF uses more than ${count(this.limits.references)} object numbers of ${count(SHARED_OBJECT_NUMBERS)} or more (or generations other than 0); saving it anew with a PDF tool numbers its objects from 1`);
    }
  }

  /** What a stream may still inflate to: the document's remaining allowance, at most `cap`. */
  allowance(cap = Infinity): number {
    this.check();
    return Math.min(cap, this.limits.inflatedBytes - this.inflated);
  }

  inflate(bytes: number): void {
    this.inflated += bytes;
    if (this.inflated > this.limits.inflatedBytes) this.overInflated();
  }

  /** The decoder stopped a stream at the allowance: the document as a whole is over. */
  overInflated(): never {
    return this.fail(`the PDF's compressed streams would inflate past ${mebibytes(this.limits.inflatedBytes)}, the most read from one document; ${SEND_LESS}`);
  }

  private fail(message: string): never {
    this.failure ??= new PdfOverBudget(message);
    throw this.failure;
  }
}

const count = (n: number) => n.toLocaleString("en-US");
const seconds = (ms: number) => `${ms / 1000} s`;
const mebibytes = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${count(bytes)} bytes`);
