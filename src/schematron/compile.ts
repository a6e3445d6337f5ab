import { emitXslt } from "./emit-xslt.ts";
import { parseSchematron } from "./parse.ts";
import type { PatternSelection } from "../profiles/record.ts";

/**
 * Compiles an ISO Schematron file (queryBinding xslt2, with its includes and abstract patterns; all
 * its patterns, or those selected) into the text of an XSLT 2.0 stylesheet that reports SVRL like the
 * authorities' published XSLT. Throws a `SchematronError` naming file, line and element when the
 * source is not supported.
 */
export async function schematronToXslt(schPath: string, selection?: PatternSelection): Promise<string> {
  return emitXslt(parseSchematron(schPath, selection));
}
