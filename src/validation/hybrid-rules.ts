// Container checks of a hybrid PDF (Factur-X 1.0x / ZUGFeRD 2.x): the business rules BR-HYBRID-01
// to BR-HYBRID-15 of the specification, judged on what `extractInvoiceXml` read from the PDF (the
// invoice attachment's file specification, every other attachment, the XMP packet) and on the
// catalogue record of the profile the embedded XML declares. The rules are data (id, severity,
// text); each has one small check that returns its violations. No PDF/A validation is done beyond
// the XMP `pdfaid` part.

import { hybridConformanceLevels } from "../profiles/lookup.ts";
import type { ProfileRecord } from "../profiles/record.ts";
import type { Severity, ValidationFinding } from "./result.ts";
import { HYBRID_FILE_NAMES, INVOICE_XML_NAMES, type PdfAttachment, type PdfExtraction } from "../pdf/attachments.ts";
import { FACTURX_NAMESPACE } from "../pdf/xmp.ts";
import { FX_PROPERTIES, INVOICE_NAMESPACES, readXmp, type FxProperty, type XmpExtensionSchema, type XmpFacts } from "../pdf/xmp-reader.ts";

type HybridRuleId = `BR-HYBRID-${string}`;

interface HybridRule {
  id: HybridRuleId;
  /** `error` where the specification says SHALL, `warning` where it says SHOULD. */
  severity: Severity;
  /** The rule as the Factur-X 1.0x / ZUGFeRD 2.x specification states it. */
  text: string;
}


/** HybridDocumentType code list, as far as invoices go (ORDER & co. belong to Order-X). */
const DOCUMENT_TYPES = ["INVOICE"];
const CONFORMANCE_LEVELS = hybridConformanceLevels();
/** HybridDocumentVersion code list; an XRECHNUNG level carries the XRechnung version instead. */
const VERSIONS = ["1.0", "1p0", "2p0", "2p1", "2p2"];
const XRECHNUNG_VERSION = /^\d+\.\d+(\.\d+)?$/;
const RELATIONSHIPS = ["Data", "Source", "Alternative"];

export const HYBRID_RULES: readonly HybridRule[] = [
  { id: "BR-HYBRID-01", severity: "info", text: "A hybrid document consists of a machine readable interchange format on XML syntax and a human readable PDF envelope." },
  { id: "BR-HYBRID-02", severity: "error", text: "The PDF envelope of a hybrid document SHALL use the PDF/A-3 standard. Optionally, a PDF/A-4f file (ISO 19005-4, based on PDF 2.0 ISO 32000-2:2020) is allowed." },
  { id: "BR-HYBRID-03", severity: "error", text: "A PDF/A extension schema (XMP) following the structure definition in the corresponding specification SHALL be used." },
  { id: "BR-HYBRID-04", severity: "error", text: `The URI in the extension schema SHALL be ${FACTURX_NAMESPACE}.` },
  { id: "BR-HYBRID-05", severity: "error", text: "The schema namespace prefix in the XMP extension schema SHALL be fx." },
  { id: "BR-HYBRID-06", severity: "error", text: "The fx:DocumentType in the XMP instance SHALL be a value from the HybridDocumentType code list." },
  { id: "BR-HYBRID-07", severity: "error", text: "The fx:ConformanceLevel in the XMP instance SHALL be a value from the HybridConformanceType code list." },
  { id: "BR-HYBRID-08", severity: "error", text: "The fx:DocumentFileName in the XMP instance SHALL be a value defined in the HybridDocumentFilename code list." },
  { id: "BR-HYBRID-09", severity: "error", text: "The fx:Version in the XMP instance SHALL be a value defined in the HybridDocumentVersion code list." },
  { id: "BR-HYBRID-10", severity: "warning", text: "The fx:Version SHOULD be 1.0." },
  { id: "BR-HYBRID-11", severity: "warning", text: "The relationship between the embedded document and the PDF file SHOULD follow the table defined in the current specification." },
  { id: "BR-HYBRID-12", severity: "error", text: "The method of embedding the XML into the PDF SHALL conform as defined in the current specification in order to assure easy extraction of the machine readable XML file." },
  { id: "BR-HYBRID-13", severity: "error", text: "The embedded file name SHALL be one of the values defined in the HybridDocumentFilename code list." },
  { id: "BR-HYBRID-14", severity: "warning", text: "The embedded file name SHOULD match the fx:DocumentFileName." },
  { id: "BR-HYBRID-15", severity: "warning", text: "The fx:ConformanceLevel SHOULD match the profile of the embedded XML document." },
];

