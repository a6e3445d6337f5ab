// KoSIT's validator configuration for XRechnung (pinned as xrechnung_severity_overrides) read as
// data: its scenarios, each with the XPath `match` that picks it for a document and the
// `createReport/customLevel` overrides its report applies. KoSIT takes the first scenario whose match
// holds; so do we, evaluating the match with the native XPath engine on the tree the rules judge.

import type { XDocument, XNode } from "../native/xpath/document";
import { readXml } from "../native/xml-reader";
import { compileTestXPath, type Test } from "../native/xpath/compile";
import { Scope } from "../native/xpath/context";
import { CompileSession } from "../native/xpath/session";
import type { Severity } from "./result";

const SCENARIOS_NS = "http://www.xoev.de/de/validator/framework/1/scenarios";

/**
 * The repository's scenarios.xml is the template KoSIT's build fills in: these are the values its
 * build.xml (lines 31-42 at tag v2026-01-31, not pinned) gives the placeholders a `match` uses.
 * Any other placeholder left in a match is refused, never guessed.
 */
const XRECHNUNG_SPEC_ID = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0";
const PLACEHOLDERS: Record<string, string> = {
  "xrechnung.spec.id": XRECHNUNG_SPEC_ID,
  "xrechnung.extension.id": `${XRECHNUNG_SPEC_ID}#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0`,
  "xrechnung.cvd.id": `${XRECHNUNG_SPEC_ID}#compliant#urn:xeinkauf.de:kosit:xrechnung:cvd_0.9`,
};

/**
 * KoSIT's report levels as the spec's severities. Only `error` rejects in KoSIT's assessment, and in
 * a verdict only fatal and error make `valid` false, so acceptance is the same either way.
 */
const LEVELS: Record<string, Severity> = { error: "error", warning: "warning", information: "info" };

export interface Scenario {
  name: string;
  matches: Test;
  /** Rule id -> the severity the scenario gives its findings. */
  levels: ReadonlyMap<string, Severity>;
}

const childrenNamed = (node: XNode, local: string) => node.childrenNamed(SCENARIOS_NS, local);
const textOf = (node: XNode) => node.stringValue().trim();

function fill(match: string, scenario: string): string {
  const filled = match.replace(/@([\w.]+)@/g, (placeholder, name: string) => PLACEHOLDERS[name] ?? placeholder);
  const left = /@[\w.]+@/.exec(filled);
  if (left) throw new Error(`scenarios.xml, scenario "${scenario}": no value known for ${left[0]} in its match`);
  return filled;
}

function scenarioOf(element: XNode): Scenario {
  const name = textOf(childrenNamed(element, "name")[0]!);
  const namespaces = new Map(childrenNamed(element, "namespace").map((ns) => [ns.attributes.find((a) => a.local === "prefix")!.value, textOf(ns)]));
  const [match] = childrenNamed(element, "match");
  if (!match) throw new Error(`scenarios.xml, scenario "${name}": no match`);
  const levels = new Map<string, Severity>();
  for (const report of childrenNamed(element, "createReport")) {
    for (const custom of childrenNamed(report, "customLevel")) {
      const level = custom.attributes.find((a) => a.local === "level")?.value ?? "";
      const severity = LEVELS[level];
      if (!severity) throw new Error(`scenarios.xml, scenario "${name}": unknown customLevel level "${level}"`);
      for (const id of textOf(custom).split(/\s+/)) levels.set(id, severity);
    }
  }
  return { name, matches: compileTestXPath(fill(textOf(match), name), new Scope(new CompileSession(), namespaces, new Map())), levels };
}

/** Every scenario of a scenarios.xml, in document order. */
export function readScenarios(bytes: Uint8Array): Scenario[] {
  const root = readXml(bytes).node.children.find((n) => n.local === "scenarios" && n.ns === SCENARIOS_NS);
  if (!root) throw new Error("scenarios.xml: no scenarios root in the KoSIT namespace");
  return childrenNamed(root, "scenario").map(scenarioOf);
}

/** The scenario KoSIT's validator would pick for the document: the first whose match holds. */
export function scenarioFor(scenarios: readonly Scenario[], document: XDocument): Scenario | undefined {
  // A fresh frame per run: the evaluator caches context-free values in it.
  return scenarios.find((s) => s.matches({ item: document.node, position: 1, size: 1 }, { document, globals: [], locals: [] }));
}
