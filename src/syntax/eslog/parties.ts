// Seller (BG-4) and buyer (BG-7): G_SG2 with S_NAD (name, address), S_FII (the accounts of BG-17
// and BT-91), G_SG3 references (VAT id, tax registration, legal registration, BT-10 buyer
// reference) and G_SG5 the contact (BG-6, BG-9).

import type { Address, Buyer, Contact, Invoice, Seller } from "../../model/index.ts";
import type { InvoiceInput } from "../../invoice/schema.ts";
import { always, group, leaf, type XmlNode } from "../xml-writer.ts";
import { CHANNEL, CONTACT, PARTY, REFERENCE } from "./qualifiers.ts";
import { rff } from "./segments.ts";

// C_C059 must open with D_3042, so a later address line is written only under a first one.
function nad(qualifier: string, name: string, a: Address): XmlNode {
  return always(
    "S_NAD",
    leaf("D_3035", qualifier),
    always("C_C080", leaf("D_3036", name)),
    a.line1 ? always("C_C059", leaf("D_3042", a.line1), leaf("D_3042_2", a.line2 || undefined), leaf("D_3042_3", a.line3 || undefined)) : undefined,
    leaf("D_3164", a.city || undefined),
    group("C_C819", leaf("D_3228", a.countrySubdivision || undefined)),
    leaf("D_3251", a.postCode || undefined),
    leaf("D_3207", a.countryCode),
  );
}

function fii(qualifier: string, account: string, name?: string, bic?: string): XmlNode {
  return always("S_FII", leaf("D_3035", qualifier), always("C_C078", leaf("D_3194", account), leaf("D_3192", name || undefined)), group("C_C088", leaf("D_3433", bic)));
}

const com = (channel: string, value: string | undefined) => (value ? always("S_COM", always("C_C076", leaf("D_3148", value), leaf("D_3155", channel))) : undefined);

function contact(c: Contact | undefined): XmlNode | undefined {
  if (!c) return undefined;
  return always("G_SG5", always("S_CTA", leaf("D_3139", CONTACT), group("C_C056", leaf("D_3412", c.name || undefined))), com(CHANNEL.email, c.email), com(CHANNEL.telephone, c.telephone));
}

const sg3 = (node: XmlNode | undefined) => node && always("G_SG3", node);

function registrations(party: Seller | Buyer, taxRegistration: string | undefined): (XmlNode | undefined)[] {
  const legal = party.legalRegistrationId;
  return [
    sg3(rff(REFERENCE.vat, party.vatId || undefined)),
    sg3(rff(REFERENCE.taxRegistration, taxRegistration || undefined)),
    sg3(legal && rff(legal.scheme || REFERENCE.legalRegistration, legal.value || undefined)),
  ];
}

function seller(model: Invoice): XmlNode {
  const s = model.seller;
  const accounts = model.paymentInstructions?.creditTransfers ?? [];
  return always("G_SG2", nad(PARTY.seller, s.name, s.address), accounts.map((t) => fii(PARTY.payeeAccount, t.accountId, t.accountName, t.serviceProviderId)), registrations(s, s.taxRegistrationId), contact(s.contact));
}

/** The buyer's tax number has no EN 16931 term, so the model drops it; e-SLOG carries it (AHP), read from the request. */
function buyer(model: Invoice, input: InvoiceInput): XmlNode {
  const b = model.buyer;
  const debited = model.paymentInstructions?.directDebit?.debitedAccountId;
  return always(
    "G_SG2",
    nad(PARTY.buyer, b.name, b.address),
    debited ? fii(PARTY.debitedAccount, debited) : undefined,
    registrations(b, input.buyer.taxId),
    sg3(rff(REFERENCE.buyer, model.buyerReference || undefined)),
    contact(b.contact),
  );
}

/** G_SG2 for the seller, then the buyer (the XSD does not order parties; the Slovenian sample has the buyer first, either reads). */
export function parties(model: Invoice, input: InvoiceInput): XmlNode[] {
  return [seller(model), buyer(model, input)];
}
