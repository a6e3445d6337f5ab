import bundlePath from "../../build/assets/rulesets.bundle" with { type: "file" };
import { Bundle } from "./bundle-format";

/**
 * The ruleset bundle made by `scripts/bundle-assets.ts`. The file import makes `bun build --compile`
 * embed it; outside the executable it resolves to the file in build/.
 */
let loaded: Bundle | undefined;

export function rulesetBundle(): Bundle {
  loaded ??= new Bundle(new Uint8Array(require("node:fs").readFileSync(bundlePath)));
  return loaded;
}