interface HybridContext {
  /** Name under which the invoice XML was found. */
  invoiceName: string;
  attachments: PdfAttachment[];
  /** Catalogue record of the profile the embedded XML declares: its hybrid facts are what is expected. */
  xmlRecord?: ProfileRecord;
  /** Absent when the PDF has no readable XMP packet at all. */
  xmp?: XmpFacts;
}

/** `severity` lowers the rule's for a case the reference (phive) judges leniently. */
type Violation = { message: string; location?: string; severity?: Severity };
type Check = (c: HybridContext) => Violation[];

const XMP = "/Root/Metadata";
const fxLocation = (property: string) => `${XMP} fx:${property}`;
const attachmentLocation = (name: string) => `/Root/Names/EmbeddedFiles (${name})`;
const quote = (v: string) => JSON.stringify(v);

/** The schema that describes the invoice properties: one for the namespace in use, else any that declares them. */
function invoiceSchema(c: HybridContext): XmpExtensionSchema | undefined {
  const schemas = c.xmp?.schemas ?? [];
  const wanted = c.xmp?.fxNamespace;
  return (
    (wanted && schemas.find((s) => s.namespaceURI === wanted)) ||
    schemas.find((s) => invoiceNamespace(s.namespaceURI)) ||
    schemas.find((s) => s.properties.includes("ConformanceLevel") || s.properties.includes("DocumentFileName"))
  );
}

const invoiceNamespace = (uri: string) => INVOICE_NAMESPACES.find((n) => n.uri === uri);

/** A namespace of the invoice properties, judged by BR-HYBRID-04: `what` says whose it is. */
function namespaceViolations(uri: string, what: string, location: string): Violation[] {
  const known = invoiceNamespace(uri);
  if (!known) return [{ message: `${what} ${quote(uri)}, not ${FACTURX_NAMESPACE}`, location }];
  // The rule text's URI contradicts the specification's XMP schema section; phive takes it with a warning.
  if (known.irregular) return [{ severity: "warning", message: `${what} ${quote(uri)}, the URI of this rule's text, which lacks the ":invoice" of the specification's XMP schema (${FACTURX_NAMESPACE})`, location }];
  return [];
}

/** One check per property value rule: present, and from its code list. */
function codeListCheck(property: FxProperty, allowed: (value: string, c: HybridContext) => boolean, list: string): Check {
  return (c) => {
    if (!c.xmp || c.xmp.unreadable) return [{ message: `fx:${property} cannot be read: ${c.xmp?.unreadable ?? "the PDF has no XMP metadata"}`, location: XMP }];
    const value = c.xmp.fx[property];
    if (value === undefined) return [{ message: `the XMP has no fx:${property} (namespace ${FACTURX_NAMESPACE})`, location: fxLocation(property) }];
    return allowed(value, c) ? [] : [{ message: `fx:${property} is ${quote(value)}; allowed: ${list}`, location: fxLocation(property) }];
  };
}

