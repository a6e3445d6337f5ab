// Which pinned XSD judges which document, and the shape of an XSD verdict. Kept apart from the
// libxml2 engine (xsd.ts) so that code which only names schemas, such as the HTTP thread, never
// instantiates the WASM module (about 35 MiB per thread).

/** The `role: entry` `.xsd` rows of the pinned manifest, by a stable name. */
export const XSD_SCHEMAS = {
  "ubl-invoice": "ubl_xsd/2.1/xsd/maindoc/UBL-Invoice-2.1.xsd",
  "ubl-creditnote": "ubl_xsd/2.1/xsd/maindoc/UBL-CreditNote-2.1.xsd",
  "cii-d16b": "cii_xsd/D16B/D16B SCRDM (Subset)/uncoupled clm/CII/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd",
  "facturx-minimum": "cii_xsd_d22b/1.09/facturx-minimum/Factur-X_MINIMUM.xsd",
  "facturx-basicwl": "cii_xsd_d22b/1.09/Factur-X/BASICWL/1xsd/Factur-X_BASICWL.xsd",
  "facturx-basic": "cii_xsd_d22b/1.09/facturx-basic/Factur-X_BASIC.xsd",
  "facturx-en16931": "cii_xsd_d22b/1.09/Factur-X/EN16931/1xsd/Factur-X_EN16931.xsd",
  "facturx-extended": "cii_xsd_d22b/1.09/Factur-X/EXTENDED/1xsd/Factur-X_EXTENDED.xsd",
  "cii-d22b-ctc-fr": "france_ctc_schematron/1.4.0.02/CII/1xsd-CII_D22B_uncoupled/CrossIndustryInvoice_100pD22B.xsd",
  "cdar-d22b-ctc-fr": "france_ctc_schematron/1.4.0.02/CDAR/1xsd-CDAR_D22B_uncoupled/CrossDomainAcknowledgementAndResponse_100pD22B.xsd",
  fatturapa: "fatturapa_xsd/1.2.2/Schema_del_file_xml_FatturaPA_v1.2.2.xsd",
  "sdi-messaggi": "sdi_messaggi_xsd/1.1/MessaggiTypes_v1.1.xsd",
  facturae: "facturae_xsd/3.2.2/facturaev3_2_2.xsd",
  eslog: "eslog_xsd/2.0/eSLOG20_INVOIC_v200.xsd",
} as const;

export type XsdSchemaId = keyof typeof XSD_SCHEMAS;

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
  /** Compiles schemas ahead of the first request (all when none named). */
  warm(schemas?: readonly XsdSchemaId[]): void;
  dispose(): void;
}

/** The schema a detected document is checked against; undefined when no pinned schema applies. */
export function xsdSchemaFor(detection: {
  format: string;
  documentType?: string;
  profileDetected?: string;
  extendedCtcFr?: boolean;
}): XsdSchemaId | undefined {
  switch (detection.format) {
    case "ubl":
      return detection.documentType === "creditnote" ? "ubl-creditnote" : "ubl-invoice";
    case "cii":
      if (detection.extendedCtcFr) return "cii-d22b-ctc-fr";
      return FACTURX_SCHEMAS[detection.profileDetected ?? ""] ?? "cii-d16b";
    default:
      return FORMAT_SCHEMAS[detection.format];
  }
}

const FACTURX_SCHEMAS: Record<string, XsdSchemaId> = {
  "facturx:minimum": "facturx-minimum",
  "facturx:basicwl": "facturx-basicwl",
  "facturx:basic": "facturx-basic",
  "facturx:en16931": "facturx-en16931",
  "facturx:extended": "facturx-extended",
};

const FORMAT_SCHEMAS: Record<string, XsdSchemaId> = {
  fatturapa: "fatturapa",
  facturae: "facturae",
  eslog: "eslog",
  sdi_messaggio: "sdi-messaggi",
};
