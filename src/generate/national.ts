// Generate for the national formats (FatturaPA, Facturae, e-SLOG): the request's invoice into the
// EN 16931 model, then the format's writer (src/syntax/national-writers.ts), which also reads the
// national objects (`italy`, `spain`) and refuses values its fields cannot hold. No EN 16931 ids
// or overlays apply, and `taxCurrencyCode` is ignored for these formats (spec), so its rules too.

import { toModel } from "../invoice/to-model.ts";
import { FATTURAPA_SEMPLIFICATA, STANDARD_ENTRIES } from "../profiles/catalogue.ts";
import type { GeneratedSyntax, RequestProfile } from "../profiles/ids.ts";
import { recordById } from "../profiles/lookup.ts";
import type { NationalWriterId, ProfileRecord } from "../profiles/record.ts";
import { writeNational } from "../syntax/national-writers.ts";
import type { GenerateInput, GeneratedXml } from "./generate.ts";
import { markTestMode } from "./test-mode.ts";
import type { Invoice } from "../model/index.ts";
import { compare } from "../model/decimal.ts";
import type { NationalWritten } from "../syntax/national.ts";
import { fieldErrors } from "../errors/domain-error.ts";

type NationalRecord = ProfileRecord & { national: NationalWriterId; syntax: GeneratedSyntax };

/**
 * The national record a request means, if its standard is national. FatturaPA's simplified invoice
 * has no profile of its own in the spec's table; a simplified document type in `italy.tipoDocumento`
 * (TD07, TD08, TD09) chooses it, as SDI reads the type to tell the two roots apart.
 */
export function nationalRecord(request: GenerateInput, profile: RequestProfile): NationalRecord | undefined {
  const [id] = STANDARD_ENTRIES[request.standard].profiles[profile] ?? [];
  const record = id === undefined ? undefined : recordById(id);
  if (!record?.national) return undefined;
  const simplified = request.standard === "fatturapa" && FATTURAPA_SEMPLIFICATA.documentTypes.includes(request.invoice.italy?.tipoDocumento ?? "");
  const chosen = simplified ? recordById(FATTURAPA_SEMPLIFICATA.record) : record;
  return chosen as NationalRecord;
}

/** The request's totals and where they stand in it, beside the names the format's file gives them. */
const TOTALS = [
  { stated: "taxExclusive", model: "taxExclusiveTotal", path: "/invoice/totalNetAmount" },
  { stated: "tax", model: "vatTotal", path: "/invoice/totalTaxAmount" },
  { stated: "taxInclusive", model: "taxInclusiveTotal", path: "/invoice/totalGrossAmount" },
] as const;

/**
 * The national writers compute their totals from the lines by their format's rounding rule
 * (docs/national-formats.md); a request whose totals say otherwise is refused naming each, rather
 * than answered with a file whose totals differ from the ones sent.
 */
function holdTotals(stated: NationalWritten["stated"], model: Invoice, format: string): void {
  const errors = TOTALS.flatMap(({ stated: key, model: field, path }) => {
    const written = stated[key];
    const sent = model.totals[field];
    if (written === undefined || sent === undefined || compare(written, sent) === 0) return [];
    return [{ path, message: `the ${format} file states ${written}, computed from the lines by its rounding rule; the request says ${sent}`, keyword: "nationalTotal" }];
  });
  if (errors.length) throw fieldErrors(errors);
}

export function generateNational(request: GenerateInput, profile: RequestProfile, record: NationalRecord, options: { livemode: boolean }): GeneratedXml {
  const { invoice } = request;
  const model = toModel(invoice, { specificationIdentifier: record.profile });
  const written = writeNational(record.national, { invoice, model });
  holdTotals(written.stated, model, record.profile);
  const xml = options.livemode ? written.xml : markTestMode(written.xml);
  return {
    bytes: new TextEncoder().encode(xml),
    syntax: record.syntax,
    standard: request.standard,
    profile,
    record: record.id,
    contentType: "application/xml",
    lost: written.lost,
    model,
  };
}
