// XSD validation on libxml2 (WASM). Each pinned root schema is compiled once, on first use, and
// reused for every document. libxml2 reads nothing by itself while we call it: a single input
// provider answers every URL it asks for, from the pinned files only, so schema imports work
// offline and instance documents can pull in nothing at all.

import {
  ParseOption,
  XmlDocument,
  XmlLibError,
  XsdValidator,
  xmlRegisterInputProvider,
  type ErrorDetail,
} from "libxml2-wasm";
import * as libxml2 from "libxml2-wasm/lib/libxml2.mjs";
import { decodeForScan, readProlog } from "../syntax/detect.ts";
import { FINDINGS_PER_RULE } from "./finding-caps.ts";
import { XSD_COMPILED_TOGETHER, XSD_SCHEMAS, type XsdSchemaId } from "../profiles/schemas.ts";
import { sniffEncoding } from "../syntax/decode.ts";
import type { XsdEngine, XsdFinding, XsdOutcome, XsdStatus } from "./xsd-schemas.ts";
import { XML_LIMITS } from "../syntax/xml-policy.ts";

/** An XSD verdict whose findings stop at the per-rule cap (they all have the rule id XSD): `omitted` more were counted. */
export interface CappedXsdOutcome extends XsdOutcome {
  omitted: number;
}

export interface CappedXsdEngine extends XsdEngine {
  validate(schema: XsdSchemaId, xml: Uint8Array | string): CappedXsdOutcome;
}

/** Reads a pinned file by its path relative to the rulesets root (`<key>/<version>/...`). */
type SchemaFiles = (relativePath: string) => Uint8Array | string;

/**
 * Absolute imports in the pinned schemas, mapped to the copy kept beside the importing schema
 * (`<key>/<version>/<file>`), as an XML catalog would.
 */
const CATALOG: Record<string, string> = {
  "http://www.w3.org/TR/2002/REC-xmldsig-core-20020212/xmldsig-core-schema.xsd": "xmldsig-core-schema.xsd",
  "http://www.w3.org/TR/xmldsig-core/xmldsig-core-schema.xsd": "xmldsig-core-schema.xsd",
};

interface XsdOptions {
  /** Documents larger than this are refused unparsed. */
  maxBytes?: number;
}

// libxml2 without XML_PARSE_HUGE already caps element depth (256), name and text sizes and entity
// amplification; we add NONET/NO_XXE so no external resource is even attempted, and never NOENT.
const INSTANCE_PARSE = ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE | ParseOption.XML_PARSE_BIG_LINES;
const SCHEMA_PARSE = ParseOption.XML_PARSE_NONET;
const SCHEME = "einvoice-xsd:///";
/** The XML reading policy's size: what the schema step reads is what every other reader reads. */
const DEFAULT_MAX_BYTES = XML_LIMITS.maxBytes;

// --- the one input provider -------------------------------------------------------------------
// libxml2 keeps a small global table of input callbacks, so ours is registered once per process.
// It claims URLs only while one of our calls runs (`resolver` set), leaving other libxml2 users
// alone; during our calls it claims every URL, so libxml2's own file and network loaders never run.

type Resolver = (url: string) => Uint8Array | undefined;
let resolver: Resolver | null = null;
let registered = false;
const openFiles = new Map<number, { data: Uint8Array; pos: number }>();
let nextFd = 1;

function registerProvider(): void {
  if (registered) return;
  const ok = xmlRegisterInputProvider({
    match: () => resolver !== null,
    open: (url) => {
      const data = resolver?.(url);
      if (!data) return undefined;
      const fd = nextFd++;
      openFiles.set(fd, { data, pos: 0 });
      return fd;
    },
    read: (fd, buf) => {
      const file = openFiles.get(fd);
      if (!file) return -1;
      const n = Math.min(buf.byteLength, file.data.byteLength - file.pos);
      buf.set(file.data.subarray(file.pos, file.pos + n));
      file.pos += n;
      return n;
    },
    close: (fd) => openFiles.delete(fd),
  });
  if (!ok) throw new Error("libxml2 refused the schema input provider (callback table full)");
  registered = true;
}

