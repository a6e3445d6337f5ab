// Nothing silent: a source is given, one at a time, an element or attribute its schema allows and
// the model may not carry, and the conversion either carries the value into the target or refuses.
// A 200 without the value would be a silent loss; no such outcome passes.
//
// CII: every leaf element and attribute the Factur-X EXTENDED schema (CII D22B) declares below an
// aggregate a generated EXTENDED invoice holds, so EXTENDED-only and D22B-only places are covered.
// UBL: an extension, and the places UBL has and EN 16931 does not. Sub-lines into CII, and a
// binary attachment, as the issue names them.

import { describe, expect, test } from "bun:test";
import { DOMParser, XMLSerializer, type Document, type Element } from "@xmldom/xmldom";
import type { ConvertQuery } from "../../src/convert/convert.ts";
import { converter } from "../support/convert.ts";
import { generateXml, type GenerateInput } from "../../src/generate/generate.ts";
import { SCHEMAS } from "../../src/syntax/cii/schemas.ts";
import type { SchemaTable } from "../../src/syntax/cii/schemas.gen.ts";
import { NAMESPACES } from "../../src/syntax/cii/vocabulary.ts";
import { DomainError } from "../../src/errors/domain-error.ts";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";
import { buildMissing, cannotRun } from "../support/requirements.ts";

const skip = cannotRun("convert mutations", buildMissing());

type Outcome = { carried: boolean } | { refused: string; paths: string[] };

const convert = skip ? undefined : converter();
async function outcomeOf(bytes: Uint8Array, query: ConvertQuery, value: string): Promise<Outcome> {
  try {
    const converted = await convert!(bytes, query);
    return { carried: new TextDecoder().decode(converted.file).includes(value) };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { refused: error.code, paths: (error.details?.unmappablePaths as string[] | undefined) ?? [] };
  }
}

/** A value no generated document holds, of the shape the element's data type reads. */
function valueFor(type: string, n: number): string {
  if (/Amount|Quantity|Numeric|Percent|Rate/.test(type)) return `${7000 + n}.13`;
  return `MUTANT${n}`;
}

const PREFIX_OF = Object.fromEntries(Object.entries(NAMESPACES).map(([prefix, uri]) => [uri, prefix]));
/** Data types whose value sits in a child element (a date string, an indicator), not in the element's text. */
const WRAPPED = /DateTimeType|DateType|IndicatorType|FormattedDateTimeType|BinaryObjectType/;

interface Mutation {
  where: string;
  apply(doc: Document): void;
  value: string;
}

/** Each leaf child and attribute the EXTENDED schema allows below the aggregates the document holds, absent from it. */
function ciiMutations(xml: string): Mutation[] {
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const table: SchemaTable = SCHEMAS.extended;
  const mutations: Mutation[] = [];
  let n = 0;
  const walk = (element: Element, type: string, path: number[]) => {
    const children = Array.from(element.childNodes).filter((c): c is Element => c.nodeType === 1);
    for (const spec of table.sequences[type] ?? []) {
      const [name, prefix, local] = spec.replace(/[!*]|<\d+>/g, "").split(":");
      const childType = `${prefix}:${local}`;
      const present = children.filter((c) => c.localName === name);
      for (const child of present) walk(child, childType, [...path, children.indexOf(child)]);
      if (present.length || table.sequences[childType] || WRAPPED.test(childType)) continue;
      const value = valueFor(childType, n++);
      mutations.push({
        where: `${elementPath(element)}/ram:${name}`,
        value,
        apply: (d) => {
          const parent = at(d, path);
          const added = d.createElementNS(NAMESPACES.ram, `ram:${name}`);
          added.appendChild(d.createTextNode(value));
          parent.appendChild(added);
        },
      });
    }
    if (!(table.sequences[type] ?? []).length) {
      for (const attribute of table.attributes[type] ?? []) {
        if (element.hasAttribute(attribute)) continue;
        const value = `MUTANT${n++}`;
        mutations.push({ where: `${elementPath(element)}/@${attribute}`, value, apply: (d) => at(d, path).setAttribute(attribute, value) });
      }
    }
  };
  walk(doc.documentElement!, "rsm:CrossIndustryInvoiceType", []);
  // Leaf elements present: their attributes are reached through the parent's walk above.
  return mutations;
}

