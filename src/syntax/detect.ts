// Sniffs format, profile and document type from the root element and the declared specification
// identifier. It scans text instead of parsing a tree on purpose: detection must also name the
// format of documents that are not well-formed (so the verdict can say "malformed FatturaPA"
// rather than "unknown"), and it must never expand entities or load anything.

import {
  CREDIT_NOTE_TYPE_CODES,
  FATTURAPA_CREDIT_NOTE_TYPES,
  ROOT_RULES,
  type DocumentType,
  type DocumentTypeSource,
  type Format,
  type FormatHint,
  type RootRule,
  type SpecIdSource,
} from "./roots.ts";
import { sniffEncoding } from "./decode.ts";
import type { ProfileId, SyntaxId } from "../profiles/ids.ts";
import { recordsOf } from "../profiles/lookup.ts";
import type { ProfileRecord } from "../profiles/record.ts";

export type { DocumentType, Format, FormatHint } from "./roots.ts";

export interface Detection {
  format: Format;
  /** The profile the document declares, when a record recognises it. */
  profileDetected?: ProfileId;
  /** The catalogue record of the declared profile (`profileDetected` is its profile). */
  record?: ProfileRecord;
  documentType?: DocumentType;
  /** BT-24 as declared (UBL CustomizationID, CII guideline id), whitespace-trimmed. */
  customizationId?: string;
  root?: { namespace: string; localName: string };
  /** Why the format is `unknown`, or why a format hint did not match the document. */
  note?: string;
}

interface DetectOptions {
  hint?: FormatHint;
  /** The XML was extracted from a hybrid PDF (Factur-X / ZUGFeRD), which changes some labels. */
  hybrid?: boolean;
}

interface Prolog {
  /** A document type declaration precedes the root element. */
  doctype: boolean;
  root?: { qname: string; attributes: Record<string, string>; end: number };
}

/**
 * Text of an XML document good enough to read markup: every name and identifier we look at is
 * ASCII, so single-byte encodings are read as Latin-1; UTF-16 is recognised as decode.ts does
 * (byte-order mark, or `<?` in UTF-16). Lenient on purpose: detection names the format of
 * documents the reading policy refuses.
 */
export function decodeForScan(xml: Uint8Array | string): string {
  if (typeof xml === "string") return xml;
  const { encoding, bom } = sniffEncoding(xml);
  if (encoding === "UTF-16LE" || encoding === "UTF-16BE") return new TextDecoder(encoding.toLowerCase(), { ignoreBOM: true }).decode(xml.subarray(bom));
  return new TextDecoder("latin1").decode(encoding === "UTF-8" ? xml.subarray(bom) : xml);
}

const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Walks the prolog (declaration, comments, PIs, DOCTYPE) up to the root start tag. */
export function readProlog(text: string): Prolog {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let doctype = false;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith("<?", i)) {
      const end = text.indexOf("?>", i + 2);
      if (end < 0) return { doctype };
      i = end + 2;
    } else if (text.startsWith("<!--", i)) {
      const end = text.indexOf("-->", i + 4);
      if (end < 0) return { doctype };
      i = end + 3;
    } else if (text.startsWith("<!", i)) {
      // DOCTYPE (any case, so a sloppy declaration cannot slip past the refusal); skip its
      // internal subset, if any, to keep looking for the root.
      doctype ||= /^<!doctype/i.test(text.slice(i, i + 9));
      const bracket = text.indexOf("[", i);
      const close = text.indexOf(">", i);
      if (close < 0) return { doctype };
      if (bracket >= 0 && bracket < close) {
        const subsetEnd = text.indexOf("]", bracket);
        const end = subsetEnd < 0 ? -1 : text.indexOf(">", subsetEnd);
        if (end < 0) return { doctype };
        i = end + 1;
      } else {
        i = close + 1;
      }
    } else if (text[i] === "<") {
      const end = startTagEnd(text, i);
      if (end < 0) return { doctype };
      const tag = text.slice(i + 1, end).replace(/\/$/, "");
      const qname = /^[^\s/>]+/.exec(tag)?.[0] ?? "";
      const attributes: Record<string, string> = {};
      for (const m of tag.slice(qname.length).matchAll(ATTRIBUTE)) attributes[m[1]!] = m[2] ?? m[3] ?? "";
      return { doctype, root: { qname, attributes, end: end + 1 } };
    } else {
      return { doctype };
    }
  }
}

function startTagEnd(text: string, from: number): number {
  let quote = "";
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === ">") {
      return i;
    }
  }
  return -1;
}

/** Element with any (or no) prefix; namespaces of children are left to the XSD. */
const element = (localName: string) => `<(?:[\\w.-]+:)?${localName}(?=[\\s/>])`;
const textOf = (localName: string) => new RegExp(`${element(localName)}[^>]*>([^<]*)<`, "g");

function firstText(text: string, localName: string, from: number): string | undefined {
  const re = textOf(localName);
  re.lastIndex = from;
  return re.exec(text)?.[1]?.trim();
}

function indexOfElement(text: string, localName: string, from: number): number {
  // The name's absence is found by a plain search: most UBL invoices have no UBLExtensions, and the
  // pattern scanned a whole 1 MB invoice for it (0.7 ms of the 1.1 detection took).
  if (text.indexOf(localName, from) < 0) return -1;
  const re = new RegExp(element(localName), "g");
  re.lastIndex = from;
  return re.exec(text)?.index ?? -1;
}

