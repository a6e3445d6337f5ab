// Detection data: which root elements make which syntax, and where each syntax keeps its document
// type and its declared specification identifier (BT-24). Which profile a document is, is the
// catalogue's records' business (src/profiles/catalogue.ts); detect.ts interprets both.

import { SDI_MESSAGES, type FORMAT_HINTS, type FORMATS, type SdiMessage } from "../profiles/ids.ts";

export type Format = (typeof FORMATS)[number];
export type FormatHint = (typeof FORMAT_HINTS)[number];
export type DocumentType = "invoice" | "creditnote" | "message";

/** How the document type is read once the root is known. */
export type DocumentTypeSource =
  | { by: "fixed"; value: DocumentType }
  | { by: "cii-typecode" }
  | { by: "fatturapa-tipodocumento" }
  | { by: "facturae-corrective" }
  | { by: "eslog-d1001" };

/** Where the declared specification identifier (BT-24) lives. */
export type SpecIdSource = "ubl-customization-id" | "cii-guideline-id";

export interface RootRule {
  namespace: string;
  localName: string;
  /** `unknown` for roots recognised only to say why they are not supported. */
  format: Format;
  documentType: DocumentTypeSource;
  specId?: SpecIdSource;
  /** Recognised but not supported: reported as format `unknown` with this note. */
  unsupported?: string;
}

const UBL_INVOICE_NS = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
const UBL_CREDIT_NOTE_NS = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
const CII_NS = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";
const FATTURAPA_NS = "http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2";
const FATTURAPA_SEMPLIFICATA_NS = "http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.0";
const SDI_NS = "http://www.fatturapa.gov.it/sdi/messaggi/v1.0";
export const FACTURAE_322_NS = "http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml";
const ESLOG_20_NS = "urn:eslog:2.00";
const ZUGFERD1_NS = "urn:ferd:CrossIndustryDocument:invoice:1p0";

const sdiMessage = (localName: SdiMessage): RootRule => ({ namespace: SDI_NS, localName, format: "sdi_messaggio", documentType: { by: "fixed", value: "message" } });

export const ROOT_RULES: readonly RootRule[] = [
  { namespace: UBL_INVOICE_NS, localName: "Invoice", format: "ubl", documentType: { by: "fixed", value: "invoice" }, specId: "ubl-customization-id" },
  { namespace: UBL_CREDIT_NOTE_NS, localName: "CreditNote", format: "ubl", documentType: { by: "fixed", value: "creditnote" }, specId: "ubl-customization-id" },
  { namespace: CII_NS, localName: "CrossIndustryInvoice", format: "cii", documentType: { by: "cii-typecode" }, specId: "cii-guideline-id" },
  { namespace: FATTURAPA_NS, localName: "FatturaElettronica", format: "fatturapa", documentType: { by: "fatturapa-tipodocumento" } },
  { namespace: FATTURAPA_SEMPLIFICATA_NS, localName: "FatturaElettronicaSemplificata", format: "fatturapa", documentType: { by: "fatturapa-tipodocumento" } },
  { namespace: FACTURAE_322_NS, localName: "Facturae", format: "facturae", documentType: { by: "facturae-corrective" } },
  { namespace: ESLOG_20_NS, localName: "Invoice", format: "eslog", documentType: { by: "eslog-d1001" } },
  ...SDI_MESSAGES.map(sdiMessage),
  {
    namespace: ZUGFERD1_NS,
    localName: "CrossIndustryDocument",
    format: "unknown",
    documentType: { by: "fixed", value: "invoice" },
    unsupported: "ZUGFeRD 1.0 CrossIndustryDocument (pre-EN 16931) is not supported; ZUGFeRD 2.x / Factur-X use CII CrossIndustryInvoice",
  },
  {
    namespace: "urn:un:unece:uncefact:data:standard:CBFBUY:5",
    localName: "Invoice",
    format: "unknown",
    documentType: { by: "fixed", value: "invoice" },
    unsupported: "ZUGFeRD 1.0 release-candidate invoice (CBFBUY:5, 2014) is not supported",
  },
];

/** UNTDID 1001 codes that make a CII (or e-SLOG) document a credit note. */
export const CREDIT_NOTE_TYPE_CODES: ReadonlySet<string> = new Set([
  "81", "83", "261", "262", "296", "308", "381", "396", "420", "458", "532",
]);

/** FatturaPA TipoDocumento values of credit notes (TD04 nota di credito, TD08 nota di credito semplificata). */
export const FATTURAPA_CREDIT_NOTE_TYPES: ReadonlySet<string> = new Set(["TD04", "TD08"]);
