import type { Schema } from "../../schematron/model.ts";
import { fail } from "../xpath/errors.ts";

/** Reads an XSLT written by the ISO Schematron skeleton back into the rule model. */
export function readSkeletonXslt(_text: string, file: string): Schema {
  return fail("XTSE0010", `${file}: reading ISO-skeleton XSLT is not implemented yet`);
}
