// The document model: what XPath sees must be what Saxon-HE sees (text, namespaces, order).

import { expect, test } from "bun:test";
import { Kind } from "../../src/native/xpath/document.ts";
import { readXml, XmlError } from "../../src/native/xml-reader.ts";

test("text, references, CDATA and line ends are read as an XML parser reports them", () => {
  const document = readXml(`<?xml version="1.0"?>\r\n<r a="x&#9;y\r\nz">a&lt;&#x42;<![CDATA[<c>]]>&amp;\r\nb<!-- note --><?pi data?></r>`);
  const root = document.node.children[0];
  expect(root.attributes[0].value).toBe("x\ty z");
  expect(root.stringValue()).toBe("a<B<c>&\nb");
  expect(root.children.map((child) => child.kind)).toEqual([Kind.Text, Kind.Comment, Kind.ProcessingInstruction]);
});

test("namespaces resolve per scope; unprefixed attributes have none", () => {
  const document = readXml(`<p:r xmlns:p="urn:p" xmlns="urn:d"><c p:a="1" b="2"><p:d xmlns:p="urn:q"/></c></p:r>`);
  const [root] = document.node.children;
  const c = root.children[0];
  expect([root.ns, root.local, root.qname]).toEqual(["urn:p", "r", "p:r"]);
  expect(c.ns).toBe("urn:d");
  expect(c.attributes.map((attribute) => [attribute.ns, attribute.local])).toEqual([["urn:p", "a"], ["", "b"]]);
  expect(c.children[0].ns).toBe("urn:q");
});

test("document order puts attributes after their element and before its children; indexes follow it", () => {
  const document = readXml(`<r><a x="1"><b/></a><b y="2"/></r>`);
  const [r] = document.node.children;
  const [a, b2] = r.children;
  expect([r.order, a.order, a.attributes[0].order, a.children[0].order, b2.order, b2.attributes[0].order]).toEqual([1, 2, 3, 4, 5, 6]);
  expect(a.end).toBe(4);
  expect(document.named("", "b").map((node) => node.order)).toEqual([4, 5]);
  expect(document.attributesNamed("", "y").map((node) => node.order)).toEqual([6]);
});

test("malformed input and DOCTYPE are refused", () => {
  expect(() => readXml("<r><a></r>")).toThrow(XmlError);
  expect(() => readXml(`<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>`)).toThrow(XmlError);
  expect(() => readXml(`<r>&unknown;</r>`)).toThrow(XmlError);
  expect(() => readXml(`<p:r/>`)).toThrow(XmlError);
});

test("whitespace between elements keeps its exact value, shared or not", () => {
  const forms = ["\n", "\n  ", "\n\t\t", "\n \t", "\n" + " ".repeat(300), " \n", "\n  x", "\n  &amp;"];
  const document = readXml(`<r>${forms.map((form) => `<a/>${form}`).join("")}<a/>\r\n    </r>`);
  const texts = document.node.children[0].children.filter((child) => child.kind === Kind.Text).map((child) => child.value);
  expect(texts).toEqual([...forms.slice(0, -1), "\n  &", "\n    "]);
  // The same indentation read twice is one string, as Saxon-HE would see two equal ones.
  const again = readXml(`<r>\n  <a/>\n  </r>`).node.children[0].children;
  expect(again[0].value).toBe(again[2].value);
});
