// The generation matrix: which scenarios run against which standard and profile, with which
// locale, and which fields each target does not carry (the round trip compares everything else).

import type { InvoiceInput } from "../../src/invoice/schema.ts";
import type { GenerateInput } from "../../src/generate/generate.ts";
import { LOCALES, MULTI_VENDOR, MULTI_VENDOR_ACCOUNTING, SCENARIOS, type LocaleName, type Scenario } from "../../fixtures/invoices.ts";

export interface Target {
  label: string;
  request: Omit<GenerateInput, "invoice">;
  locale: LocaleName;
  /** Scenario names to run (all when absent). */
  scenarios?: string[];
  /** The target's own scenarios, run instead of the shared ones. */
  own?: Scenario[];
  /** Fields the target does not carry, as JSON paths with `*` for any array index. */
  drops: string[];
  /** Adjusts the invoice for the target's own demands (e.g. France CTC opt-in). */
  adapt?: (invoice: InvoiceInput) => InvoiceInput;
}

/** What EN 16931 itself has no term for: never carried by any UBL or CII target. */
const NEVER = ["buyer.taxId"];
/** MINIMUM: header and totals only (no lines, no notes, no payment, no delivery, no contacts). */
const MINIMUM = [
  ...NEVER,
  "lines",
  "note",
  "dueDate",
  "paymentMeans",
  "paymentTerms",
  "delivery",
  "taxSummary",
  "precedingInvoiceReference",
  "taxCurrencyCode",
  "taxTotalInAccountingCurrency",
  "seller.address.street",
  "seller.address.additionalStreet",
  "seller.address.city",
  "seller.address.postalCode",
  "seller.address.countrySubentity",
  "seller.email",
  "seller.phone",
  "seller.contactName",
  "seller.peppol",
  "buyer.address",
  "buyer.vatId",
  "buyer.email",
  "buyer.phone",
  "buyer.contactName",
  "buyer.peppol",
];
/** BASIC WL: no lines, contacts, or item details. */
const BASIC_WL = [...NEVER, "lines", "seller.email", "seller.phone", "seller.contactName", "buyer.email", "buyer.phone", "buyer.contactName", "paymentMeans.bankName"];
const BASIC = [...NEVER, "lines.*.itemId", "seller.email", "seller.phone", "seller.contactName", "buyer.email", "buyer.phone", "buyer.contactName", "paymentMeans.bankName", "lines.*.buyerItemId", "lines.*.subLines"];
const EN16931_CII = [...NEVER, "lines.*.subLines"];
const UBL_PEPPOL = [...NEVER, "lines.*.subLines"];

const ALL = SCENARIOS.map((s) => s.name);
const ctcFr = (i: InvoiceInput): InvoiceInput => ({ ...i, franceCtc: true });
const MULTI_VENDOR_PROCESSES = ["S8", "B8", "M8"] as const;
const MULTI_VENDOR_SCENARIOS = [MULTI_VENDOR, MULTI_VENDOR_ACCOUNTING];
const multiVendor = (businessProcessId: (typeof MULTI_VENDOR_PROCESSES)[number]) => (i: InvoiceInput): InvoiceInput => ({ ...i, franceCtc: true, businessProcessId });

export const TARGETS: Target[] = [
  // XRechnung carries sub-lines in UBL only (the extension); CII drops them.
  { label: "xrechnung CII", request: { standard: "xrechnung" }, locale: "de", drops: [...NEVER, "lines.*.subLines"] },
  { label: "xrechnung UBL", request: { standard: "xrechnung", syntax: "ubl" }, locale: "de", drops: NEVER },
  ...(["minimum", "basicwl", "basic", "en16931", "extended"] as const).map((p): Target => ({
    label: `zugferd ${p}`,
    request: { standard: "zugferd", profile: p },
    locale: "de",
    scenarios: ["domestic, two rates", "credit note with preceding invoice", "sub-lines"],
    drops: { minimum: MINIMUM, basicwl: BASIC_WL, basic: BASIC, en16931: EN16931_CII, extended: NEVER }[p],
  })),
  ...(["minimum", "basicwl", "basic", "en16931", "extended"] as const).map((p): Target => ({
    label: `facturx ${p}`,
    request: { standard: "facturx", facturxProfile: p },
    locale: "fr",
    scenarios: p === "en16931" || p === "extended" ? ALL : ["domestic, one rate", "cross-border reverse charge (AE)", "foreign currency with VAT accounting currency"],
    drops: { minimum: MINIMUM, basicwl: BASIC_WL, basic: BASIC, en16931: EN16931_CII, extended: NEVER }[p],
  })),
  { label: "facturx extended-ctc-fr", request: { standard: "facturx", profile: "extended-ctc-fr" }, locale: "fr", drops: NEVER, adapt: ctcFr, scenarios: ["domestic, one rate", "domestic, two rates", "credit note with preceding invoice", "exempt (E) with reason"] },
  // The multi-vendor frameworks need line groups with their own sellers: Factur-X EXTENDED carries them.
  ...MULTI_VENDOR_PROCESSES.flatMap((process): Target[] => [
    { label: `facturx extended ${process}`, request: { standard: "facturx", facturxProfile: "extended" }, locale: "fr", drops: NEVER, own: MULTI_VENDOR_SCENARIOS, adapt: multiVendor(process) },
    { label: `facturx extended-ctc-fr ${process}`, request: { standard: "facturx", profile: "extended-ctc-fr" }, locale: "fr", drops: NEVER, own: MULTI_VENDOR_SCENARIOS, adapt: multiVendor(process) },
  ]),
  { label: "peppol-bis peppol", request: { standard: "peppol-bis" }, locale: "be", drops: UBL_PEPPOL },
  { label: "peppol-bis romania-ro-cius", request: { standard: "peppol-bis", profile: "romania-ro-cius" }, locale: "ro", drops: UBL_PEPPOL },
  { label: "peppol-bis netherlands-nlcius", request: { standard: "peppol-bis", profile: "netherlands-nlcius" }, locale: "nl", drops: UBL_PEPPOL },
];

export function* matrix(): Generator<{ target: Target; scenario: string; input: GenerateInput }> {
  for (const target of TARGETS) {
    for (const scenario of target.own ?? SCENARIOS) {
      if (target.scenarios && !target.scenarios.includes(scenario.name)) continue;
      const invoice = scenario.build(LOCALES[target.locale]);
      yield { target, scenario: scenario.name, input: { ...target.request, invoice: target.adapt ? target.adapt(invoice) : invoice } };
    }
  }
}