function withResolver<T>(r: Resolver, run: () => T): T {
  const previous = resolver;
  resolver = r;
  try {
    return run();
  } finally {
    resolver = previous;
  }
}

const denyAll: Resolver = () => undefined;

// --- findings ---------------------------------------------------------------------------------

function toFinding(d: ErrorDetail): XsdFinding {
  return {
    message: d.message.trim(),
    ...(d.line > 0 ? { line: d.line } : {}),
    ...(d.col > 0 ? { column: d.col } : {}),
    ...(d.xpath ? { location: d.xpath } : {}),
  };
}

function findingsOf(error: unknown): XsdFinding[] {
  if (error instanceof XmlLibError && error.details.length > 0) return error.details.map(toFinding);
  return [{ message: error instanceof Error && error.message ? error.message : String(error) }];
}

// --- schema errors, counted past the cap ------------------------------------------------------
// libxml2-wasm's XsdValidator.validate keeps every schema error with its node's XPath, which
// libxml2 computes by walking the node's preceding siblings: N invalid like-named siblings cost N²
// and answered N findings. We make the same libxml2 calls with our own error handler, which
// formats the first FINDINGS_PER_RULE errors and only counts the rest. The calls and the `_ptr`
// fields are the library's internals (0.7.x, pinned by the lockfile); the XSD tests run them.

interface SchemaErrors {
  valid: boolean;
  kept: XsdFinding[];
  omitted: number;
}

type Internals = { addFunction(handler: (data: number, error: number) => void, signature: string): number };
let collecting: SchemaErrors | null = null;
let errorHandler = 0;

function schemaErrorHandler(): number {
  errorHandler ||= (libxml2 as unknown as Internals).addFunction((_data, error) => {
    const errors = collecting;
    if (!errors) return;
    if (errors.kept.length >= FINDINGS_PER_RULE) errors.omitted++;
    else errors.kept.push(toFinding(detailOf(error)));
  }, "vii");
  return errorHandler;
}

function detailOf(error: number): ErrorDetail {
  const xpath = libxml2.xmlGetNodePath(libxml2.XmlErrorStruct.node(error));
  return {
    message: libxml2.XmlErrorStruct.message(error),
    level: libxml2.XmlErrorStruct.level(error),
    line: libxml2.XmlErrorStruct.line(error),
    col: libxml2.XmlErrorStruct.col(error),
    ...(xpath !== null ? { xpath } : {}),
  };
}

/** The libxml2 pointer a libxml2-wasm object wraps. */
function pointerOf(object: XsdValidator | XmlDocument): number {
  const pointer = (object as unknown as { _ptr?: unknown })._ptr;
  if (typeof pointer !== "number" || !pointer) throw new Error("libxml2-wasm no longer exposes its objects' pointers: the capped schema validation needs updating");
  return pointer;
}

function schemaErrors(validator: XsdValidator, doc: XmlDocument): SchemaErrors {
  const context = libxml2.xmlSchemaNewValidCtxt(pointerOf(validator));
  if (!context) throw new Error("libxml2 could not allocate a schema validation context");
  const errors: SchemaErrors = { valid: false, kept: [], omitted: 0 };
  collecting = errors;
  try {
    libxml2.xmlSchemaSetValidStructuredErrors(context, schemaErrorHandler(), 0);
    const status = libxml2.xmlSchemaValidateDoc(context, pointerOf(doc));
    // As XsdValidator.validate reports them: an internal error is a finding too, never a pass.
    if (status < 0) return { valid: false, kept: [{ message: "Invalid input or internal error" }], omitted: 0 };
    // Valid, whatever warnings libxml2 reported on the way.
    if (status === 0) return { valid: true, kept: [], omitted: 0 };
    if (!errors.kept.length) errors.kept.push({ message: "the document does not match its schema" });
    return errors;
  } finally {
    collecting = null;
    libxml2.xmlSchemaFreeValidCtxt(context);
  }
}

