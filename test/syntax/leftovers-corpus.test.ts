// Every UBL and CII document of the corpus read with leftovers: the same model as a plain read (or
// the same refusal), and every leftover path evaluated in the source lands on a node holding the
// value reported. The summary it prints (documents, documents with nothing left, the most frequent
// leftover places) is the work list for making the readers lossless.

import { afterAll, describe, expect, test } from "bun:test";
import { isEn16931Syntax, type En16931Syntax } from "../../src/profiles/ids.ts";
import { CII_PLACES } from "../../src/syntax/cii/terms.ts";
import type { Leftover } from "../../src/syntax/leftovers.ts";
import { bindingOf } from "../../src/syntax/registry.ts";
import { UBL_PLACES } from "../../src/syntax/ubl/terms.ts";
import { elementChildren, parseXml, type Element } from "../../src/syntax/xml-reader.ts";
import { corpusFile, corpusMissing, corpusRows } from "../support/corpus.ts";
import { cannotRun } from "../support/requirements.ts";

const PREFIXES = { ubl: UBL_PLACES.prefixes, cii: CII_PLACES.prefixes };

/**
 * The node a leftover path names, evaluated step by step: a prefix is the binding's, else the
 * source's own declaration; no prefix is a namespace the binding leaves unprefixed (UBL's roots),
 * else the default namespace in scope. A step without a position must be the only one of its name.
 */
function evaluate(root: Element, path: string, syntax: En16931Syntax): { value: string } | undefined {
  const prefixes = Object.entries(PREFIXES[syntax]);
  const uriOf = Object.fromEntries(prefixes.flatMap(([uri, prefix]) => (prefix ? [[prefix, uri]] : [])));
  const unprefixed = prefixes.flatMap(([uri, prefix]) => (prefix ? [] : [uri]));
  const matches = (e: Element, step: string) => {
    const [prefix, local] = step.includes(":") ? step.split(":") : ["", step];
    const uris = prefix ? [uriOf[prefix] ?? e.lookupNamespaceURI(prefix)] : [...unprefixed, e.lookupNamespaceURI(null)];
    return e.localName === local && uris.includes(e.namespaceURI);
  };
  const [, first, ...rest] = path.split("/");
  if (!matches(root, first!)) return undefined;
  let here = root;
  for (const step of rest) {
    if (step.startsWith("@")) {
      const attr = here.getAttributeNode(step.slice(1));
      return attr ? { value: attr.value } : undefined;
    }
    const [, bare, position] = /^(.+?)(?:\[(\d+)\])?$/.exec(step)!;
    const found = elementChildren(here).filter((c) => matches(c, bare!));
    if (position === undefined && found.length !== 1) return undefined;
    const next = found[position === undefined ? 0 : Number(position) - 1];
    if (!next) return undefined;
    here = next;
  }
  return { value: here.textContent!.trim() };
}

const rows = corpusRows().filter((r) => isEn16931Syntax(r.syntax));
let read = 0;
let refused = 0;
let clean = 0;
/** Per leftover place (syntax and path without positions): how many leftovers, in how many documents. */
const places = new Map<string, { count: number; documents: number; reason: string }>();

describe.skipIf(cannotRun("leftovers over the corpus", corpusMissing))("leftovers over the corpus", () => {
  test("the corpus has UBL and CII documents", () => expect(rows.length).toBeGreaterThan(1000));

  for (const row of rows) {
    test(row.path, () => {
      const syntax = row.syntax as En16931Syntax;
      const bytes = corpusFile(row)!;
      const binding = bindingOf(syntax);
      let plain: unknown;
      try {
        plain = binding.read(bytes);
      } catch (error) {
        // A document the reader refuses (another root, malformed) is refused alike.
        expect(() => binding.readWithLeftovers(bytes)).toThrow((error as Error).message);
        refused++;
        return;
      }
      const { invoice, leftovers } = binding.readWithLeftovers(bytes);
      expect(invoice).toEqual(plain as never);
      const root = parseXml(bytes).documentElement!;
      const unresolved = leftovers.filter((l: Leftover) => evaluate(root, l.path, syntax)?.value !== l.value);
      expect(unresolved).toEqual([]);
      read++;
      if (leftovers.length === 0) clean++;
      const here = new Set<string>();
      for (const l of leftovers) {
        const place = `${syntax} ${l.path.replace(/\[\d+\]/g, "")}`;
        const seen = places.get(place) ?? { count: 0, documents: 0, reason: l.reason };
        places.set(place, { ...seen, count: seen.count + 1, documents: seen.documents + (here.has(place) ? 0 : 1) });
        here.add(place);
      }
    });
  }

  afterAll(() => {
    const top = [...places].sort((a, b) => b[1].documents - a[1].documents || b[1].count - a[1].count).slice(0, 30);
    console.log(
      `\nleftovers: ${read} documents read (${refused} refused by both reads), ${clean} with no leftover, ${places.size} leftover places; the 30 in most documents (documents, leftovers):`,
    );
    for (const [place, { count, documents, reason }] of top) console.log(`${String(documents).padStart(6)} ${String(count).padStart(6)}  ${place}  [${reason}]`);
  });
});
