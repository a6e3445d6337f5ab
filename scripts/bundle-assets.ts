// Repacks build/assets/rulesets.bundle from the synced files and the SEFs already compiled, without
// compiling any: after a change to the native engine, its plans are in the bundle in seconds. A rule
// file the native engine then refuses, and that has no SEF, needs `bun scripts/rulesets.ts all`.
import { buildBundle, bundleSummary, nativeModels, planless } from "../src/assets/build-bundle";
import { prepareRulesets } from "../src/rulesets/compile";

const { index } = await prepareRulesets();
const models = nativeModels(index.entries);
const unrunnable = index.entries.filter((e) => !e.sef && planless(e, models)).map((e) => e.id);
console.log(bundleSummary(buildBundle(index, models)));
if (unrunnable.length) console.warn(`bundle: no native plan and no SEF, so they cannot run (bun scripts/rulesets.ts all compiles them):\n  ${unrunnable.join("\n  ")}`);
