// Fits a written tree to one target schema: children are put in the schema's sequence order,
// elements and attributes the target does not declare (or declares fewer times) are removed, and
// every removal is reported with the business terms it carried.

import type { LostField } from "../binding.ts";
import type { XmlNode } from "../xml-writer.ts";
import type { SchemaTable } from "./schemas.gen.ts";

interface ChildRule {
  name: string;
  type: string;
  required: boolean;
  max: number;
}

const ROOT_TYPE = "rsm:CrossIndustryInvoiceType";

function parseSpec(spec: string): ChildRule {
  const m = /^([^:]+):([a-z]+:[A-Za-z]+)(!?)(\*|\d*)$/.exec(spec);
  if (!m) throw new Error(`bad schema table entry ${spec}`);
  const [, name, type, required, max] = m;
  return { name: name!, type: type!, required: required === "!", max: max === "*" ? Infinity : max ? Number(max) : 1 };
}

const localName = (qname: string) => qname.slice(qname.indexOf(":") + 1);

export function fit(root: XmlNode, table: SchemaTable): { root: XmlNode; lost: LostField[] } {
  const rules = new Map<string, ChildRule[]>();
  const rulesOf = (type: string) => {
    let r = rules.get(type);
    if (!r) rules.set(type, (r = (table.sequences[type] ?? []).map(parseSpec)));
    return r;
  };
  const lost: LostField[] = [];
  const drop = (node: XmlNode, xpath: string) => {
    const before = lost.length;
    collectTerms(node, xpath, lost);
    if (lost.length === before) lost.push({ xpath });
  };

  const fitNode = (node: XmlNode, type: string, required: boolean, xpath: string): XmlNode | undefined => {
    if (!(type in table.sequences)) return fitData(node, type, xpath);
    const childRules = rulesOf(type);
    const counts = new Map<string, number>();
    const kept: { node: XmlNode; order: number }[] = [];
    for (const child of node.children) {
      const childPath = `${xpath}/${child.name}`;
      const order = childRules.findIndex((r) => r.name === localName(child.name));
      const rule = childRules[order];
      const seen = (counts.get(child.name) ?? 0) + 1;
      if (!rule || seen > rule.max) {
        drop(child, childPath);
        continue;
      }
      const fitted = fitNode(child, rule.type, rule.required, childPath);
      if (!fitted) continue;
      counts.set(child.name, seen);
      kept.push({ node: fitted, order });
    }
    kept.sort((a, b) => a.order - b.order);
    const children = kept.map((k) => k.node);
    // A group whose every child was dropped says nothing; omit it unless the schema demands it
    // (its loss is already reported).
    if (children.length === 0 && node.children.length > 0 && !required) return undefined;
    return { ...node, children };
  };

  const fitData = (node: XmlNode, type: string, xpath: string): XmlNode => {
    if (!node.attributes) return node;
    const allowed = new Set(table.attributes[type as keyof typeof table.attributes] ?? []);
    const attributes: Record<string, string> = {};
    for (const [name, value] of Object.entries(node.attributes)) {
      if (allowed.has(name) || node.children.length > 0) attributes[name] = value;
      else lost.push({ xpath: `${xpath}/@${name}`, ...(node.bt && { bt: `${node.bt} (${name})` }) });
    }
    return { ...node, attributes };
  };

  const fitted = fitNode(root, ROOT_TYPE, true, `/${root.name}`)!;
  return { root: fitted, lost };
}

function collectTerms(node: XmlNode, xpath: string, into: LostField[]): void {
  if (node.bt) into.push({ bt: node.bt, xpath });
  for (const child of node.children) collectTerms(child, `${xpath}/${child.name}`, into);
}
