// Reading and writing XML for the CII binding: a namespace-aware parse that refuses DOCTYPEs, small
// path lookups over the fixed CII prefixes, and a deterministic serializer for the written tree.
// (Private to cii/ because the shared src/syntax/xml-reader.ts / xml-writer.ts did not exist yet.)

import { DOMParser, type Element } from "@xmldom/xmldom";
import { decodeXml } from "../decode.ts";
import { readProlog } from "../detect.ts";
import type { XmlNode } from "./node.ts";

export const NAMESPACES = {
  rsm: "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
  ram: "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
  qdt: "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
  udt: "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
} as const;

type Prefix = keyof typeof NAMESPACES;

export class CiiReadError extends Error {}

/** Parses a CII document and returns its root; refuses DOCTYPEs, other roots and malformed XML. */
export function parseCii(xml: string | Uint8Array): Element {
  const text = typeof xml === "string" ? xml : decodeXml(xml);
  // Entities and external subsets are how XML reaches out; a CII document never needs them.
  if (readProlog(text).doctype) throw new CiiReadError("DOCTYPE declarations are refused");
  let root: Element | null;
  try {
    root = new DOMParser({
      onError: (level, message) => {
        if (level !== "warning") throw new CiiReadError(`not well-formed XML: ${message}`);
      },
    }).parseFromString(text, "text/xml").documentElement;
  } catch (error) {
    throw error instanceof CiiReadError ? error : new CiiReadError(`not well-formed XML: ${(error as Error).message}`);
  }
  if (!root) throw new CiiReadError("not well-formed XML: no root element");
  if (root.namespaceURI !== NAMESPACES.rsm || root.localName !== "CrossIndustryInvoice") {
    throw new CiiReadError(`not a CII invoice: root {${root.namespaceURI}}${root.localName}`);
  }
  return root;
}

function matches(node: Element, step: string): boolean {
  const colon = step.indexOf(":");
  return node.localName === step.slice(colon + 1) && node.namespaceURI === NAMESPACES[step.slice(0, colon) as Prefix];
}

function elementChildren(parent: Element): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}

/** Every element reached by a `ram:A/ram:B` path (each step may match several). */
export function all(parent: Element | undefined, path: string): Element[] {
  let current = parent ? [parent] : [];
  for (const step of path.split("/")) current = current.flatMap((e) => elementChildren(e).filter((c) => matches(c, step)));
  return current;
}

export function first(parent: Element | undefined, path: string): Element | undefined {
  return all(parent, path)[0];
}

/** Trimmed text of the first match; absent when missing or blank. */
export function text(parent: Element | undefined, path: string): string | undefined {
  const element = first(parent, path);
  const value = element?.textContent?.trim();
  return value ? value : undefined;
}

export function attr(element: Element | undefined, name: string): string | undefined {
  const value = element?.getAttribute(name)?.trim();
  return value ? value : undefined;
}

/** A CII date (any of the udt/qdt string wrappers) as ISO `YYYY-MM-DD` when written as format 102. */
export function date(parent: Element | undefined, path: string): string | undefined {
  const holder = first(parent, path);
  const value = text(holder, "udt:DateTimeString") ?? text(holder, "udt:DateString") ?? text(holder, "qdt:DateTimeString");
  if (value === undefined) return undefined;
  return /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : value;
}

/** A group read from an element that held no term at all is no group. */
export function unlessEmpty<T extends object>(value: T): T | undefined {
  return Object.values(value).some((v) => v !== undefined) ? value : undefined;
}

/** `udt:Indicator` content as a boolean. */
export function indicator(parent: Element | undefined, path: string): boolean | undefined {
  const value = text(first(parent, path), "udt:Indicator");
  return value === undefined ? undefined : value === "true" || value === "1";
}

const escapeText = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
const escapeAttr = (s: string) => escapeText(s).replaceAll('"', "&quot;").replaceAll("\n", "&#10;").replaceAll("\r", "&#13;").replaceAll("\t", "&#9;");

/** UTF-8 text with two-space indentation; the root declares the four CII prefixes. */
export function serialize(root: XmlNode): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const declarations = Object.entries(NAMESPACES).map(([p, uri]) => ` xmlns:${p}="${uri}"`).join("");
  const emit = (node: XmlNode, depth: number, extra: string) => {
    const pad = "  ".repeat(depth);
    const attrs = Object.entries(node.attributes ?? {}).map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join("");
    const open = `${pad}<${node.name}${extra}${attrs}`;
    if (node.children.length === 0) {
      lines.push(node.text === undefined ? `${open}/>` : `${open}>${escapeText(node.text)}</${node.name}>`);
      return;
    }
    lines.push(`${open}>`);
    for (const child of node.children) emit(child, depth + 1, "");
    lines.push(`${pad}</${node.name}>`);
  };
  emit(root, 0, declarations);
  return `${lines.join("\n")}\n`;
}
