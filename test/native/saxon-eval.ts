// Test oracle for the evaluator: evaluates XPath expressions on Saxon-HE in one JVM run, each in
// its own xsl:try so that one expression's dynamic error does not hide the others' results.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runSaxonHe } from "../support/saxon-he.ts";
import { readXml } from "../../src/native/xml-reader.ts";
import { compileXPath } from "../../src/native/xpath/compile.ts";
import { Scope, type StylesheetFunction } from "../../src/native/xpath/context.ts";
import { XPathError } from "../../src/native/xpath/errors.ts";
import { CompileSession } from "../../src/native/xpath/session.ts";
import { itemString } from "../../src/native/xpath/values.ts";

/** An expression's outcome: its items' string values joined by "|", or "error <code>". */
export type Outcome = string;

/**
 * Evaluates every expression with `document`'s root as context, namespaces bound as given;
 * `declarations` (e.g. `xsl:function` elements) are placed at the top level of the stylesheet;
 * `files` (name to XML) beside the stylesheet, for `document('name')`.
 */
export async function saxonEvaluate(
  expressions: string[],
  document: string,
  namespaces: Record<string, string> = {},
  declarations: string[] = [],
  files: Record<string, string> = {},
): Promise<Outcome[]> {
  const work = mkdtempSync(join(tmpdir(), "native-eval-"));
  try {
    for (const [name, xml] of Object.entries(files)) writeFileSync(join(work, name), xml);
    const xsl = join(work, "eval.xsl");
    const doc = join(work, "doc.xml");
    const bindings = Object.entries(namespaces)
      .map(([prefix, uri]) => ` xmlns:${prefix}="${escape(uri)}"`)
      .join("");
    const bodies = expressions.map(
      (expression, i) =>
        `<xsl:try><xsl:value-of select="${i}, '&#9;', string-join(for $item in (${escape(expression)}) return string($item), '|')" separator=""/>` +
        `<xsl:catch><xsl:value-of select="${i}, '&#9;error ', local-name-from-QName($err:code)" separator=""/></xsl:catch></xsl:try><xsl:text>&#10;</xsl:text>`,
    );
    writeFileSync(
      xsl,
      `<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:err="http://www.w3.org/2005/xqt-errors"${bindings}>` +
        `<xsl:output method="text"/>${declarations.join("\n")}<xsl:template match="/">${bodies.join("\n")}</xsl:template></xsl:stylesheet>`,
    );
    writeFileSync(doc, document);
    const result = (await runSaxonHe(xsl, [doc])).get(doc)!;
    if (result.error !== null) throw new Error(`Saxon-HE: ${result.error}`);
    const outcomes: Outcome[] = new Array(expressions.length);
    for (const line of result.svrl!.split("\n")) {
      const tab = line.indexOf("\t");
      if (tab > 0) outcomes[Number(line.slice(0, tab))] = line.slice(tab + 1);
    }
    return outcomes;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The same expressions on the native evaluator, as {@link Outcome}s: `xs` and `namespaces` bound, `functions` callable, `files` opened by document(). */
export function nativeEvaluate(
  expressions: string[],
  document: string,
  namespaces: Record<string, string> = {},
  functions: ReadonlyMap<string, StylesheetFunction> = new Map(),
  files: Record<string, string> = {},
): Outcome[] {
  const xml = readXml(document);
  const bindings = new Map([["xs", "http://www.w3.org/2001/XMLSchema"], ...Object.entries(namespaces)]);
  // One session, as one plan's rules have: the expressions share hoisted values as they would.
  const session = new CompileSession();
  return expressions.map((expression) => {
    try {
      const evaluate = compileXPath(expression, new Scope(session, bindings, new Map(), functions, (href) => (href in files ? readXml(files[href]) : undefined)));
      return evaluate({ item: xml.node, position: 1, size: 1 }, { document: xml, globals: [], locals: [] }).map(itemString).join("|");
    } catch (error) {
      if (error instanceof XPathError) return `error ${error.code}`;
      throw error;
    }
  });
}

/** Each expression whose native outcome differs from Saxon-HE's, with both: empty when they agree. */
export function disagreements(expressions: string[], native: Outcome[], reference: Outcome[]): string[] {
  return expressions.flatMap((expression, i) => (native[i] === reference[i] ? [] : [`${expression}\n  native: ${native[i]}\n  saxon:  ${reference[i]}`]));
}

function escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
}
