// One process of the cross-process storage test: opens the database the way `serve` does and runs
// `count` concurrent spends or computed refunds against one organization's live window, then
// prints how many succeeded.
//   bun test/instances/spender.ts LOCATION ORG_JSON spend|refund COUNT

import { openStorage } from "../../src/db/open";
import { refundUnit, spendUnit, windowOpening } from "../../src/accounts/quota";

const [location, orgJson, operation, count] = process.argv.slice(2);
const storage = await openStorage(location!);
const org = JSON.parse(orgJson!);
const once = async () => {
  const now = new Date();
  if (operation === "spend") return (await spendUnit(storage, now, org, true)).ok;
  return refundUnit(storage, now, windowOpening(now, org, true), true);
};
const outcomes = await Promise.all(Array.from({ length: Number(count) }, once));
console.log(JSON.stringify({ succeeded: outcomes.filter(Boolean).length }));
await storage.close();
