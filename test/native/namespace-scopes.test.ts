// The reader's namespace bindings: a declaration holds for its element and what it contains, an
// inner one shadows an outer one until it closes. It copied every binding in scope for each
// element that declared one, so a root with many declarations over many declaring children was
// quadratic; each element now binds and unbinds only its own.

import { expect, test } from "bun:test";
import { Kind, type XNode } from "../../src/native/xpath/document.ts";
import { readXml } from "../../src/native/xml-reader.ts";

const elements = (node: XNode): XNode[] => node.children.filter((child) => child.kind === Kind.Element);
const names = (nodes: XNode[]) => nodes.map((node) => `{${node.ns}}${node.local}`);

test("a declaration holds for its element and its descendants, and an inner one shadows it until it closes", () => {
  const root = elements(readXml(`<p:r xmlns:p="u1" xmlns="d"><p:a xmlns:p="u2"><p:b/></p:a><p:c/><x xmlns=""><y/></x><z/></p:r>`).node)[0];
  const [a, c, x, z] = elements(root);
  expect(names([root, a, elements(a)[0], c, x, elements(x)[0], z])).toEqual(["{u1}r", "{u2}a", "{u2}b", "{u1}c", "{}x", "{}y", "{d}z"]);
});

test("a self-closing element's declarations end with it", () => {
  const root = elements(readXml(`<r xmlns:p="u1"><a xmlns:p="u2" p:k="1"/><b p:k="2"/></r>`).node)[0];
  expect(elements(root).map((element) => element.attributes[0].ns)).toEqual(["u2", "u1"]);
});

test("a prefix used after its declaration closed is refused", () => {
  expect(() => readXml(`<r><a xmlns:p="u"/><p:b/></r>`)).toThrow('undeclared prefix "p"');
});

test("many declarations over many declaring elements are read in one pass", () => {
  const count = 20_000;
  const declarations = Array.from({ length: count }, (_, i) => `xmlns:p${i}="u${i}"`).join(" ");
  const started = performance.now();
  const document = readXml(`<r ${declarations}>${'<a xmlns:x="v"><x:b/></a>'.repeat(count)}<p7:c/></r>`);
  // Generous: the copies were quadratic; this only proves they are gone.
  expect(performance.now() - started).toBeLessThan(2_000);
  const children = elements(elements(document.node)[0]);
  expect(children).toHaveLength(count + 1);
  expect(names([elements(children[0])[0], children[count]])).toEqual(["{v}b", "{u7}c"]);
});
