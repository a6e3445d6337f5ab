// Which pinned XSD judges which document, and the shape of an XSD verdict. Kept apart from the
// libxml2 engine (xsd.ts) so that code which only names schemas, such as the HTTP thread, never
// instantiates the WASM module (about 35 MiB per thread).

import type { XsdSchemaId } from "../profiles/schemas.ts";
import type { ProfileRecord } from "../profiles/record.ts";
import type { DocumentType } from "../syntax/roots.ts";

export type { XsdSchemaId } from "../profiles/schemas.ts";

export interface XsdFinding {
  message: string;
  line?: number;
  column?: number;
  /** XPath of the offending node, when libxml2 knows it. */
  location?: string;
}

/**
 * `refused`: not parsed at all (DOCTYPE, size); `malformed`: not well-formed XML (includes the
 * nesting-depth limit); `invalid`: well-formed but breaks the schema.
 */
export type XsdStatus = "valid" | "invalid" | "malformed" | "refused";

export interface XsdOutcome {
  valid: boolean;
  status: XsdStatus;
  schema: XsdSchemaId;
  findings: XsdFinding[];
}

export interface XsdEngine {
  validate(schema: XsdSchemaId, xml: Uint8Array | string): XsdOutcome;
  /** Compiles schemas ahead of the first request (all when none named): for roots compiled together, their shared validator, which only a warmed engine uses. */
  warm(schemas?: readonly XsdSchemaId[]): void;
  dispose(): void;
}

/** The schema a document judged under `record` is checked against: UBL's depends on the root. */
export function schemaFor(record: ProfileRecord, documentType: DocumentType | undefined): XsdSchemaId | undefined {
  const xsd = record.judge?.xsd;
  if (xsd !== "by-document-type") return xsd;
  return documentType === "creditnote" ? "ubl-creditnote" : "ubl-invoice";
}
