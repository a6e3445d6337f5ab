// What each Facturae field the writer fills can hold, from the string types of the pinned XSD
// (facturae_xsd/3.2.2). A request value that does not fit is refused naming its JSON pointer,
// never cut: a truncated name or invoice number is a different invoice.

import { fieldErrors } from "../../errors/domain-error.ts";
import { leaf, type XmlNode } from "../xml-writer.ts";

interface Limit {
  /** The XSD simple type, named in the refusal so a caller can look it up. */
  type: string;
  min?: number;
  max?: number;
  pattern?: { regex: RegExp; says: string };
}

const LIMITS = {
  InvoiceNumber: { type: "TextMax20Type", max: 20 },
  BatchIdentifier: { type: "TextMax70Type", max: 70 },
  TaxIdentificationNumber: { type: "TextMin3Max30Type", min: 3, max: 30 },
  CorporateName: { type: "TextMax80Type", max: 80 },
  Name: { type: "TextMax40Type", max: 40 },
  FirstSurname: { type: "TextMax40Type", max: 40 },
  Address: { type: "TextMax80Type", max: 80 },
  PostCode: { type: "PostCodeType", pattern: { regex: /^[0-9]{5}$/, says: "exactly 5 digits" } },
  Town: { type: "TextMax50Type", max: 50 },
  PostCodeAndTown: { type: "TextMax50Type", max: 50 },
  Province: { type: "TextMax20Type", max: 20 },
  ItemDescription: { type: "TextMax2500Type", max: 2500 },
  IBAN: { type: "TextMin5Max34Type", min: 5, max: 34 },
  PaymentReconciliationReference: { type: "TextMax60Type", max: 60 },
} satisfies Record<string, Limit>;

type LimitedField = keyof typeof LIMITS;

function refusal(field: LimitedField, value: string): { message: string; keyword: string } | undefined {
  const limit: Limit = LIMITS[field];
  const length = [...value].length;
  const where = `Facturae ${field} (${limit.type})`;
  if (limit.max !== undefined && length > limit.max) return { message: `is ${length} characters; ${where} holds at most ${limit.max}`, keyword: "maxLength" };
  if (limit.min !== undefined && length < limit.min) return { message: `is ${length} characters; ${where} needs at least ${limit.min}`, keyword: "minLength" };
  if (limit.pattern && !limit.pattern.regex.test(value)) return { message: `must be ${limit.pattern.says} for ${where}`, keyword: "pattern" };
  return undefined;
}

/** `value` if it fits `field`; otherwise a 400 naming `pointer`, the request field it came from. */
export function fitted(field: LimitedField, value: string, pointer: string): string {
  const refused = refusal(field, value);
  if (refused) throw fieldErrors([{ path: pointer, ...refused }]);
  return value;
}

/** The element `field` holding `value`, checked against its limit. */
export const limitedLeaf = (field: LimitedField, value: string, pointer: string): XmlNode => leaf(field, fitted(field, value, pointer))!;
