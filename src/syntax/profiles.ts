// Detection data: which root elements make which format, and which declared specification
// identifiers (BT-24) make which profile. Kept as tables so adding a CIUS or a national format is a
// row, not a branch; detect.ts only interprets them.

export type Format = "cii" | "ubl" | "fatturapa" | "facturae" | "eslog" | "sdi_messaggio" | "unknown";
export type FormatHint = "auto" | Exclude<Format, "unknown">;
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
  format: Format;
  documentType: DocumentTypeSource;
  specId?: SpecIdSource;
  /** Profile fixed by the root itself (national formats, SDI messages). */
  profile?: string;
  /** Profile chosen by a root attribute value (FatturaPA `versione`). */
  profileByAttribute?: { name: string; values: Record<string, string> };
  /** Recognised but not supported: reported as format `unknown` with this note. */
  unsupported?: string;
}

const UBL_INVOICE_NS = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
const UBL_CREDIT_NOTE_NS = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
const CII_NS = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";
const FATTURAPA_NS = "http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2";
const SDI_NS = "http://www.fatturapa.gov.it/sdi/messaggi/v1.0";
const FACTURAE_322_NS = "http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml";
const ESLOG_20_NS = "urn:eslog:2.00";
const ZUGFERD1_NS = "urn:ferd:CrossIndustryDocument:invoice:1p0";

const sdiMessage = (localName: string, profile: string): RootRule => ({
  namespace: SDI_NS,
  localName,
  format: "sdi_messaggio",
  documentType: { by: "fixed", value: "message" },
  profile,
});

