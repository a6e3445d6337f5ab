// The XMP packet of a PDF/A-3b file. PDF/A wants every Info entry mirrored here, and a hybrid
// invoice declares its embedded XML in the Factur-X schema, which PDF/A only accepts when an
// extension schema in the same packet describes it.

export const FACTURX_NAMESPACE = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#";

export interface FacturxDeclaration {
  documentFileName: string;
  /** The record's hybrid conformance level (HybridConformanceType). */
  conformanceLevel: string;
  /** `1.0` for Factur-X; the XRechnung version (`3.0`) under the XRECHNUNG level (ZUGFeRD 2.1+). */
  version: string;
}

interface XmpFields {
  title: string;
  author: string;
  subject: string;
  creatorTool: string;
  producer: string;
  /** The date written as CreationDate and ModDate in the Info dictionary. */
  date: Date;
  facturx?: FacturxDeclaration;
}

/** XML-escaped; control characters XML 1.0 cannot carry at all are dropped. */
const escape = (text: string) =>
  text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
    .replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** Same instant as pdf-lib's `D:YYYYMMDDHHmmSSZ`, to the second. */
const xmpDate = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

/** The Factur-X properties, in the wording of the Factur-X 1.0 specification's extension schema. */
const FACTURX_PROPERTIES = [
  ["DocumentFileName", "The name of the embedded XML document"],
  ["DocumentType", "The type of the hybrid document in capital letters, e.g. INVOICE or ORDER"],
  ["Version", "The actual version of the standard applying to the embedded XML document"],
  ["ConformanceLevel", "The conformance level of the embedded XML document"],
] as const;

function facturxBlocks(fx: FacturxDeclaration): string {
  const properties = FACTURX_PROPERTIES.map(
    ([name, description]) => `
            <rdf:li rdf:parseType="Resource">
              <pdfaProperty:name>${name}</pdfaProperty:name>
              <pdfaProperty:valueType>Text</pdfaProperty:valueType>
              <pdfaProperty:category>external</pdfaProperty:category>
              <pdfaProperty:description>${description}</pdfaProperty:description>
            </rdf:li>`,
  ).join("");
  return `
    <rdf:Description rdf:about="" xmlns:fx="${FACTURX_NAMESPACE}">
      <fx:DocumentType>INVOICE</fx:DocumentType>
      <fx:DocumentFileName>${escape(fx.documentFileName)}</fx:DocumentFileName>
      <fx:Version>${escape(fx.version)}</fx:Version>
      <fx:ConformanceLevel>${escape(fx.conformanceLevel)}</fx:ConformanceLevel>
    </rdf:Description>
    <rdf:Description rdf:about=""
        xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"
        xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#"
        xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
      <pdfaExtension:schemas>
        <rdf:Bag>
          <rdf:li rdf:parseType="Resource">
            <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
            <pdfaSchema:namespaceURI>${FACTURX_NAMESPACE}</pdfaSchema:namespaceURI>
            <pdfaSchema:prefix>fx</pdfaSchema:prefix>
            <pdfaSchema:property>
              <rdf:Seq>${properties}
              </rdf:Seq>
            </pdfaSchema:property>
          </rdf:li>
        </rdf:Bag>
      </pdfaExtension:schemas>
    </rdf:Description>`;
}

export function xmpPacket(fields: XmpFields): string {
  const date = xmpDate(fields.date);
  // The begin attribute holds U+FEFF (the packet's byte order mark), as XMP requires.
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
  <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
    <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
      <pdfaid:part>3</pdfaid:part>
      <pdfaid:conformance>B</pdfaid:conformance>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <dc:format>application/pdf</dc:format>
      <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escape(fields.title)}</rdf:li></rdf:Alt></dc:title>
      <dc:creator><rdf:Seq><rdf:li>${escape(fields.author)}</rdf:li></rdf:Seq></dc:creator>
      <dc:description><rdf:Alt><rdf:li xml:lang="x-default">${escape(fields.subject)}</rdf:li></rdf:Alt></dc:description>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
      <xmp:CreatorTool>${escape(fields.creatorTool)}</xmp:CreatorTool>
      <xmp:CreateDate>${date}</xmp:CreateDate>
      <xmp:ModifyDate>${date}</xmp:ModifyDate>
      <xmp:MetadataDate>${date}</xmp:MetadataDate>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
      <pdf:Producer>${escape(fields.producer)}</pdf:Producer>
    </rdf:Description>${fields.facturx ? facturxBlocks(fields.facturx) : ""}
  </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}