// The prolog is almost always within the first few hundred bytes; decode the whole document only
// when the head does not reach the root element (say, a huge leading comment).
const HEAD_BYTES = 64 * 1024;
function hasDoctype(bytes: Uint8Array): boolean {
  const head = readProlog(decodeForScan(bytes.subarray(0, HEAD_BYTES)));
  if (head.root || head.doctype || bytes.byteLength <= HEAD_BYTES) return head.doctype;
  return readProlog(decodeForScan(bytes)).doctype;
}

const bytesOf = (file: Uint8Array | string) => (typeof file === "string" ? new TextEncoder().encode(file) : file);

// --- roots compiled together ------------------------------------------------------------------
// A shared validator holds the global declarations of every root of its group. Against it, a
// document gets its own root's verdict unless the validation looks up a global component by a name
// in another root's namespace: an element under a lax or strict wildcard (UBL's extension content),
// an xsi:type, or another root element. Each needs that namespace declared in the document, written
// out or hidden behind a character reference (DTDs, which could default one, are refused). A
// document showing neither is judged by the shared validator; any other by its root's own, compiled
// the first time such a document comes. The search reads bytes, so it answers only for
// ASCII-compatible encodings; a document in another goes to its root's own validator too.

interface SharedRoots {
  roots: readonly XsdSchemaId[];
  /** Once `warm` compiled it: the validator, and each root's target namespace (read from its schema) as the bytes a document would spell it with. */
  compiled?: { validator: XsdValidator; namespaces: ReadonlyMap<XsdSchemaId, Buffer> };
}

const CHARACTER_REFERENCE = Buffer.from("&#");

function sharedRoots(): Map<XsdSchemaId, SharedRoots> {
  const byRoot = new Map<XsdSchemaId, SharedRoots>();
  for (const roots of XSD_COMPILED_TOGETHER) {
    const group: SharedRoots = { roots };
    for (const id of roots) byRoot.set(id, group);
  }
  return byRoot;
}

/** Whether judging `bytes` against `schema` could see another root's declarations in a shared validator. */
function mayMeetOtherRoots(bytes: Uint8Array, schema: XsdSchemaId, namespaces: ReadonlyMap<XsdSchemaId, Buffer>): boolean {
  const { encoding } = sniffEncoding(bytes);
  if (encoding !== undefined && encoding !== "UTF-8") return true;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (text.includes(CHARACTER_REFERENCE)) return true;
  for (const [id, namespace] of namespaces) if (id !== schema && text.includes(namespace)) return true;
  return false;
}

/** The `targetNamespace` a pinned root schema declares. */
function targetNamespace(schema: Uint8Array, entry: string): string {
  const namespace = /\btargetNamespace\s*=\s*["']([^"']+)["']/.exec(new TextDecoder().decode(schema))?.[1];
  if (!namespace) throw new Error(`${entry} declares no targetNamespace`);
  return namespace;
}

// --- engine -----------------------------------------------------------------------------------