const CHECKS: Record<string, Check> = {
  // Holds whenever a check runs at all: an invoice XML was found inside a PDF.
  "BR-HYBRID-01": () => [],

  "BR-HYBRID-02": (c) => {
    if (!c.xmp || c.xmp.unreadable) return [{ message: `no PDF/A identification: ${c.xmp?.unreadable ?? "the PDF has no XMP metadata"}`, location: XMP }];
    const { pdfaPart: part, pdfaConformance: conformance } = c.xmp;
    if (part === undefined) return [{ message: "the XMP has no pdfaid:part: the PDF does not claim PDF/A", location: `${XMP} pdfaid:part` }];
    if (part === "3") return [];
    if (part === "4" && conformance?.toUpperCase() === "F") return [];
    const claimed = `PDF/A-${part}${conformance ? conformance.toLowerCase() : ""}`;
    return [{ message: `the PDF claims ${claimed}; a hybrid invoice needs PDF/A-3 (or PDF/A-4f)`, location: `${XMP} pdfaid:part` }];
  },

  "BR-HYBRID-03": (c) => {
    if (!c.xmp || c.xmp.unreadable) return [{ message: `no PDF/A extension schema: ${c.xmp?.unreadable ?? "the PDF has no XMP metadata"}`, location: XMP }];
    const schema = invoiceSchema(c);
    if (!schema) return [{ message: "the XMP has no PDF/A extension schema describing the invoice properties (pdfaExtension:schemas)", location: `${XMP} pdfaExtension:schemas` }];
    const missing = FX_PROPERTIES.filter((p) => !schema.properties.includes(p));
    return missing.length ? [{ message: `the extension schema for ${schema.namespaceURI} does not declare ${missing.map((p) => `fx:${p}`).join(", ")}`, location: `${XMP} pdfaExtension:schemas` }] : [];
  },

  "BR-HYBRID-04": (c) => {
    if (!c.xmp || c.xmp.unreadable) return []; // BR-HYBRID-03 reports the missing schema
    const schema = invoiceSchema(c);
    const ns = c.xmp.fxNamespace;
    return [
      ...(schema ? namespaceViolations(schema.namespaceURI, "the extension schema of the invoice properties has the URI", `${XMP} pdfaSchema:namespaceURI`) : []),
      ...(ns && ns !== schema?.namespaceURI ? namespaceViolations(ns, "the invoice properties are in the namespace", XMP) : []),
    ];
  },

  "BR-HYBRID-05": (c) => {
    const schema = invoiceSchema(c);
    if (!schema) return [];
    // A ZUGFeRD legacy schema keeps the prefix its own specification gave it (zf).
    const prefixes = invoiceNamespace(schema.namespaceURI)?.prefixes ?? ["fx"];
    if (schema.prefix !== undefined && prefixes.includes(schema.prefix)) return [];
    const found = schema.prefix === undefined ? "no pdfaSchema:prefix" : `the prefix ${quote(schema.prefix)}`;
    return [{ message: `the extension schema for ${schema.namespaceURI} declares ${found}; it must be ${prefixes.join(" or ")}`, location: `${XMP} pdfaSchema:prefix` }];
  },

  "BR-HYBRID-06": codeListCheck("DocumentType", (v) => DOCUMENT_TYPES.includes(v), DOCUMENT_TYPES.join(", ")),
  "BR-HYBRID-07": codeListCheck("ConformanceLevel", (v) => CONFORMANCE_LEVELS.includes(v), CONFORMANCE_LEVELS.join(", ")),
  "BR-HYBRID-08": codeListCheck("DocumentFileName", (v) => HYBRID_FILE_NAMES.includes(v), HYBRID_FILE_NAMES.join(", ")),
  "BR-HYBRID-09": codeListCheck(
    "Version",
    (v, c) => VERSIONS.includes(v) || (c.xmp?.fx.ConformanceLevel === "XRECHNUNG" && XRECHNUNG_VERSION.test(v)),
    `${VERSIONS.join(", ")} (XRECHNUNG: the XRechnung version, e.g. 3.0)`,
  ),

  "BR-HYBRID-10": (c) => {
    const version = c.xmp?.fx.Version;
    // Under the XRECHNUNG level the version is XRechnung's own (BR-HYBRID-09).
    if (version === undefined || version === "1.0" || c.xmp?.fx.ConformanceLevel === "XRECHNUNG") return [];
    return [{ message: `fx:Version is ${quote(version)}, not 1.0`, location: fxLocation("Version") }];
  },

  "BR-HYBRID-11": (c) => {
    const spec = invoiceSpec(c);
    if (!spec) return [];
    const relationship = spec.relationship;
    // A missing relationship leaves the invoice extractable: the table's SHOULD, as phive judges it.
    if (relationship === undefined) return [{ message: `the file specification of ${c.invoiceName} has no /AFRelationship`, location: attachmentLocation(c.invoiceName) }];
    const allowed = c.xmlRecord?.hybrid?.relationship === "Data" ? ["Data"] : RELATIONSHIPS;
    if (allowed.includes(relationship)) return [];
    const level = c.xmlRecord ? c.xmlRecord.hybrid?.conformanceLevel ?? c.xmlRecord.profile : "this";
    return [{ message: `${c.invoiceName} has /AFRelationship /${relationship}; for the ${level} profile it should be ${allowed.map((r) => `/${r}`).join(", /")}`, location: attachmentLocation(c.invoiceName) }];
  },

  // Only what keeps a reader from finding the one invoice by the embedding method: the file
  // specification outside /EmbeddedFiles or /AF, or more than one candidate. The MIME type
  // (/Subtype) is not judged: readers find the invoice by name, phive and Mustang accept any value,
  // and PDF/A-3 asks only that one be given, which is a PDF/A check (out of scope, docs/pdf.md).
  "BR-HYBRID-12": (c) => {
    const out: Violation[] = [];
    const where = attachmentLocation(c.invoiceName);
    const specs = c.attachments.filter((a) => a.name === c.invoiceName);
    const spec = invoiceSpec(c);
    if (spec && !(spec.inEmbeddedFiles && spec.inAssociatedFiles)) {
      const missing = [!spec.inEmbeddedFiles && "the /Names /EmbeddedFiles tree", !spec.inAssociatedFiles && "the document catalog's /AF array"].filter(Boolean).join(" nor in ");
      out.push({ message: `the file specification of ${c.invoiceName} is not listed in ${missing}`, location: where });
    }
    if (specs.length > 1) out.push({ message: `${specs.length} file specifications are named ${c.invoiceName}`, location: where });
    const invoices = [...new Set(c.attachments.map((a) => a.name).filter((n) => (INVOICE_XML_NAMES as readonly string[]).includes(n)))];
    if (invoices.length > 1) out.push({ message: `the PDF embeds ${invoices.length} invoice XML files (${invoices.join(", ")}); only one is allowed`, location: "/Root/Names/EmbeddedFiles" });
    return out;
  },

  "BR-HYBRID-13": (c) =>
    HYBRID_FILE_NAMES.includes(c.invoiceName) ? [] : [{ message: `the invoice is embedded as ${quote(c.invoiceName)}; allowed: ${HYBRID_FILE_NAMES.join(", ")}`, location: attachmentLocation(c.invoiceName) }],

  "BR-HYBRID-14": (c) => {
    const declared = c.xmp?.fx.DocumentFileName;
    if (declared === undefined || declared === c.invoiceName) return [];
    return [{ message: `the invoice is embedded as ${quote(c.invoiceName)}, but fx:DocumentFileName is ${quote(declared)}`, location: fxLocation("DocumentFileName") }];
  },

  "BR-HYBRID-15": (c) => {
    const declared = c.xmp?.fx.ConformanceLevel;
    const expected = c.xmlRecord?.hybrid?.conformanceLevel;
    if (declared === undefined || expected === undefined || declared === expected) return [];
    return [{ message: `fx:ConformanceLevel is ${quote(declared)}, but the embedded XML is of the ${expected} profile`, location: fxLocation("ConformanceLevel") }];
  },
};

