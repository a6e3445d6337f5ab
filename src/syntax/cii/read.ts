// CII (D16B CrossIndustryInvoice and the Factur-X / ZUGFeRD D22B profiles) to the EN 16931 model.
// Each concept file reads its own terms; this only parses and puts the invoice together.

import type { Invoice } from "../../model/index.ts";
import { readWithLeftovers, type Leftover } from "../leftovers.ts";
import { parseXml, type Element } from "../xml-reader.ts";
import { readDocumentAllowanceCharges } from "./allowances.ts";
import { headerOf } from "./context.ts";
import { readDelivery, readInvoicingPeriod } from "./delivery.ts";
import { readDocument } from "./document.ts";
import { readLines } from "./lines.ts";
import { readBuyer, readPayee, readSeller, readTaxRepresentative } from "./party.ts";
import { readPayment } from "./payment.ts";
import { readReferences } from "./references.ts";
import { readTax } from "./tax.ts";
import { CII_PLACES } from "./terms.ts";
import { readTotals } from "./totals.ts";
import { NAMESPACES } from "./vocabulary.ts";

export class CiiReadError extends Error {}

/** The root of a CII document; refuses DOCTYPEs, malformed XML and other roots. */
function parseCii(xml: string | Uint8Array): Element {
  let root: Element | null;
  try {
    root = parseXml(xml).documentElement;
  } catch (error) {
    throw new CiiReadError((error as Error).message);
  }
  if (!root) throw new CiiReadError("not well-formed XML: no root element");
  if (root.namespaceURI !== NAMESPACES.rsm || root.localName !== "CrossIndustryInvoice") {
    throw new CiiReadError(`not a CII invoice: root {${root.namespaceURI}}${root.localName}`);
  }
  return root;
}

/** Reads a CII invoice or credit note; throws `CiiReadError` on DOCTYPEs, malformed XML or another root. */
export function readCii(xml: string | Uint8Array): Invoice {
  return readRoot(parseCii(xml));
}

/** `readCii`, and every value of the source it left unread. */
export function readCiiWithLeftovers(xml: string | Uint8Array): { invoice: Invoice; leftovers: Leftover[] } {
  const root = parseCii(xml);
  return readWithLeftovers(root, () => readRoot(root), CII_PLACES);
}

function readRoot(root: Element): Invoice {
  const h = headerOf(root);
  const document = readDocument(h);
  return {
    ...document,
    ...readTax(h),
    ...readReferences(h),
    ...readPayment(h),
    ...readDocumentAllowanceCharges(h),
    seller: readSeller(h),
    buyer: readBuyer(h),
    payee: readPayee(h),
    taxRepresentative: readTaxRepresentative(h),
    delivery: readDelivery(h),
    invoicingPeriod: readInvoicingPeriod(h),
    totals: readTotals(h, document.currencyCode, document.taxCurrencyCode),
    lines: readLines(h),
  };
}
