// The text fields of FatturaPA 1.2.2 and FSM10 that take the request's own words, with the limit
// of their XSD type. A value that does not fit is refused naming the request's JSON pointer: a cut
// name or number would be a different document than the one the caller asked for.

import { fieldErrors, type FieldError } from "../../errors/domain-error.ts";

/** Which characters an XSD string type allows: `String…LatinType` (Latin-1) or `String…Type` (Basic Latin). */
type Charset = "latin1" | "basicLatin";

interface Limit {
  max: number;
  charset: Charset;
}

/** Element name → XSD type limit (both schemas use the same types for these names). */
export const FIELD_LIMITS = {
  Denominazione: { max: 80, charset: "latin1" }, // String80LatinType
  Indirizzo: { max: 60, charset: "latin1" }, // String60LatinType
  Comune: { max: 60, charset: "latin1" }, // String60LatinType
  Numero: { max: 20, charset: "basicLatin" }, // String20Type
  Causale: { max: 200, charset: "latin1" }, // String200LatinType
  Descrizione: { max: 1000, charset: "latin1" }, // String1000LatinType
  UnitaMisura: { max: 10, charset: "basicLatin" }, // String10Type
  RiferimentoNormativo: { max: 100, charset: "latin1" }, // String100LatinType
  IdCodice: { max: 28, charset: "basicLatin" }, // CodiceType
} as const satisfies Record<string, Limit>;

export type LimitedField = keyof typeof FIELD_LIMITS;

/**
 * Integer digits the XSD number types allow: Amount2DecimalType and Amount8DecimalType 11,
 * QuantitaType 12. The request allows up to 2^53 - 1 (16 digits).
 */
export const NUMBER_LIMITS = {
  Quantita: 12,
  PrezzoUnitario: 11,
  PrezzoTotale: 11,
  ImportoTotaleDocumento: 11,
} as const satisfies Record<string, number>;

const CHARSET_MAX: Record<Charset, { max: number; name: string }> = {
  latin1: { max: 0xff, name: "Latin-1" },
  basicLatin: { max: 0x7f, name: "Basic Latin (ASCII)" },
};

/**
 * Collects what does not fit while a document is built, so one answer lists every field to fix
 * rather than the first. `done` throws the 400 when anything was refused.
 */
export class FieldCheck {
  private readonly errors: FieldError[] = [];

  /** The value, unchanged; recorded as an error when it does not fit `field`. */
  text(value: string, pointer: string, field: LimitedField): string {
    const limit: Limit = FIELD_LIMITS[field];
    const chars = [...value];
    const charset = CHARSET_MAX[limit.charset];
    if (chars.length === 0) this.refuse({ path: pointer, message: `must not be empty (FatturaPA ${field})`, keyword: "minLength" });
    if (chars.length > limit.max) this.refuse({ path: pointer, message: `must not have more than ${limit.max} characters (FatturaPA ${field})`, keyword: "maxLength" });
    const outside = chars.find((c) => c.codePointAt(0)! > charset.max);
    if (outside !== undefined) {
      const code = `U+${outside.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
      this.refuse({ path: pointer, message: `must hold only ${charset.name} characters (FatturaPA ${field}); ${code} is not`, keyword: "latin1" });
    }
    return value;
  }

  /** The number as written, recorded as an error when its integer part is longer than `field` allows. */
  number(value: string, pointer: string, field: keyof typeof NUMBER_LIMITS): string {
    const digits = value.replace(/^-/, "").split(".")[0]!.length;
    const max = NUMBER_LIMITS[field];
    if (digits > max) this.refuse({ path: pointer, message: `must have at most ${max} integer digits (FatturaPA ${field}); ${value} has ${digits}`, keyword: "maximum" });
    return value;
  }

  refuse(error: FieldError): void {
    this.errors.push(error);
  }

  done(): void {
    if (this.errors.length > 0) throw fieldErrors(this.errors);
  }
}
