// Runs one tier of the suite (test/tiers.ts) in one `bun test`, after checking that the table still
// covers every test file exactly once: bun scripts/test-tier.ts unit|conformance|proofs [bun test options]

import { filesOf, TIERS, type Tier } from "../test/tiers.ts";

const [tier, ...options] = process.argv.slice(2);
if (!tier || !Object.hasOwn(TIERS, tier)) {
  console.error(`usage: bun scripts/test-tier.ts ${Object.keys(TIERS).join("|")} [bun test options]`);
  process.exit(2);
}
// The timeout is npm test's ("bun test --timeout 120000"), so a file behaves the same in either run.
const args = ["test", "--timeout", "120000", ...options, ...filesOf(tier as Tier).map((file) => `./${file}`)];
const run = Bun.spawn([process.execPath, ...args], { stdio: ["inherit", "inherit", "inherit"] });
process.exit(await run.exited);
