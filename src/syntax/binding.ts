// The one interface every EN 16931 syntax binding implements (src/syntax/<name>/binding.ts), and
// registry.ts lists: read a document into the model, write the model as a catalogue record says,
// and say where the few terms validation reads before judging live. Which roots make the syntax is
// detection's data (roots.ts), which profiles it carries the catalogue's (src/profiles/).

import type { Invoice } from "../model/index.ts";
import type { Leftover } from "./leftovers.ts";
import type { En16931Syntax } from "../profiles/ids.ts";
import type { Writing } from "../profiles/record.ts";

/** A model field present in the invoice that the output could not carry. */
export interface LostField {
  /** Business term (e.g. `BT-27`, `BG-25`), when the dropped element names one. */
  bt?: string;
  /** Where it would have been written, e.g. `/rsm:CrossIndustryInvoice/.../ram:Name`. */
  xpath: string;
}

export interface Written {
  xml: string;
  lost: LostField[];
}

/**
 * The few business terms validation itself needs (the France CTC overlay's condition, the BR-CO-25
 * advisory); each binding says where its syntax keeps them, validation/facts.ts reads them.
 */
export interface DocumentFacts {
  /** BT-23 business process type. */
  businessProcess?: string;
  /** BT-40 seller country. */
  sellerCountry?: string;
  /** BT-115 amount due for payment, as written. */
  amountDue?: string;
  /** BT-9 payment due date. */
  dueDate?: string;
  /** BT-20 payment terms. */
  paymentTerms?: string;
}

export interface SyntaxBinding {
  id: En16931Syntax;
  /** Throws on malformed XML, a DOCTYPE or a root of another syntax. */
  read(xml: Uint8Array): Invoice;
  /** `read`, and every value of the source it did not consume (leftovers.ts): what the model cannot carry on. */
  readWithLeftovers(xml: Uint8Array): { invoice: Invoice; leftovers: Leftover[] };
  /** Deterministic: the same model and writing facts always give the same bytes. */
  write(model: Invoice, writing: Writing): Written;
  /** Where each fact lives: an XPath that ignores namespaces, so each root of the syntax shares it. */
  facts: Record<keyof DocumentFacts, string>;
  /** A credit note must name the invoice it credits (BG-3), so generate refuses one without. */
  creditNoteCitesInvoice: boolean;
}

/** `a/b` as a path of elements in any namespace (`*:a/*:b`; a descendant step of one is a slice of a per-local-name index). */
export const anyNamespace = (...names: string[]) => names.map((name) => `*:${name}`).join("/");