function elementPath(element: Element): string {
  const steps: string[] = [];
  for (let e: Element | null = element; e && e.nodeType === 1; e = e.parentNode as Element | null) steps.unshift(`${PREFIX_OF[e.namespaceURI ?? ""] ?? ""}:${e.localName}`);
  return `/${steps.join("/")}`;
}

function at(doc: Document, path: number[]): Element {
  let e = doc.documentElement!;
  for (const i of path) e = Array.from(e.childNodes).filter((c): c is Element => c.nodeType === 1)[i]!;
  return e;
}

const mutated = (xml: string, mutation: Mutation) => {
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  mutation.apply(doc);
  return new TextEncoder().encode(new XMLSerializer().serializeToString(doc));
};

const generated = (request: Omit<GenerateInput, "invoice">, invoice = SCENARIOS[0]!.build(LOCALES.de)) => new TextDecoder().decode(generateXml({ ...request, invoice }, { livemode: true }).bytes);

describe.skipIf(skip)("every element the source schema allows is carried or refused, never dropped", () => {
  test("CII: each leaf the Factur-X EXTENDED schema declares, into UBL", async () => {
    const xml = generated({ standard: "facturx", profile: "extended" });
    const mutations = ciiMutations(xml);
    const tally = { carried: 0, refused: 0 };
    const silent: string[] = [];
    for (const mutation of mutations) {
      const outcome = await outcomeOf(mutated(xml, mutation), { targetFormat: "ubl" }, mutation.value);
      if ("carried" in outcome) {
        if (outcome.carried) tally.carried++;
        else silent.push(mutation.where);
      } else tally.refused++;
    }
    console.log(`CII mutations: ${mutations.length} places, ${tally.carried} carried into UBL, ${tally.refused} refused, ${silent.length} dropped silently`);
    expect(silent).toEqual([]);
    expect(mutations.length).toBeGreaterThan(100);
  }, 600_000);

  test("UBL: extension content, and places UBL has and EN 16931 does not, are refused naming them", async () => {
    const xml = generated({ standard: "xrechnung", syntax: "ubl" });
    const cases: [string, string, string][] = [
      ["extension", "<cbc:CustomizationID>", '<ext:UBLExtensions xmlns:ext="urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2"><ext:UBLExtension><ext:ExtensionContent><Custom>MUTANT-EXT</Custom></ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions><cbc:CustomizationID>'],
      ["issue time", "<cbc:InvoiceTypeCode>", "<cbc:IssueTime>12:00:00</cbc:IssueTime><cbc:InvoiceTypeCode>"],
      ["line note beside the item", "<cac:Item>", "<cbc:AccountingCost>MUTANT-ACC</cbc:AccountingCost><cac:Item>"],
    ];
    for (const [what, anchor, replacement] of cases) {
      expect([what, xml.includes(anchor)]).toEqual([what, true]);
      const bytes = new TextEncoder().encode(xml.replace(anchor, replacement));
      const outcome = await outcomeOf(bytes, { targetFormat: "cii" }, "MUTANT");
      if ("carried" in outcome) expect([what, "carried", outcome.carried]).toEqual([what, "carried", true]);
      else expect([what, outcome.refused, outcome.paths.length > 0]).toEqual([what, "CONVERSION_LOSSY_FAILCLOSED", true]);
    }
  }, 120_000);

  test("sub-lines (XRechnung UBL extension) into CII are refused, naming the lines", async () => {
    const withSubLines = SCENARIOS.find((s) => s.name === "sub-lines")!.build(LOCALES.de);
    const xml = generated({ standard: "xrechnung", syntax: "ubl" }, withSubLines);
    const outcome = await outcomeOf(new TextEncoder().encode(xml), { targetFormat: "cii" }, "Laptop");
    expect(outcome).toEqual({ refused: "CONVERSION_LOSSY_FAILCLOSED", paths: ["/Invoice/cac:InvoiceLine[1]"] });
  }, 60_000);
});