export const ROOT_RULES: readonly RootRule[] = [
  { namespace: UBL_INVOICE_NS, localName: "Invoice", format: "ubl", documentType: { by: "fixed", value: "invoice" }, specId: "ubl-customization-id" },
  { namespace: UBL_CREDIT_NOTE_NS, localName: "CreditNote", format: "ubl", documentType: { by: "fixed", value: "creditnote" }, specId: "ubl-customization-id" },
  { namespace: CII_NS, localName: "CrossIndustryInvoice", format: "cii", documentType: { by: "cii-typecode" }, specId: "cii-guideline-id" },
  {
    namespace: FATTURAPA_NS,
    localName: "FatturaElettronica",
    format: "fatturapa",
    documentType: { by: "fatturapa-tipodocumento" },
    // FPA12 (public administration) and FPR12 (private parties) are both the ordinary invoice of
    // schema 1.2.x; the simplified invoice (FSM10) has its own namespace and no pinned schema.
    profileByAttribute: {
      name: "versione",
      values: { FPR12: "italy-fatturapa-ordinaria-fpr12", FPA12: "italy-fatturapa-ordinaria-fpa12" },
    },
  },
  { namespace: FACTURAE_322_NS, localName: "Facturae", format: "facturae", documentType: { by: "facturae-corrective" }, profile: "spain-facturae-v3-2-2" },
  { namespace: ESLOG_20_NS, localName: "Invoice", format: "eslog", documentType: { by: "eslog-d1001" }, profile: "slovenia-eslog-v2-0" },
  sdiMessage("RicevutaConsegna", "italy-sdi-ricevuta-consegna"),
  sdiMessage("NotificaScarto", "italy-sdi-notifica-scarto"),
  sdiMessage("NotificaMancataConsegna", "italy-sdi-notifica-mancata-consegna"),
  sdiMessage("NotificaEsito", "italy-sdi-notifica-esito"),
  sdiMessage("NotificaEsitoCommittente", "italy-sdi-notifica-esito-committente"),
  sdiMessage("ScartoEsitoCommittente", "italy-sdi-scarto-esito-committente"),
  sdiMessage("NotificaDecorrenzaTermini", "italy-sdi-notifica-decorrenza-termini"),
  sdiMessage("AttestazioneTrasmissioneFattura", "italy-sdi-attestazione-trasmissione-fattura"),
  sdiMessage("MetadatiInvioFile", "italy-sdi-metadati-invio-file"),
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

export interface ProfileRule {
  /** Specification identifier prefix; the longest matching prefix wins. */
  prefix: string;
  profile: string;
  syntaxes: readonly ("ubl" | "cii")[];
  /** Profile to report instead when the XML came out of a hybrid PDF. */
  hybridProfile?: string;
  extendedCtcFr?: true;
}

const BOTH = ["ubl", "cii"] as const;
const CII_ONLY = ["cii"] as const;
const EN = "urn:cen.eu:en16931:2017";

export const PROFILE_RULES: readonly ProfileRule[] = [
  // Base identifier: plain EN 16931, and also the Factur-X/ZUGFeRD EN16931 level inside a hybrid PDF.
  // As a prefix it also catches CIUS/extension ids we have no rules for, which still claim EN 16931.
  { prefix: EN, profile: "en16931", syntaxes: BOTH, hybridProfile: "facturx:en16931" },
  // XRechnung 3.x (KoSIT xeinkauf.de URNs, incl. the extension and CVD ids) and 1.x/2.x (xoev-de URNs).
  { prefix: `${EN}#compliant#urn:xeinkauf.de:kosit:xrechnung_`, profile: "xrechnung", syntaxes: BOTH },
  { prefix: `${EN}#compliant#urn:xoev-de:kosit:standard:xrechnung_`, profile: "xrechnung", syntaxes: BOTH },
  { prefix: `${EN}#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0`, profile: "peppol", syntaxes: BOTH },
  // Current (CIUS-RO:1.0.1) and legacy (CIUS-RO:1.0.0) Romanian URNs share this prefix.
  { prefix: `${EN}#compliant#urn:efactura.mfinante.ro:CIUS-RO:`, profile: "romania-ro-cius", syntaxes: BOTH },
  // NLCIUS matches by prefix (the spec says so); covers the G-account extension id too.
  { prefix: `${EN}#compliant#urn:fdc:nen.nl:nlcius:v1.0`, profile: "netherlands-nlcius", syntaxes: BOTH },
  // Factur-X 1.0x and ZUGFeRD 2.x share levels; Factur-X is CII only.
  { prefix: "urn:factur-x.eu:1p0:minimum", profile: "facturx:minimum", syntaxes: CII_ONLY },
  { prefix: "urn:zugferd.de:2p0:minimum", profile: "facturx:minimum", syntaxes: CII_ONLY },
  { prefix: "urn:factur-x.eu:1p0:basicwl", profile: "facturx:basicwl", syntaxes: CII_ONLY },
  { prefix: "urn:zugferd.de:2p0:basicwl", profile: "facturx:basicwl", syntaxes: CII_ONLY },
  { prefix: `${EN}#compliant#urn:factur-x.eu:1p0:basic`, profile: "facturx:basic", syntaxes: CII_ONLY },
  { prefix: `${EN}#compliant#urn:zugferd.de:2p0:basic`, profile: "facturx:basic", syntaxes: CII_ONLY },
  { prefix: `${EN}:compliant:factur-x.eu:1p0:basic`, profile: "facturx:basic", syntaxes: CII_ONLY }, // Factur-X 1.0 drafts
  { prefix: `${EN}#conformant#urn:factur-x.eu:1p0:extended`, profile: "facturx:extended", syntaxes: CII_ONLY },
  { prefix: `${EN}#conformant#urn:zugferd.de:2p0:extended`, profile: "facturx:extended", syntaxes: CII_ONLY },
  { prefix: `${EN}:compliant:factur-x.eu:1p0:extended`, profile: "facturx:extended", syntaxes: CII_ONLY }, // Factur-X 1.0 drafts
  // French CTC overlay of EXTENDED; the same id is used in UBL and CII.
  { prefix: `${EN}#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr`, profile: "facturx:extended", syntaxes: BOTH, extendedCtcFr: true },
];

/** UNTDID 1001 codes that make a CII (or e-SLOG) document a credit note. */
export const CREDIT_NOTE_TYPE_CODES: ReadonlySet<string> = new Set([
  "81", "83", "261", "262", "296", "308", "381", "396", "420", "458", "532",
]);

/** FatturaPA TipoDocumento values of credit notes (TD04 nota di credito, TD08 nota di credito semplificata). */
export const FATTURAPA_CREDIT_NOTE_TYPES: ReadonlySet<string> = new Set(["TD04", "TD08"]);
