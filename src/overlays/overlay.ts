// An overlay: what a standard or a country adds on top of a profile, in both directions, as gobl's
// addons do. Generate checks the request with it and completes the model; parse undoes what it
// added, so the invoice comes back in the fields a caller sends. registry.ts says which overlays a
// record switches on.

import type { FieldError } from "../errors/domain-error.ts";
import type { InvoiceInput } from "../invoice/schema.ts";
import type { Buyer, Invoice, Seller } from "../model/index.ts";
import type { Standard } from "../profiles/ids.ts";
import type { Writing } from "../profiles/record.ts";

/** The parties an overlay completes, in the order generate visits them. */
export const ROLES = ["seller", "buyer"] as const;
export type Role = (typeof ROLES)[number];

/** What generate is writing: the request, and the writing facts of the record that writes it. */
export interface Generating {
  invoice: InvoiceInput;
  standard: Standard;
  write: Writing;
}

export interface Overlay {
  /** Generate, before the model exists: the request's faults under the overlay's rules, answered with the generic ones. */
  check?(invoice: InvoiceInput): FieldError[];
  /** Generate: completes one party of the model; may refuse the request. */
  party?(role: Role, target: Seller | Buyer, request: Generating): void;
  /** Generate: completes the model once its parties are. */
  apply?(model: Invoice, request: Generating): void;
  /** Parse: what the overlay wrote into `model`, given back in the fields of `invoice` (the plain mapping of `model`) or dropped. */
  undo?(model: Invoice, invoice: InvoiceInput): void;
}