/** The file specification of the invoice: one listed in both places when there is one. */
function invoiceSpec(c: HybridContext): PdfAttachment | undefined {
  const specs = c.attachments.filter((a) => a.name === c.invoiceName);
  return specs.find((s) => s.inEmbeddedFiles && s.inAssociatedFiles) ?? specs[0];
}

/**
 * The BR-HYBRID findings of a PDF whose invoice XML was extracted, in rule order. `xmlRecord` is
 * the record of the profile the embedded XML declares (detection inside a hybrid PDF).
 */
export function hybridFindings(extraction: Extract<PdfExtraction, { ok: true }>, xmlRecord: ProfileRecord | undefined): ValidationFinding[] {
  const context: HybridContext = {
    invoiceName: extraction.name,
    attachments: extraction.attachments,
    ...(xmlRecord !== undefined ? { xmlRecord } : {}),
    ...(extraction.xmp !== undefined ? { xmp: readXmp(extraction.xmp) } : extraction.xmpProblem !== undefined ? { xmp: { fx: {}, schemas: [], unreadable: extraction.xmpProblem } } : {}),
  };
  return checkHybrid(context);
}

function checkHybrid(context: HybridContext): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  for (const rule of HYBRID_RULES) {
    for (const v of CHECKS[rule.id]!(context)) {
      findings.push({ ruleId: rule.id, severity: v.severity ?? rule.severity, ...(v.location ? { location: v.location } : {}), message: `[${rule.id}] ${v.message}. ${rule.text}` });
    }
  }
  return findings;
}

