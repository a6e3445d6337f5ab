// A small XML writer shared by the syntax bindings: build a tree of plain nodes, then serialize it
// deterministically (same tree, same bytes). Optional parts are `undefined` and vanish, so a binding
// states what an element holds, not whether to write it.

import { firstForbiddenChar } from "./xml-chars.ts";

export interface XmlNode {
  /** Qualified name, prefix included (`cbc:ID`); the prefixes are declared on the root. */
  name: string;
  attributes?: Record<string, string>;
  /** Text content of a leaf; a node has text or children, never both. */
  text?: string;
  children: XmlNode[];
  /**
   * The business term the element carries (`BT-27`, `BG-25`), for a binding that reports what a
   * target could not hold; never written.
   */
  bt?: string;
}

type XmlChild = XmlNode | undefined | false | readonly (XmlNode | undefined | false)[];

function kept(children: readonly XmlChild[]): XmlNode[] {
  return children.flat().filter((c): c is XmlNode => !!c);
}

function definedAttributes(attributes: Record<string, string | undefined> | undefined): Record<string, string> | undefined {
  const entries = Object.entries(attributes ?? {}).filter((e): e is [string, string] => e[1] !== undefined);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** An aggregate; absent when none of its children is present. */
export function group(name: string, ...children: XmlChild[]): XmlNode | undefined {
  const nodes = kept(children);
  return nodes.length > 0 ? { name, children: nodes } : undefined;
}

/** An aggregate written even when empty (schema-mandatory containers, the root). */
export function always(name: string, ...children: XmlChild[]): XmlNode {
  return { name, children: kept(children) };
}

/** A leaf holding a value; absent when the value is. Undefined attributes are left out. */
export function leaf(name: string, value: string | undefined, attributes?: Record<string, string | undefined>): XmlNode | undefined {
  if (value === undefined) return undefined;
  const attrs = definedAttributes(attributes);
  return { name, text: value, children: [], ...(attrs && { attributes: attrs }) };
}

/** Labels a node with the business term it carries (`XmlNode.bt`); no term, or no node, leaves it as it is. */
export function carrying<T extends XmlNode | undefined>(node: T, bt: string | undefined): T {
  return node && bt ? { ...node, bt } : node;
}

/** Adds attributes to a node (namespace declarations on the root, for instance). */
export function withAttributes(node: XmlNode, attributes: Record<string, string | undefined>): XmlNode {
  return { ...node, attributes: { ...node.attributes, ...definedAttributes(attributes) } };
}

/**
 * Orders children by a schema sequence (element names in XSD order); equal names keep their
 * relative order. A name missing from the sequence is a binding bug and throws, rather than
 * producing a document the schema would reject.
 */
export function inSequence(children: readonly XmlNode[], sequence: readonly string[]): XmlNode[] {
  const rank = new Map(sequence.map((name, i) => [name, i]));
  for (const c of children) if (!rank.has(c.name)) throw new Error(`${c.name} has no place in the schema sequence`);
  return children
    .map((node, i) => ({ node, i }))
    .sort((a, b) => rank.get(a.node.name)! - rank.get(b.node.name)! || a.i - b.i)
    .map((e) => e.node);
}

// Request input is held to the XML Char production before it reaches a binding (schema-check.ts),
// so a value outside it here is a binding's bug: written, it would make a document nobody can read.
function checked(value: string, where: string): string {
  const forbidden = firstForbiddenChar(value);
  if (forbidden) throw new Error(`${where} holds ${forbidden.name}, a character XML cannot represent`);
  return value;
}

// `>` is escaped too so that "]]>" can never appear; CR is kept as a reference because a parser
// would otherwise normalise it to LF and the value would not survive.
function escapeText(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#13;");
}

// Tabs and newlines in attributes must be references, or attribute-value normalisation turns them into spaces.
function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;");
}

function writeNode(node: XmlNode, depth: number, indent: string, out: string[]): void {
  const pad = indent.repeat(depth);
  const attrs = Object.entries(node.attributes ?? {})
    .map(([k, v]) => ` ${k}="${escapeAttribute(checked(v, `${node.name}/@${k}`))}"`)
    .join("");
  if (node.children.length > 0) {
    out.push(`${pad}<${node.name}${attrs}>\n`);
    for (const child of node.children) writeNode(child, depth + 1, indent, out);
    out.push(`${pad}</${node.name}>\n`);
  } else if (node.text !== undefined && node.text !== "") {
    out.push(`${pad}<${node.name}${attrs}>${escapeText(checked(node.text, node.name))}</${node.name}>\n`);
  } else {
    out.push(`${pad}<${node.name}${attrs}/>\n`);
  }
}

interface SerializeOptions {
  /** One level of indentation; two spaces unless told. */
  indent?: string;
}

/** The document as text: UTF-8 declaration, one element per line, attributes in insertion order. */
export function serialize(root: XmlNode, options: SerializeOptions = {}): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  writeNode(root, 0, options.indent ?? "  ", out);
  return out.join("");
}
