// Reads a caller's PDF into a pdf-lib context under a budget (budget.ts). pdf-lib's parser is kept
// for everything it does well (its tolerance of damaged files is what real hybrid invoices need),
// changed only through the hooks a subclass may override:
// - every value, nesting level, stream, name and reference is charged as it is read;
// - object streams are decoded by stream-decode.ts under the budget and parsed here, and
//   cross-reference streams are not decoded at all (pdf-lib reads only their trailer entries);
//   pdf-lib's own handling of both inflates the whole stream as it loads the file;
// - cross-reference tables are stepped over: pdf-lib discards them, but not the references they name;
// - the first overdraft ends the read. pdf-lib recovers from any error inside an object by
//   skipping to `endobj`, so a budget error is thrown again at every later step until it escapes.

import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFObjectParser,
  PDFObjectStreamParser,
  PDFParser,
  PDFRawStream,
  PDFRef,
  type PDFContext,
  type PDFObject,
} from "pdf-lib";
import { PdfOverBudget, type PdfBudget } from "./budget.ts";
import { decodeStream } from "./stream-decode.ts";
import { isPdf } from "./sniff.ts";
import type { Result } from "../errors/result.ts";

/** A caller's PDF opened for reading, or why it cannot be: the reasons every reader of one reports alike. */
export type OpenedPdf = Result<{ context: PDFContext; catalog: PDFDict }, { reason: "unreadable-pdf" | "over-budget"; message: string }>;

/** The document and its catalog, refused as a result (never thrown) when it is no PDF, damaged, encrypted or over budget. */
export async function openUntrustedPdf(bytes: Uint8Array, budget: PdfBudget): Promise<OpenedPdf> {
  if (!isPdf(bytes)) return unreadable("not a PDF: no %PDF- header in the first 1024 bytes");
  let context: PDFContext;
  try {
    context = await readUntrustedPdf(bytes, budget);
  } catch (error) {
    if (error instanceof PdfOverBudget) return { ok: false, reason: "over-budget", message: error.message };
    return unreadable(`PDF could not be parsed (truncated or corrupt?): ${error instanceof Error ? error.message : String(error)}`);
  }
  if (context.lookup(context.trailerInfo.Encrypt)) return unreadable("encrypted PDFs are not supported: the embedded files cannot be read");
  // pdf-lib recovers what it can; a file cut short often leaves no catalog at all.
  const catalog = context.lookup(context.trailerInfo.Root);
  if (!(catalog instanceof PDFDict)) return unreadable("PDF has no readable document catalog (truncated or corrupt)");
  return { ok: true, context, catalog };
}

const unreadable = (message: string): OpenedPdf => ({ ok: false, reason: "unreadable-pdf", message });

/** The document's objects; rejects with `PdfOverBudget` when reading it would cost more than the budget allows. */
export async function readUntrustedPdf(bytes: Uint8Array, budget: PdfBudget): Promise<PDFContext> {
  try {
    return await new DocumentParser(bytes, budget).parseDocument();
  } catch (error) {
    budget.check(); // an overdraft (or the deadline) is the reason, whatever pdf-lib made of it
    throw error;
  }
}

// Names end at white space or a delimiter (ISO 32000-1, 7.2.2).
const NAME_END = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20, 0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);

type ParserClass = abstract new (...args: any[]) => PDFObjectParser;

/** The budget's charges on pdf-lib's object parsing, for the document and for its object streams alike. */
function charged<Base extends ParserClass>(base: Base) {
  abstract class Charged extends base {
    protected budget!: PdfBudget;

    override parseObject(): PDFObject {
      this.budget.object();
      const object = super.parseObject();
      if (object instanceof PDFRawStream) this.budget.stream();
      return object;
    }

    protected override parseArray(): PDFArray {
      return this.budget.nested(() => super.parseArray());
    }

    protected override parseDict(): PDFDict {
      return this.budget.nested(() => super.parseDict());
    }

    // Measured before pdf-lib interns the name: an interned name is never freed.
    protected override parseName(): PDFName {
      const start = this.bytes.offset() + 1;
      let end = start;
      for (; end - start <= this.budget.limits.nameBytes; end++) {
        const byte: number | undefined = this.bytes.peekAt(end);
        if (byte === undefined || NAME_END.has(byte)) break;
      }
      this.budget.nameLength(end - start);
      const name = super.parseName();
      this.budget.name(name.asString());
      return name;
    }

    protected override parseNumberOrRef(): PDFNumber | PDFRef {
      const value = super.parseNumberOrRef();
      if (value instanceof PDFRef) this.budget.reference(value.objectNumber, value.generationNumber);
      return value;
    }

    // Called between every two tokens, and by pdf-lib's recovery before it resumes.
    protected override skipWhitespaceAndComments(): void {
      this.budget.check();
      super.skipWhitespaceAndComments();
    }
  }
  return Charged;
}