export function createXsdEngine(files: SchemaFiles, options: XsdOptions = {}): CappedXsdEngine {
  registerProvider();
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const compiled = new Map<XsdSchemaId, XsdValidator>();

  const schemaResolver = (entry: string): Resolver => {
    const keyVersion = entry.split("/").slice(0, 2).join("/");
    return (url) => {
      const mapped = CATALOG[url];
      const path = mapped ? `${keyVersion}/${mapped}` : url.startsWith(SCHEME) ? decodeURIComponent(url.slice(SCHEME.length)) : undefined;
      // Relative imports resolve against the entry's URL; nothing may climb out of the pinned tree.
      if (!path || path.split("/").includes("..")) return undefined;
      try {
        return bytesOf(files(path));
      } catch {
        return undefined;
      }
    };
  };

  const shared = sharedRoots();

  function compileDocument(entry: string, url: string, bytes: Uint8Array): XsdValidator {
    return withResolver(schemaResolver(entry), () => {
      using doc = XmlDocument.fromBuffer(bytes, { url, option: SCHEMA_PARSE });
      return XsdValidator.fromDoc(doc);
    });
  }

  function compile(id: XsdSchemaId): XsdValidator {
    let validator = compiled.get(id);
    if (!validator) {
      const entry = XSD_SCHEMAS[id];
      compiled.set(id, (validator = compileDocument(entry, SCHEME + entry, bytesOf(files(entry)))));
    }
    return validator;
  }

  /** A schema importing every root of the group, beside the first (the catalog is per key and version). */
  function compileTogether(roots: readonly XsdSchemaId[]): NonNullable<SharedRoots["compiled"]> {
    const namespaces = new Map(roots.map((id) => [id, Buffer.from(targetNamespace(bytesOf(files(XSD_SCHEMAS[id])), XSD_SCHEMAS[id]))]));
    const imports = roots.map((id) => `<xs:import namespace="${namespaces.get(id)!.toString()}" schemaLocation="${SCHEME}${XSD_SCHEMAS[id]}"/>`);
    const entry = XSD_SCHEMAS[roots[0]];
    const wrapper = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">${imports.join("")}</xs:schema>`;
    const validator = compileDocument(entry, `${SCHEME}${entry.slice(0, entry.lastIndexOf("/"))}/compiled-together.xsd`, bytesOf(wrapper));
    return { validator, namespaces };
  }

  /**
   * The validator a document is judged by: its root's group's when the document cannot tell and
   * `warm` has compiled it (a worker, judging documents for hours), else its root's own (the
   * command line's one document, which would wait for every root of the group to compile).
   */
  function validatorFor(schema: XsdSchemaId, bytes: Uint8Array): XsdValidator {
    const together = shared.get(schema)?.compiled;
    if (together && !mayMeetOtherRoots(bytes, schema, together.namespaces)) return together.validator;
    return compile(schema);
  }

  function warmOne(id: XsdSchemaId): void {
    const group = shared.get(id);
    if (group) group.compiled ??= compileTogether(group.roots);
    else compile(id);
  }

  function validate(schema: XsdSchemaId, xml: Uint8Array | string): CappedXsdOutcome {
    const outcome = (status: XsdStatus, findings: XsdFinding[], omitted = 0): CappedXsdOutcome => ({ valid: status === "valid", status, schema, findings, omitted });
    const bytes = bytesOf(xml);
    if (bytes.byteLength > maxBytes) {
      return outcome("refused", [{ message: `document of ${bytes.byteLength} bytes exceeds the ${maxBytes}-byte limit for XML validation` }]);
    }
    if (hasDoctype(bytes)) {
      return outcome("refused", [{ message: "document type declarations (DOCTYPE) are not accepted: DTDs and entity declarations are refused for security" }]);
    }
    const validator = validatorFor(schema, bytes);
    return withResolver(denyAll, () => {
      let doc: XmlDocument;
      try {
        doc = XmlDocument.fromBuffer(bytes, { option: INSTANCE_PARSE });
      } catch (error) {
        return outcome("malformed", findingsOf(error));
      }
      try {
        // The prolog scan is the gate; this catches a DOCTYPE it could not see (exotic encodings).
        if (doc.dtd) return outcome("refused", [{ message: "document type declarations (DOCTYPE) are not accepted" }]);
        const errors = schemaErrors(validator, doc);
        return errors.valid ? outcome("valid", []) : outcome("invalid", errors.kept, errors.omitted);
      } finally {
        doc.dispose();
      }
    });
  }

  return {
    validate,
    // What most documents are then judged by: a grouped root's shared validator, not its own.
    warm: (schemas = Object.keys(XSD_SCHEMAS) as XsdSchemaId[]) => schemas.forEach(warmOne),
    dispose: () => {
      for (const v of compiled.values()) v.dispose();
      compiled.clear();
      for (const group of new Set(shared.values())) {
        group.compiled?.validator.dispose();
        group.compiled = undefined;
      }
    },
  };
}
