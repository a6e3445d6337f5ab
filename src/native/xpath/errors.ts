/**
 * A dynamic or static XPath error, carrying the W3C error code Saxon-HE reports (e.g. XPTY0004), so
 * that a document the rules stop on is reported with the same code on both engines.
 */
export class XPathError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = "XPathError";
  }
}

export function fail(code: string, message: string): never {
  throw new XPathError(code, message);
}