class DocumentParser extends charged(PDFParser) {
  /** The last two integers read: before an indirect object's value, its header's number and generation. */
  private lastIntegers: [number, number] = [0, 0];

  constructor(bytes: Uint8Array, budget: PdfBudget) {
    super(bytes, Infinity, false, false);
    this.budget = budget;
  }

  // pdf-lib reads a cross-reference table only to throw it away (it finds objects by scanning the
  // file), and interns a reference per entry as it goes: the table's entries are stepped over with
  // its keyword, so pdf-lib finds an empty table and reads the trailer after it.
  protected override matchKeyword(keyword: number[]): boolean {
    if (!super.matchKeyword(keyword)) return false;
    if (isXrefKeyword(keyword)) while (!this.bytes.done() && XREF_ENTRY_BYTES.has(this.bytes.peek())) this.bytes.next();
    return true;
  }

  protected override parseRawInt(): number {
    const value = super.parseRawInt();
    this.lastIntegers = [this.lastIntegers[1], value];
    return value;
  }

  // pdf-lib looks at an indirect object's value after this returns: an object stream handed back
  // empty has nothing left for it to expand, a cross-reference stream nothing left to inflate.
  override parseObject(): PDFObject {
    const indirect = this.budget.atTopLevel;
    // pdf-lib interned the object's own reference while reading its header (`12 0 obj`).
    if (indirect) this.budget.reference(...this.lastIntegers);
    const object = super.parseObject();
    if (!indirect || !(object instanceof PDFRawStream)) return object;
    const type = object.dict.lookup(PDFName.of("Type"));
    if (type === PDFName.of("ObjStm")) return this.expand(object);
    if (type === PDFName.of("XRef")) return trailerEntries(object);
    return object;
  }

  private expand(stream: PDFRawStream): PDFRawStream {
    const plain = stream.dict.clone();
    plain.delete(PDFName.of("Filter"));
    plain.delete(PDFName.of("DecodeParms"));
    new ObjectStreamReader(PDFRawStream.of(plain, decodeStream(stream, this.budget)), this.budget).readInto(this.context);
    return PDFRawStream.of(this.context.obj({ Type: "ObjStm", N: 0, First: 0 }), new Uint8Array(0));
  }
}

const XREF = [0x78, 0x72, 0x65, 0x66];
const isXrefKeyword = (keyword: number[]) => keyword.length === XREF.length && keyword.every((byte, i) => byte === XREF[i]);
/** What a cross-reference table's subsections are written with: digits, white space, `n` and `f`. */
const XREF_ENTRY_BYTES = new Set([..."0123456789nf \t\r\n\f\0"].map((c) => c.charCodeAt(0)));

/** The trailer entries of a cross-reference stream, over no entries (pdf-lib discards the entries it reads). */
function trailerEntries(stream: PDFRawStream): PDFRawStream {
  const { dict } = stream;
  // The type checks pdf-lib makes: a stream that fails them is a damaged object, not a trailer.
  dict.lookup(PDFName.of("Size"), PDFNumber);
  dict.lookup(PDFName.of("W"), PDFArray);
  const empty = dict.context.obj({ Type: "XRef", Size: 0, W: [1, 1, 1] });
  for (const key of ["Root", "Encrypt", "Info", "ID"]) {
    const value = dict.get(PDFName.of(key));
    if (value) empty.set(PDFName.of(key), value);
  }
  return PDFRawStream.of(empty, new Uint8Array(0));
}

/** An object stream's objects (ISO 32000-1, 7.5.7), parsed synchronously under the budget. */
class ObjectStreamReader extends charged(PDFObjectStreamParser) {
  private readonly first: number;
  private readonly count: number;

  /** `stream` is already decoded: pdf-lib's constructor would decode it again, unbounded. */
  constructor(stream: PDFRawStream, budget: PdfBudget) {
    super(stream);
    this.budget = budget;
    this.first = stream.dict.lookup(PDFName.of("First"), PDFNumber).asNumber();
    this.count = stream.dict.lookup(PDFName.of("N"), PDFNumber).asNumber();
  }

  readInto(context: PDFContext): void {
    const entries: { objectNumber: number; offset: number }[] = [];
    for (let i = 0; i < this.count; i++) {
      this.budget.object();
      this.skipWhitespaceAndComments();
      const objectNumber = this.parseRawInt();
      this.skipWhitespaceAndComments();
      entries.push({ objectNumber, offset: this.parseRawInt() });
    }
    for (const { objectNumber, offset } of entries) {
      this.bytes.moveTo(this.first + offset);
      const object = this.parseObject();
      this.budget.reference(objectNumber, 0);
      context.assign(PDFRef.of(objectNumber, 0), object);
    }
  }
}
