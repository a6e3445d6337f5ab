// POST /v1/parse without HTTP: UBL, CII or a hybrid PDF's embedded CII -> the API's JSON invoice.
// Detection decides the syntax; formats we validate but do not map (FatturaPA, SDI messages,
// Facturae, e-SLOG) are refused by name, so a caller knows it is the format, not the file.

import type { InvoiceInput } from "../invoice/schema.ts";
import { fromModel } from "../invoice/from-model.ts";
import { readyForGenerate, type ParseWarning } from "../invoice/generate-ready.ts";
import { undoOverlays } from "../overlays/registry.ts";
import { extractInvoiceXml } from "../pdf/attachments.ts";
import { isEn16931Syntax, type En16931Syntax } from "../profiles/ids.ts";
import { detect, type Format } from "../syntax/detect.ts";
import { bindingOf } from "../syntax/registry.ts";
import { isPdf } from "../pdf/sniff.ts";
import { DomainError } from "../errors/domain-error.ts";

export interface Parsed {
  format: En16931Syntax;
  profileDetected?: string;
  invoice: InvoiceInput;
  /** What the document says that `invoice` does not carry as read (src/invoice/generate-ready.ts). */
  warnings: ParseWarning[];
}

const NOT_MAPPED: Partial<Record<Format, string>> = {
  fatturapa: "FatturaPA invoices are validated (POST /v1/validate) but not parsed",
  sdi_messaggio: "SDI messages are not invoices; validate them with POST /v1/validate",
  facturae: "Facturae invoices are validated (POST /v1/validate) but not parsed",
  eslog: "e-SLOG invoices are validated (POST /v1/validate) but not parsed",
};

/**
 * Terms even Factur-X MINIMUM states. A document that leaves one empty or unreadable is refused like
 * one without totals: no invoice can carry it without inventing the value. A required field outside
 * this list (the lines and the buyer's address, which MINIMUM and BASIC WL do not carry) stays in
 * the answer, empty, with a `kept` warning.
 */
const STATED_BY_EVERY_PROFILE = new Set(["/number", "/issueDate", "/currencyCode", "/seller/name", "/seller/address/countryCode", "/buyer/name"]);

const failed = (message: string, details?: Record<string, unknown>) => new DomainError(400, "PARSE_FAILED", message, details);

export async function parseDocument(bytes: Uint8Array, options: { hint?: "auto" | En16931Syntax } = {}): Promise<Parsed> {
  let xml = bytes;
  const hybrid = isPdf(bytes);
  if (hybrid) {
    const extracted = await extractInvoiceXml(bytes);
    if (!extracted.ok) throw failed(extracted.reason === "no-invoice-xml" ? `the PDF carries no invoice XML: ${extracted.message}` : extracted.message);
    xml = extracted.xml;
  }
  const detection = detect(xml, { hint: options.hint ?? "auto", hybrid });
  const format = detection.format;
  if (!isEn16931Syntax(format)) {
    const why = NOT_MAPPED[format] ?? `the document is in no supported e-invoice syntax${detection.note ? ` (${detection.note})` : ""}`;
    throw failed(why, { format });
  }
  if (detection.note) throw failed(detection.note, { format });
  let invoice: InvoiceInput;
  try {
    // A value the JSON invoice cannot take (a quantity that is not a number) is the document's
    // fault as much as malformed XML is, so reading the values is inside the refusal too.
    const model = bindingOf(format).read(xml);
    invoice = fromModel(model);
    undoOverlays(model, invoice);
  } catch (error) {
    throw failed(`the ${format.toUpperCase()} document cannot be read: ${(error as Error).message}`, { format });
  }
  const warnings = readyForGenerate(invoice);
  const unstated = warnings.filter((w) => w.action === "kept" && STATED_BY_EVERY_PROFILE.has(w.path));
  if (unstated.length) {
    const fields = unstated.map(({ path, value, reason }) => ({ path, value, reason }));
    throw failed(`the document does not state what every invoice must: ${fields.map((f) => `${f.path} ${f.reason}`).join("; ")}`, { format, fields });
  }
  return { format, ...(detection.profileDetected !== undefined && { profileDetected: detection.profileDetected }), invoice, warnings };
}
