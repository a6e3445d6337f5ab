import type { Schema } from "../../schematron/model.ts";
import { fail } from "../xpath/errors.ts";

/** Reads an XSLT written by SchXslt back into the rule model. */
export function readSchxslt(_text: string, file: string): Schema {
  return fail("XTSE0010", `${file}: reading SchXslt XSLT is not implemented yet`);
}
