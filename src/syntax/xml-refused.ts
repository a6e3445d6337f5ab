/**
 * A document the XML reading policy (xml-policy.ts) will not read. `ruleId` is the finding a
 * verdict reports for it, as validate reports libxml2's own refusals: `XML_REFUSED` for what is
 * never parsed on principle (a DOCTYPE, the size cap), `XML_MALFORMED` for what is not XML 1.0.
 */
export class XmlRefused extends Error {
  constructor(
    readonly ruleId: "XML_REFUSED" | "XML_MALFORMED",
    message: string,
  ) {
    super(message);
    this.name = "XmlRefused";
  }
}
