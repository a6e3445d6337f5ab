import xmlPackage from "libxml2-wasm/package.json";
import type { Bundle } from "../assets/bundle-format";
import { createXsdEngine } from "./xsd";
import { RuleEngines, type RuleEngineChoice } from "./rule-engines";
import type { Engine } from "./validate";

/** One engine per worker: schemas and stylesheets are loaded once and reused for every document. */
export function createEngine(bundle: Bundle, ruleEngine?: RuleEngineChoice): Engine {
  return {
    xsd: createXsdEngine((path) => bundle.read(`files/${path}`)),
    schematron: new RuleEngines(bundle, ruleEngine),
    xsdRuntime: `libxml2-wasm ${xmlPackage.version}`,
    pinned: (path) => bundle.read(`files/${path}`),
  };
}