const SPEC_ID_READERS: Record<SpecIdSource, (text: string, from: number) => string | undefined> = {
  "ubl-customization-id": (text, from) => {
    // Extensions come first in UBL and may carry foreign content; look after them.
    const ext = indexOfElement(text, "UBLExtensions", from);
    const close = /<\/(?:[\w.-]+:)?UBLExtensions\s*>/g;
    close.lastIndex = Math.max(ext, from);
    return firstText(text, "CustomizationID", (ext >= 0 && close.exec(text)?.index) || from);
  },
  "cii-guideline-id": (text, from) => {
    const context = indexOfElement(text, "GuidelineSpecifiedDocumentContextParameter", from);
    return context < 0 ? undefined : firstText(text, "ID", context);
  },
};

const DOCUMENT_TYPE_READERS: Record<DocumentTypeSource["by"], (text: string, from: number, rule: DocumentTypeSource) => DocumentType | undefined> = {
  fixed: (_text, _from, rule) => (rule.by === "fixed" ? rule.value : undefined),
  "cii-typecode": (text, from) => {
    const header = indexOfElement(text, "ExchangedDocument", from);
    const code = header < 0 ? undefined : firstText(text, "TypeCode", header);
    return code === undefined ? undefined : CREDIT_NOTE_TYPE_CODES.has(code) ? "creditnote" : "invoice";
  },
  "fatturapa-tipodocumento": (text, from) => {
    const re = textOf("TipoDocumento");
    re.lastIndex = from;
    const types = [...text.matchAll(re)].map((m) => m[1]!.trim());
    if (types.length === 0) return undefined;
    return types.every((t) => FATTURAPA_CREDIT_NOTE_TYPES.has(t)) ? "creditnote" : "invoice";
  },
  "facturae-corrective": (text, from) => (indexOfElement(text, "Corrective", from) >= 0 ? "creditnote" : "invoice"),
  "eslog-d1001": (text, from) => {
    const code = firstText(text, "D_1001", from);
    return code === undefined ? undefined : CREDIT_NOTE_TYPE_CODES.has(code) ? "creditnote" : "invoice";
  },
};

/**
 * The record a declared specification identifier (BT-24) makes among the records of a syntax: the
 * longest matching prefix wins, so a CIUS beats the bare EN 16931 id; inside a hybrid PDF a record
 * meant for hybrids beats a plain one of the same prefix.
 */
export function recordForId(customizationId: string, syntax: SyntaxId, options: { hybrid?: boolean } = {}): ProfileRecord | undefined {
  let best: ProfileRecord | undefined;
  let bestLength = -1;
  for (const record of recordsOf(syntax)) {
    const { ids = [], legacyIds = [], insideHybridPdf } = record.recognise;
    if (insideHybridPdf && !options.hybrid) continue;
    for (const prefix of [...ids, ...legacyIds]) {
      if (!customizationId.startsWith(prefix)) continue;
      if (prefix.length > bestLength || (prefix.length === bestLength && insideHybridPdf)) {
        best = record;
        bestLength = prefix.length;
      }
    }
  }
  return best;
}

function namespaceOf(qname: string, attributes: Record<string, string>): string {
  const colon = qname.indexOf(":");
  return (colon < 0 ? attributes["xmlns"] : attributes[`xmlns:${qname.slice(0, colon)}`]) ?? "";
}

/** National formats: the record whose root name and root attribute match. */
function recordByRoot(syntax: SyntaxId, localName: string, attributes: Record<string, string>): ProfileRecord | undefined {
  return recordsOf(syntax).find(({ recognise: r }) => !r.ids && (r.root ?? localName) === localName && (!r.attribute || attributes[r.attribute.name]?.trim() === r.attribute.value));
}

function recognise(syntax: SyntaxId, localName: string, attributes: Record<string, string>, customizationId: string | undefined, hybrid: boolean): Pick<Detection, "record" | "profileDetected"> {
  const record = customizationId === undefined ? recordByRoot(syntax, localName, attributes) : recordForId(customizationId, syntax, { hybrid });
  return record ? { record, profileDetected: record.profile } : {};
}

export function detect(xml: Uint8Array | string, options: DetectOptions = {}): Detection {
  const text = decodeForScan(xml);
  const { root } = readProlog(text);
  const hint = options.hint ?? "auto";
  if (!root) {
    const note = "no root element found (empty, not XML, or not well-formed before the root)";
    return hint === "auto" ? { format: "unknown", note } : { format: hint, note };
  }
  const colon = root.qname.indexOf(":");
  const localName = colon < 0 ? root.qname : root.qname.slice(colon + 1);
  const namespace = namespaceOf(root.qname, root.attributes);
  const where = { namespace, localName };
  const rule = ROOT_RULES.find((r) => r.namespace === namespace && r.localName === localName);

  if (hint !== "auto" && rule?.format !== hint) {
    return { format: hint, root: where, note: `format hint "${hint}" given, but root {${namespace}}${localName} is not a ${hint} document` };
  }
  if (!rule) return { format: "unknown", root: where, note: `unrecognised root element {${namespace}}${localName}` };
  if (rule.unsupported || rule.format === "unknown") return { format: "unknown", root: where, documentType: readDocumentType(rule, text, root.end), note: rule.unsupported };

  const customizationId = rule.specId ? SPEC_ID_READERS[rule.specId](text, root.end) : undefined;
  return {
    format: rule.format,
    ...recognise(rule.format, localName, root.attributes, customizationId, options.hybrid ?? false),
    documentType: readDocumentType(rule, text, root.end),
    ...(customizationId !== undefined ? { customizationId } : {}),
    root: where,
  };
}

function readDocumentType(rule: RootRule, text: string, from: number): DocumentType | undefined {
  return DOCUMENT_TYPE_READERS[rule.documentType.by](text, from, rule.documentType);
}
